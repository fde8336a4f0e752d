import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { AgentError, AgentErrorCode } from '../errors/agent-errors';
import { loadConfig } from './load-config';
import { DEFAULT_HOOK_TIMEOUT_MS, loadHookFiles, parseHookFile } from './load-hook-files';

const parse = (text: string, env: NodeJS.ProcessEnv = {}) => parseHookFile(text, 'audit.yaml', env);
const failure = (text: string, env: NodeJS.ProcessEnv = {}): AgentError => {
  try {
    parse(text, env);
  } catch (error) {
    return error as AgentError;
  }
  throw new Error('expected the hook file to be refused');
};
const hook = (lines: string) => `name: audit\nhooks:\n  - ${lines.trim().split('\n').join('\n    ')}\n`;

describe('hook files', () => {
  it('reads both actions with their defaults and ${ENV} in headers and url', () => {
    const skill = parse(
      `name: audit
description: Ask the policy server, tell the audit log
hooks:
  - event: PreToolUse
    matcher: "mcp__files__*"
    action:
      type: mcp_tool
      server: policy
      tool: check
      args: { tool: "{{tool.name}}", path: "{{args.path}}", limits: [1, "{{args.n}}"] }
  - event: PostToolUse
    timeoutMs: 2000
    action:
      type: http
      url: "https://\${AUDIT_HOST}/events"
      headers: { Authorization: "Bearer \${AUDIT_TOKEN}" }
`,
      { AUDIT_HOST: 'audit.example.com', AUDIT_TOKEN: 't0k3n' },
    );
    expect(skill).toEqual({
      name: 'audit',
      description: 'Ask the policy server, tell the audit log',
      file: 'audit.yaml',
      hooks: [
        {
          id: 'audit#0',
          event: 'PreToolUse',
          matcher: 'mcp__files__*',
          timeoutMs: DEFAULT_HOOK_TIMEOUT_MS,
          action: {
            type: 'mcp_tool',
            server: 'policy',
            tool: 'check',
            args: { tool: '{{tool.name}}', path: '{{args.path}}', limits: [1, '{{args.n}}'] },
          },
        },
        {
          id: 'audit#1',
          event: 'PostToolUse',
          matcher: '*',
          timeoutMs: 2000,
          action: {
            type: 'http',
            url: new URL('https://audit.example.com/events'),
            method: 'POST',
            headers: { Authorization: 'Bearer t0k3n' },
            body: undefined,
          },
        },
      ],
    });
  });

  it.each([
    ['a YAML syntax error', 'name: [a\n', /audit\.yaml is not valid YAML/],
    ['a list instead of a map', '- a\n', /audit\.yaml: the file must be a map with "name" and "hooks"/],
    ['a missing name', 'hooks: []\n', /audit\.yaml: name must be a non-empty string/],
    ['missing hooks', 'name: audit\n', /audit\.yaml: hooks must be a list of hooks/],
    ['an unknown top-level key', 'name: audit\nhooks: []\nhook: []\n', /hook is not a known setting \(known: name, description, hooks\)/],
    ['a missing event', hook('action: { type: http, url: "http://x" }'), /hooks\[0\]\.event must be one of "PreToolUse", "PostToolUse"/],
    [
      'an unknown event',
      hook('event: BeforeToolUse\naction: { type: http, url: "http://x" }'),
      /hooks\[0\]\.event must be one of "PreToolUse", "PostToolUse"/,
    ],
    [
      'a missing action type',
      hook('event: PreToolUse\naction: { url: "http://x" }'),
      /hooks\[0\]\.action\.type must be one of "mcp_tool", "http"/,
    ],
    [
      'an unknown action type',
      hook('event: PreToolUse\naction: { type: shell }'),
      /hooks\[0\]\.action\.type must be one of "mcp_tool", "http"/,
    ],
    [
      'a misspelt action setting',
      hook('event: PreToolUse\naction: { type: mcp_tool, server: s, tool: t, arg: {} }'),
      /hooks\[0\]\.action\.arg is not a known setting/,
    ],
    [
      'a missing server',
      hook('event: PreToolUse\naction: { type: mcp_tool, tool: t }'),
      /hooks\[0\]\.action\.server must be a non-empty string/,
    ],
    [
      'args that are not a map',
      hook('event: PreToolUse\naction: { type: mcp_tool, server: s, tool: t, args: "{{args}}" }'),
      /hooks\[0\]\.action\.args must be a map/,
    ],
    [
      'a templated URL',
      hook('event: PreToolUse\naction: { type: http, url: "http://x/{{args.path}}" }'),
      /hooks\[0\]\.action\.url is never templated/,
    ],
    [
      'a URL that is not http',
      hook('event: PreToolUse\naction: { type: http, url: "file:///etc/passwd" }'),
      /hooks\[0\]\.action\.url must be an http:\/\/ or https:\/\/ URL/,
    ],
    [
      'a GET request',
      hook('event: PreToolUse\naction: { type: http, url: "http://x", method: GET }'),
      /hooks\[0\]\.action\.method must be one of "POST", "PUT", "PATCH"/,
    ],
    [
      'an unknown placeholder',
      hook('event: PreToolUse\naction: { type: http, url: "http://x", body: { a: "{{tool.server}}" } }'),
      /hooks\[0\]\.action\.body\.a has \{\{tool\.server\}\}, which is not a placeholder \(known: /,
    ],
    [
      'an expression',
      hook('event: PreToolUse\naction: { type: http, url: "http://x", body: ["{{ args.a + 1 }}"] }'),
      /hooks\[0\]\.action\.body\[0\] has \{\{ args\.a \+ 1 \}\}, which is not a placeholder/,
    ],
    [
      'a result before there is one',
      hook('event: PreToolUse\naction: { type: http, url: "http://x", body: "{{result.text}}" }'),
      /\{\{result\.text\}\}, but a PreToolUse hook runs before there is a result/,
    ],
    [
      'an unclosed placeholder',
      hook('event: PostToolUse\naction: { type: http, url: "http://x", body: "{{result.text" }'),
      /hooks\[0\]\.action\.body has a "\{\{" that does not start a placeholder/,
    ],
    [
      'a zero timeout',
      hook('event: PreToolUse\ntimeoutMs: 0\naction: { type: http, url: "http://x" }'),
      /hooks\[0\]\.timeoutMs must be a positive whole number/,
    ],
  ])('refuses %s, naming the file and the setting', (_, text, message) => {
    const error = failure(text);
    expect(error).toBeInstanceOf(AgentError);
    expect(error.code).toBe(AgentErrorCode.HookFileInvalid);
    expect(error.message).toMatch(message);
    expect(error.message).toContain('audit.yaml');
  });

  it('names a missing ${VAR} in a header but never shows a header value', () => {
    const error = failure(
      hook('event: PreToolUse\naction: { type: http, url: "http://x", headers: { A: "${SET}", B: "Bearer ${UNSET}" } }'),
      { SET: 'header-secret' },
    );
    expect(error.code).toBe(AgentErrorCode.ConfigMissingVariable);
    expect(error.message).toContain('audit.yaml: hooks[0].action.headers.B uses ${UNSET}');
    expect(error.message).not.toContain('header-secret');
  });

  it('accepts the example hook file of docs/agent-cli.md', () => {
    const docs = readFileSync(path.join(__dirname, '../../../../docs/agent-cli.md'), 'utf8');
    const example = /```yaml\n# hooks\/guard\.yaml\n([\s\S]*?)```/.exec(docs)?.[1];
    expect(example).toBeDefined();
    const skill = parseHookFile(example as string, 'hooks/guard.yaml', { POLICY_TOKEN: 'p' });
    expect(skill.hooks.map((h) => [h.event, h.matcher, h.action.type])).toEqual([
      ['PreToolUse', 'mcp__files__*', 'mcp_tool'],
      ['PreToolUse', '{Write,Edit,Bash}', 'http'],
      ['PostToolUse', '*', 'http'],
    ]);
  });

  it('says which listed hook file is missing', () => {
    expect(() => loadHookFiles(['/nonexistent/hooks/audit.yaml'], {})).toThrow(
      expect.objectContaining({
        code: AgentErrorCode.HookFileNotFound,
        message: expect.stringContaining('hook file /nonexistent/hooks/audit.yaml does not exist'),
      }),
    );
  });
});

describe('hook files and skill folders in the agent configuration', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hooks-config-'));
  mkdirSync(path.join(dir, 'hooks'));
  writeFileSync(path.join(dir, 'hooks', 'audit.yaml'), hook('event: PreToolUse\naction: { type: mcp_tool, server: policy, tool: check }'));

  it('reads the listed files relative to the configuration file, not to the working directory', () => {
    writeFileSync(path.join(dir, 'agent-cli.yaml'), 'mcp:\n  servers: []\nhooks: [hooks/audit.yaml]\n');
    const config = loadConfig(path.join(dir, 'agent-cli.yaml'), {});
    expect(config.hooks).toEqual([
      expect.objectContaining({
        name: 'audit',
        file: path.join(dir, 'hooks', 'audit.yaml'),
        hooks: [expect.objectContaining({ id: 'audit#0' })],
      }),
    ]);
  });

  it('refuses a configuration whose hook file is missing or invalid', () => {
    writeFileSync(path.join(dir, 'missing.yaml'), 'hooks: [hooks/nope.yaml]\n');
    expect(() => loadConfig(path.join(dir, 'missing.yaml'), {})).toThrow(
      expect.objectContaining({
        code: AgentErrorCode.HookFileNotFound,
        message: expect.stringContaining(path.join(dir, 'hooks', 'nope.yaml')),
      }),
    );
    writeFileSync(path.join(dir, 'hooks', 'bad.yaml'), 'name: bad\nhooks: [{ event: Sometimes }]\n');
    writeFileSync(path.join(dir, 'bad.yaml'), 'hooks: [hooks/bad.yaml]\n');
    expect(() => loadConfig(path.join(dir, 'bad.yaml'), {})).toThrow(expect.objectContaining({ code: AgentErrorCode.HookFileInvalid }));
  });

  it('refuses a hooks entry that is not a list of paths', () => {
    writeFileSync(path.join(dir, 'typed.yaml'), 'hooks: hooks/audit.yaml\n');
    expect(() => loadConfig(path.join(dir, 'typed.yaml'), {})).toThrow(
      expect.objectContaining({ code: AgentErrorCode.ConfigInvalid, message: expect.stringContaining('hooks must be a list of strings') }),
    );
  });

  it('reads skill folders relative to the configuration file', () => {
    writeFileSync(path.join(dir, 'folders.yaml'), 'skills:\n  folders: [team-skills, /opt/skills]\n');
    expect(loadConfig(path.join(dir, 'folders.yaml'), {}).skillFolders).toEqual([path.join(dir, 'team-skills'), '/opt/skills']);
  });

  it('tells a configuration that still lists hook files under "skills" to rename the key', () => {
    writeFileSync(path.join(dir, 'old.yaml'), 'skills: [hooks/audit.yaml]\n');
    expect(() => loadConfig(path.join(dir, 'old.yaml'), {})).toThrow(
      expect.objectContaining({
        code: AgentErrorCode.ConfigInvalid,
        message: expect.stringContaining('rename "skills:" to "hooks:"'),
      }),
    );
  });

  it('refuses a skills section with another key than folders', () => {
    writeFileSync(path.join(dir, 'typo.yaml'), 'skills:\n  folder: [team-skills]\n');
    expect(() => loadConfig(path.join(dir, 'typo.yaml'), {})).toThrow(expect.objectContaining({ code: AgentErrorCode.ConfigInvalid }));
  });
});
