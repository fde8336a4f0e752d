import { checkInterceptorSettings } from '../config/interceptor-settings';
import { testTool } from '../test-support/test-tool';
import { buildCallInterceptors } from './call-interceptors';

const KNOWN = { endpoints: ['support'], bundles: ['core', 'db'] };
const NO_SECRETS = { read: () => undefined };
const refuse = { name: 'no-drop', kind: 'refuse', refuse: [{ path: '$.query', pattern: 'drop\\s+table', ignoreCase: true }] };

describe('interceptors configuration', () => {
  it('accepts each kind with its block, the SEP-2624 fields and the selectors', () => {
    const entries = [
      { ...refuse, mode: 'audit', failOpen: true, timeoutMs: 500, tools: ['sql_*'], bundles: ['db'], endpoints: ['support'] },
      { name: 'clean', kind: 'redact', redact: { secrets: true, personalData: ['EMAIL'] } },
      {
        name: 'guard',
        kind: 'webhook',
        phase: 'both',
        webhook: { url: 'http://127.0.0.1:9/check', maxReplyBytes: 4096, headers: { Authorization: { env: 'GUARD_AUTHORIZATION' } } },
      },
    ];
    expect(checkInterceptorSettings(entries, KNOWN)).toHaveLength(3);
  });

  it.each([
    [[{ kind: 'refuse' }], 'interceptors.0.name is required'],
    [[{ ...refuse, mode: 'block' }], 'interceptors.0.mode must be equal to one of the allowed values'],
    [[{ ...refuse, timeoutMs: 0 }], 'interceptors.0.timeoutMs must be >= 1'],
    [[{ ...refuse, tools: ['bad name!'] }], 'interceptors.0.tools.0 must match pattern'],
    [[{ ...refuse, webhook: { url: 'http://x' } }], 'interceptors[0] (no-drop): a refuse interceptor takes no "webhook" block'],
    [[{ name: 'r', kind: 'refuse' }], 'interceptors[0] (r): kind refuse needs "refuse": a list of { path, pattern } rules'],
    [[{ ...refuse, phase: 'response' }], 'interceptors[0] (no-drop): a refuse interceptor checks arguments, so its phase is request'],
    [
      [{ name: 'c', kind: 'redact', phase: 'request' }],
      'interceptors[0] (c): a redact interceptor cleans results, so its phase is response',
    ],
    [[{ name: 'w', kind: 'webhook' }], 'interceptors[0] (w): kind webhook needs "webhook": { url }'],
    [[{ name: 'w', kind: 'webhook', webhook: { url: 'ftp://x' } }], 'interceptors.0.webhook.url must match pattern'],
    [
      [{ name: 'w', kind: 'webhook', webhook: { url: 'http://x', headers: { Authorization: 'Bearer in-the-yaml' } } }],
      'interceptors.0.webhook.headers.Authorization must be object',
    ],
    [
      [{ name: 'w', kind: 'webhook', webhook: { url: 'http://x', headers: { Host: { env: 'H' } } } }],
      'interceptors[0] (w).webhook.headers: Host is a header only the gateway sets',
    ],
    [[refuse, refuse], 'interceptors[1] (no-drop): the name no-drop is used twice'],
    [
      [{ ...refuse, endpoints: ['sales'] }],
      'interceptors[0] (no-drop).endpoints: there is no curated endpoint (mcp.endpoints) named sales',
    ],
    [[{ ...refuse, bundles: ['billing'] }], 'interceptors[0] (no-drop).bundles: there is no bundle (mcp.bundles) named billing'],
  ])('refuses %j, naming what to fix', (entries, message) => {
    expect(() => checkInterceptorSettings(entries, KNOWN)).toThrow(message);
  });

  it.each([
    [[{ ...refuse, refuse: [{ path: 'query', pattern: 'x' }] }], 'interceptors[0] (no-drop).refuse[0].path "query": a path starts with $'],
    [
      [
        {
          ...refuse,
          refuse: [
            { path: '$.q', pattern: 'x' },
            { path: '$.q', pattern: '(a)\\1' },
          ],
        },
      ],
      'interceptors[0] (no-drop).refuse[1].pattern: pattern "(a)\\1" cannot run in linear time',
    ],
  ])('refuses %j when the interceptors are built, naming the rule', (entries, message) => {
    expect(() => buildCallInterceptors(checkInterceptorSettings(entries, KNOWN), NO_SECRETS)).toThrow(message);
  });

  it('builds nothing when none is configured', () => {
    expect(buildCallInterceptors(undefined, NO_SECRETS)).toBeUndefined();
    expect(buildCallInterceptors([], NO_SECRETS)).toBeUndefined();
  });

  it('selects by endpoint, bundle and tool pattern, and gives a tool no interceptor selects no chain', () => {
    const interceptors = buildCallInterceptors(
      checkInterceptorSettings(
        [
          { ...refuse, name: 'sql', tools: ['sql_*'] },
          { ...refuse, name: 'db', bundles: ['db'] },
          { ...refuse, name: 'support', endpoints: ['support'] },
        ],
        KNOWN,
      ),
      NO_SECRETS,
    );
    const names = (tool = testTool('echo'), endpoint?: string) => interceptors?.chainFor(tool, endpoint)?.names ?? [];
    expect(names(testTool('sql_query'))).toEqual(['sql']);
    expect(names(testTool('echo', { routeToken: 'db' }))).toEqual(['db']);
    expect(names(testTool('echo'), 'support')).toEqual(['support']);
    expect(names(testTool('sql_query', { routeToken: 'db' }), 'support')).toEqual(['sql', 'db', 'support']);
    expect(interceptors?.chainFor(testTool('echo'))).toBeUndefined();
    const tool = testTool('sql_x');
    expect(interceptors?.chainFor(tool)).toBe(interceptors?.chainFor(tool));
  });
});
