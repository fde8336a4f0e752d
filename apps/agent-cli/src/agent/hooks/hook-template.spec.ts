import { type SeededRandom, seededRandom } from '@toolmesh/test-peers/seeded-random';
import { stringify } from 'yaml';

import type { Template } from '../../config/hook-file';
import { parseHookFile } from '../../config/load-hook-files';
import { AgentError, AgentErrorCode } from '../../errors/agent-errors';
import { type HookEventContext, renderTemplate } from './hook-template';

const post: HookEventContext = {
  event: 'PostToolUse',
  tool: { name: 'mcp__files__write' },
  args: { path: '/srv/a.txt', meta: { size: 3, tags: ['x', 'y'] }, count: 0, flag: false, none: null },
  result: { text: 'wrote 3 bytes', isError: false },
};

describe('renderTemplate', () => {
  it.each<[string, Template, unknown]>([
    ['a whole-string placeholder as the value itself: an object', '{{args.meta}}', { size: 3, tags: ['x', 'y'] }],
    ['... a number', '{{args.meta.size}}', 3],
    ['... zero and false as themselves', ['{{args.count}}', '{{args.flag}}'], [0, false]],
    ['... true/false of the result', '{{result.isError}}', false],
    ['... all arguments', '{{args}}', post.args],
    ['... a list element by index', '{{args.meta.tags.1}}', 'y'],
    ['... null when the path is missing', ['{{args.nope}}', '{{args.path.deeper}}', '{{args.none}}'], [null, null, null]],
    ['spaces inside the braces', '{{ tool.name }}', 'mcp__files__write'],
    [
      'placeholders inside text, as text',
      '{{event}}: {{tool.name}} wrote {{args.meta.size}} to {{args.path}} ({{result.text}})',
      'PostToolUse: mcp__files__write wrote 3 to /srv/a.txt (wrote 3 bytes)',
    ],
    [
      'objects inside text as JSON, missing as empty',
      'meta={{args.meta}} missing=[{{args.nope}}] none=[{{args.none}}] flag={{args.flag}}',
      'meta={"size":3,"tags":["x","y"]} missing=[] none=[] flag=false',
    ],
    [
      'nested templates; keys are taken as written',
      { '{{tool.name}}': ['{{args.count}}', { deep: 'at {{args.path}}' }], n: 1, b: true, z: null },
      { '{{tool.name}}': [0, { deep: 'at /srv/a.txt' }], n: 1, b: true, z: null },
    ],
    [
      'no evaluation and no prototype walking',
      ['{{args.path.length}}', '{{args.constructor}}', '{{args.__proto__}}', '{{toString}}'],
      [null, null, null, null],
    ],
  ])('renders %s', (_, template, expected) => {
    expect(renderTemplate(template, post)).toEqual(expected);
  });

  it('has no result before the call', () => {
    expect(
      renderTemplate({ text: '{{result.text}}', all: 'r={{result.isError}}' }, { event: 'PreToolUse', tool: { name: 'Read' }, args: {} }),
    ).toEqual({ text: null, all: 'r=' });
  });
});

/** Random JSON-ish values, with strings biased towards placeholders and broken braces. */
function randomValue(random: SeededRandom, depth = 0): unknown {
  const strings = [
    '{{args.path}}',
    '{{ args.a.b.0 }}',
    '{{result.text}}',
    '{{tool.name}} x',
    '{{',
    '}}',
    '{{}}',
    '{{args..a}}',
    '{{args.__proto__}}',
    '{{event}}{{event}}',
    'plain',
    '',
    '{{ {{args}} }}',
    '{{constructor}}',
    '$${X}',
  ];
  switch (random.int(depth > 3 ? 4 : 7)) {
    case 0:
      return random.pick(strings);
    case 1:
      return random.pick([0, -1, 1.5, true, false, null, Number.MAX_SAFE_INTEGER]);
    case 2:
      return random.pick(strings) + random.pick(strings);
    case 3:
      return Array.from({ length: random.int(4) }, () => String.fromCharCode(random.int(0x7f))).join('');
    case 4:
      return Array.from({ length: random.int(4) }, () => randomValue(random, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: random.int(4) }, () => [
          random.pick([
            'type',
            'server',
            'tool',
            'args',
            'url',
            'body',
            'method',
            'headers',
            'event',
            'matcher',
            'timeoutMs',
            'action',
            'x',
          ]),
          randomValue(random, depth + 1),
        ]),
      );
  }
}

describe('fuzz (seeded)', () => {
  it('the renderer never throws and always yields JSON, whatever the template and the arguments', () => {
    const random = seededRandom(6006);
    for (let i = 0; i < 2000; i += 1) {
      const template = randomValue(random) as Template;
      const context: HookEventContext = {
        event: 'PostToolUse',
        tool: { name: 'T' },
        args: { a: randomValue(random), path: randomValue(random) },
        result: { text: 'r', isError: true },
      };
      const rendered = renderTemplate(template, context);
      expect(() => JSON.stringify(rendered)).not.toThrow();
    }
  });

  it('the hook file validator accepts or refuses with hooks.file_invalid, never anything else, for malformed hooks and malformed YAML', () => {
    const random = seededRandom(4242);
    let accepted = 0;
    for (let i = 0; i < 1500; i += 1) {
      const hookEntry = {
        event: random.pick(['PreToolUse', 'PostToolUse', 'Other', 1]),
        matcher: random.pick(['*', 'Write', 3, undefined]),
        action: randomValue(random),
      };
      if (random.int(3) === 0)
        Object.assign(hookEntry, {
          action: {
            type: random.pick(['mcp_tool', 'http']),
            server: 'p',
            tool: 't',
            url: 'http://127.0.0.1/h',
            args: randomValue(random),
            body: randomValue(random),
          },
        });
      let text = stringify({ name: random.pick(['audit', '', 7]), hooks: random.int(5) === 0 ? randomValue(random) : [hookEntry] });
      if (random.int(4) === 0)
        text =
          text.slice(0, random.int(text.length)) +
          random.pick(['{', ']', ':', '\t', '"', '&a', '*a', '\0']) +
          text.slice(random.int(text.length));
      try {
        parseHookFile(text, 'fuzz.yaml', {});
        accepted += 1;
      } catch (error) {
        expect(error).toBeInstanceOf(AgentError);
        expect([AgentErrorCode.HookFileInvalid, AgentErrorCode.ConfigMissingVariable]).toContain((error as AgentError).code);
        expect((error as AgentError).message).toContain('fuzz.yaml');
      }
    }
    expect(accepted).toBeGreaterThan(0);
  });
});
