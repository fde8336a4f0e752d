import { SchemaCompiler } from '@toolmesh/protocol';
import type { ToolDefinition } from '@toolmesh/registry';

const ANY_OBJECT = new SchemaCompiler().compile({ type: 'object' });

/** A tool service's tool of bundle `core` taking any object, as the registry would serve it, with `extra` over it: for unit specs. */
export function testTool(name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return {
    name,
    publicTool: { name, inputSchema: { type: 'object' } },
    endpoint: new URL(`http://tools.internal/${name}`),
    target: { kind: 'service' },
    inputValidator: ANY_OBJECT,
    mcpHeaders: [],
    routeToken: 'core',
    ...extra,
  };
}
