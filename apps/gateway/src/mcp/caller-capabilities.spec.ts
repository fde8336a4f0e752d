import { SchemaCompiler } from '@toolmesh/protocol';
import { CatalogueGeneration, type ToolDefinition } from '@toolmesh/registry';
import type { RequestContext } from '@toolmesh/transport-http/server';

import { callerCapabilities, CapabilityViews, mayUse, sessionIdFor } from './caller-capabilities';

const tool = (name: string, requiredCapabilities?: string[]): ToolDefinition => ({
  name,
  publicTool: { name, inputSchema: { type: 'object' } },
  endpoint: new URL('http://mcp.internal/mcp'),
  target: { kind: 'mcp', upstreamTool: name, ...(requiredCapabilities && { requiredCapabilities }) },
  inputValidator: new SchemaCompiler().compile({ type: 'object' }),
  mcpHeaders: [],
  routeToken: 'everything',
});
const session = (sessionId?: string) => ({ sessionId }) as RequestContext;
const modern = (declared: Record<string, unknown>) => ({ _meta: { 'io.modelcontextprotocol/clientCapabilities': declared } });
const names = (generation: CatalogueGeneration) => [...generation.tools.keys()];

describe('what each caller may see, by the capabilities it declared (issue 44)', () => {
  it("reads a 2025 session's declaration from the session id initialize made, and a 2026 request's from its _meta", () => {
    const id = sessionIdFor({ sampling: {}, roots: { listChanged: true }, experimental: {} });
    expect(id).toMatch(/^[0-9a-f-]{36}\.\d$/);
    expect(callerCapabilities({}, session(id))).toBe(callerCapabilities(modern({ sampling: {}, roots: {} }), session()));
    expect(callerCapabilities({}, session(sessionIdFor(undefined)))).toBe(0);
    // No session id, or one this gateway did not make: nothing declared.
    expect(callerCapabilities({}, session())).toBe(0);
    expect(callerCapabilities({}, session('2b1f0c36-7d4e-4f8e-9d1c-3f5a6b7c8d9e'))).toBe(0);
  });

  it('lets a caller use a tool only when it declared every capability the tool needs', () => {
    const both = tool('both', ['sampling', 'roots']);
    const bits = (declared: Record<string, unknown>) => callerCapabilities(modern(declared), session());
    expect(mayUse(tool('echo'), 0)).toBe(true);
    expect(mayUse(both, bits({ sampling: {} }))).toBe(false);
    expect(mayUse(both, bits({ sampling: {}, roots: {}, elicitation: {} }))).toBe(true);
    // A capability the gateway does not relay is one no caller has.
    expect(mayUse(tool('tasks', ['tasks']), bits({ sampling: {}, roots: {}, elicitation: {} }))).toBe(false);
  });

  it('keeps a generation without such a tool whole, and builds one view per declaration once', () => {
    const views = new CapabilityViews(Number.POSITIVE_INFINITY);
    const plain = new CatalogueGeneration(1, [tool('echo')]);
    expect(views.gated(plain)).toBe(false);
    expect(views.visible(plain, {}, session())).toBe(plain);

    const gated = new CatalogueGeneration(2, [tool('echo'), tool('trigger-sampling-request', ['sampling'])]);
    expect(views.gated(gated)).toBe(true);
    const none = views.visible(gated, modern({}), session());
    expect(names(none)).toEqual(['echo']);
    expect(none.number).toBe(2);
    expect(views.visible(gated, {}, session())).toBe(none);
    expect(views.visible(gated, modern({ sampling: {} }), session())).toBe(gated);
  });
});
