import { setImmediate as nextTurn } from 'node:timers/promises';

import {
  canonicalDefinition,
  DEFINITION_HASH_META_KEY,
  definitionHash,
  readMcpHeaderBindings,
  type SchemaCompiler,
  SchemaError,
} from '@toolmesh/protocol';

import { RegistryErrorCode } from '../errors';
import type { PublicTool, RefusedTool, ToolDefinition, UncompiledTool } from '../model/tool-definition';

/**
 * How long compiling may hold the event loop before it lets requests, probes and other routes run. A
 * schema takes about 0.3 ms (0.5 ms with a pattern), so a route of 10,000 new schemas is about 2.7 s of
 * CPU: spread in slices of this size, calls keep being answered meanwhile.
 */
const SLICE_MILLIS = 10;

/**
 * Compiles each tool's `inputSchema` (SPEC N5), reads its `x-mcp-header` annotations (G25) and hashes its
 * definition into its `_meta` (issue 46): a tool
 * whose schema cannot be used, or whose annotations break the 2026 rules, is refused on its own, with its
 * code and why; the rest are served. Schemas the compiler already holds cost nothing.
 */
export async function compileToolSchemas(
  tools: readonly UncompiledTool[],
  schemas: SchemaCompiler,
): Promise<{ tools: ToolDefinition[]; refused: RefusedTool[] }> {
  const compiled: ToolDefinition[] = [];
  const refused: RefusedTool[] = [];
  let sliceStarted = performance.now();
  for (const tool of tools) {
    if (performance.now() - sliceStarted > SLICE_MILLIS) {
      await nextTurn();
      sliceStarted = performance.now();
    }
    const headers = readMcpHeaderBindings(tool.publicTool.inputSchema);
    if (!headers.ok) {
      refused.push({ name: tool.name, code: RegistryErrorCode.McpHeaderInvalid, message: `inputSchema: ${headers.problem}` });
      continue;
    }
    let part = 'inputSchema';
    try {
      const inputValidator = schemas.compile(tool.publicTool.inputSchema);
      part = 'outputSchema';
      const { outputSchema } = tool.publicTool;
      // An object, by the manifest schema.
      const output =
        outputSchema === undefined
          ? undefined
          : { validator: schemas.compile(outputSchema as object), wrapsForLegacy: !isObjectSchema(outputSchema) };
      compiled.push({
        ...tool,
        publicTool: withDefinitionHash(tool.publicTool),
        inputValidator,
        mcpHeaders: headers.bindings,
        ...(output && { output }),
      });
    } catch (error) {
      if (!(error instanceof SchemaError)) throw error;
      refused.push({ name: tool.name, code: error.code, message: `${part}: ${error.message}` });
    }
  }
  return { tools: compiled, refused };
}

/**
 * The tool as listed, with the hash of its canonical definition in its `_meta` (issue 46): computed here,
 * once per load of its source, so neither a `tools/list` nor a call pays for it. A source's own value under
 * that key (a gateway behind this one) is replaced: the hash is this gateway's word. The copy is made with
 * `Object.assign`, not an object spread: V8 keeps a spread's copy of a tool about 200 bytes larger, for the
 * life of the catalogue (docs/benchmarks.md, "Big catalogues": 0.2 MiB per 1,000 tools).
 */
function withDefinitionHash(publicTool: PublicTool): PublicTool {
  const meta = publicTool._meta;
  const own = typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? meta : undefined;
  const hashed = { [DEFINITION_HASH_META_KEY]: definitionHash(canonicalDefinition(publicTool)) };
  return Object.assign({}, publicTool, { _meta: own === undefined ? hashed : Object.assign({}, own, hashed) });
}

function isObjectSchema(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && (schema as { type?: unknown }).type === 'object';
}
