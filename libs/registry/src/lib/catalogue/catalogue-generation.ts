import { createHash } from 'node:crypto';
import { RawJson } from '@toolmesh/protocol';
import type { ToolDefinition } from './tool-definition';

/**
 * One immutable state of the catalogue. The request path reads it without I/O; a refresh builds a new
 * generation and swaps it in whole, so a request sees one consistent catalogue from start to end. Per-
 * generation caches (compiled validators) key on the generation or its tool objects and die with it.
 */
export class CatalogueGeneration {
  readonly tools: ReadonlyMap<string, ToolDefinition>;
  /** `{"tools":[...]}`, serialized and encoded once, so `tools/list` writes its bytes whatever its size. */
  readonly toolsListResult: RawJson;
  readonly createdAt = new Date();

  constructor(
    readonly number: number,
    tools: readonly ToolDefinition[],
  ) {
    this.tools = new Map(tools.map((tool) => [tool.name, tool]));
    this.toolsListResult = new RawJson(JSON.stringify({ tools: tools.map((tool) => tool.publicTool) }));
  }

  private digest: string | undefined;

  /** A digest of the tool list, to tell replicas' lists apart without sending them (SPEC G21). */
  get listDigest(): string {
    return (this.digest ??= createHash('sha256').update(this.toolsListResult.bytes).digest('base64url'));
  }

  get size(): number {
    return this.tools.size;
  }

  /** Bytes of the serialized tool list, the measure the catalogue's size cap applies to. */
  get serializedBytes(): number {
    return this.toolsListResult.bytes.length;
  }
}
