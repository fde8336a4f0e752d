import { type BundleTarget, validateManifest } from './validate-manifest';

const target: BundleTarget = { name: 'core', serviceDomain: 'http://tools.internal:8081/api/' };
const tool = (fields: Record<string, unknown>) => ({ name: 'echo', inputSchema: { type: 'object' }, endpoint: '/tools/echo', ...fields });

function problemsOf(document: unknown, bundle = target): string[] {
  const result = validateManifest(document, bundle);
  if (result.ok) throw new Error('expected the manifest to be rejected');
  return result.problems;
}

describe('validateManifest', () => {
  it('keeps public fields untouched and strips execution details', () => {
    const manifest = {
      revision: 'r7',
      tools: [
        tool({
          title: 'Echo',
          description: 'Echoes',
          inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
          annotations: { readOnlyHint: true },
          timeoutMillis: 1500,
          maxResultChars: 100_000,
          _meta: { owner: 'team-a' },
          internalNote: 'not public',
        }),
      ],
    };
    const result = validateManifest(manifest, target);
    if (!result.ok) throw new Error(result.problems.join());
    const [definition] = result.manifest.tools;
    expect(definition.publicTool).toEqual({
      name: 'echo',
      title: 'Echo',
      description: 'Echoes',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      annotations: { readOnlyHint: true },
    });
    expect(definition.endpoint.href).toBe('http://tools.internal:8081/api/tools/echo');
    expect(definition.target).toEqual({ kind: 'service' });
    expect(definition.timeoutMillis).toBe(1500);
    expect(definition.maxResultChars).toBe(100_000);
    expect(result.manifest.revision).toBe('r7');
  });

  it.each([
    ['an absolute http URL, used as is', { endpoint: 'http://other.internal:9000/x' }, 'http://other.internal:9000/x'],
    ['an absolute https URL', { endpoint: 'https://other.internal/x?v=1' }, 'https://other.internal/x?v=1'],
    [
      '_meta.endpoint when there is no top-level one',
      { endpoint: undefined, _meta: { endpoint: '/meta/path' } },
      'http://tools.internal:8081/api/meta/path',
    ],
    [
      'the top-level endpoint over _meta.endpoint',
      { endpoint: '/top', _meta: { endpoint: '/meta' } },
      'http://tools.internal:8081/api/top',
    ],
  ])('resolves %s (SPEC G10)', (_, fields, href) => {
    const result = validateManifest({ tools: [tool(fields)] }, target);
    expect(result.ok && result.manifest.tools[0].endpoint.href).toBe(href);
  });

  it.each([
    ['no endpoint', { endpoint: undefined }, 'endpoint is missing'],
    ['a relative path without /', { endpoint: 'tools/echo' }, 'must be an absolute http(s) URL or a path starting with "/"'],
    ['a protocol-relative URL', { endpoint: '//evil.example.com/x' }, 'must be an absolute http(s) URL'],
    ['another scheme', { endpoint: 'file:///etc/passwd' }, 'must be an absolute http(s) URL'],
    ['credentials in the URL', { endpoint: 'http://user:pw@tools.internal/x' }, 'must not carry credentials'],
  ])('refuses %s', (_, fields, problem) => {
    expect(problemsOf({ tools: [tool(fields)] })).toEqual([expect.stringContaining(problem)]);
  });

  it.each([0, -1, 1.5, '100'])('refuses an output budget (maxResultChars) of %p', (maxResultChars) => {
    expect(problemsOf({ tools: [tool({ maxResultChars })] })).toEqual([expect.stringContaining('maxResultChars')]);
  });

  it('keeps the scopes a tool requires (SPEC G27), out of its public fields', () => {
    const result = validateManifest({ tools: [tool({ requiredScopes: ['orders:read', 'orders:write'] })] }, target);
    if (!result.ok) throw new Error(result.problems.join());
    expect(result.manifest.tools[0].requiredScopes).toEqual(['orders:read', 'orders:write']);
    expect(result.manifest.tools[0].publicTool).not.toHaveProperty('requiredScopes');
  });

  it.each([[['a b']], [['quote"d']], ['orders:read'], [[42]]])('refuses requiredScopes of %p', (requiredScopes) => {
    expect(problemsOf({ tools: [tool({ requiredScopes })] })).toEqual([expect.stringContaining('requiredScopes')]);
  });

  it('refuses duplicate names, wrong prefixes and schema violations, all reported together', () => {
    const problems = problemsOf(
      { tools: [tool({ name: 'a_x' }), tool({ name: 'a_x' }), tool({ name: 'b_y' })] },
      { ...target, namePrefix: 'a_' },
    );
    expect(problems).toEqual(['tool a_x: duplicate name', 'tool b_y: name must start with "a_"']);
    expect(problemsOf({ tools: [{ name: 'bad name!', inputSchema: { type: 'string' } }] })).toEqual(
      expect.arrayContaining([
        expect.stringContaining('manifest.tools.0.name'),
        expect.stringContaining('manifest.tools.0.inputSchema.type'),
      ]),
    );
    expect(problemsOf({ notTools: [] })).toEqual(['manifest.tools is required']);
    expect(problemsOf('not an object')).toEqual([expect.stringContaining('must be object')]);
  });
});
