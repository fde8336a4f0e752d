import { CST, Lexer, Parser } from 'yaml';

import { RegistryError, RegistryErrorCode } from '../errors';

/** How much YAML the catalogue composes (`mcp.catalogue.maxYamlDepth`, `mcp.catalogue.maxYamlNodes`). */
export interface YamlLimits {
  /** Most collections nested one in another. */
  readonly maxDepth: number;
  /** Most nodes, counted as the lexer reads them (see `countsAsNode`). */
  readonly maxNodes: number;
}

/**
 * The defaults, and their reasons, are in docs/gateway.md, "OpenAPI documents as a tool source": the depth
 * is the one every document meets later anyway (DEFAULT_MAX_DEPTH); the node count lets through a
 * document of 5,000 operations and bounds the composer's work to a few seconds and about 500 MB.
 */
export const DEFAULT_YAML_LIMITS: YamlLimits = { maxDepth: 256, maxNodes: 500_000 };

/** Lexer tokens that make a node, or place one YAML may leave empty (`- `, `? `, `: `): an upper bound on the nodes composed. */
const NODE_TOKENS: ReadonlySet<string> = new Set([
  'scalar',
  'single-quoted-scalar',
  'double-quoted-scalar',
  'alias',
  'flow-map-start',
  'flow-seq-start',
  'seq-item-ind',
  'explicit-key-ind',
  'map-value-ind',
]);

/**
 * Refuses a YAML text nested or sized beyond `limits` before it is composed. Composing a deep document
 * costs yaml's composer time and memory that grow faster than its size (2 MB of nesting: 31.8 s of CPU
 * and 2.2 GB, issue 43), so the text is first run through the library's own lexer and CST parser, which
 * keep the open collections on a stack: the check stops at the first token past a limit, so a hostile
 * document costs a few microseconds per token up to the limit and nothing after.
 */
export function assertWithinYamlLimits(text: string, limits: YamlLimits, where: string): void {
  const parser = new Parser();
  let nodes = 0;
  let scalarFollows = false;
  for (const lexeme of new Lexer().lex(text)) {
    // A plain or block scalar's text comes after its marker and is never itself an indicator.
    const type: string | null = scalarFollows ? null : CST.tokenType(lexeme);
    scalarFollows = type === 'scalar';
    if (type !== null && NODE_TOKENS.has(type) && ++nodes > limits.maxNodes) {
      throw new RegistryError(
        RegistryErrorCode.YamlTooManyNodes,
        `${where} has more than ${limits.maxNodes} YAML nodes (mcp.catalogue.maxYamlNodes)`,
      );
    }
    const step = parser.next(lexeme);
    while (!step.next().done) {
      // what the parser completes is dropped: only its stack is read
    }
    if (openCollections(parser.stack) > limits.maxDepth) {
      throw new RegistryError(
        RegistryErrorCode.YamlTooDeep,
        `${where} nests YAML deeper than ${limits.maxDepth} levels (mcp.catalogue.maxYamlDepth)`,
      );
    }
  }
}

/** The parser's stack is the document, the collections open in it, and at most one scalar being read on top. */
function openCollections(stack: readonly CST.Token[]): number {
  let depth = stack.length;
  if (depth > 0 && !CST.isCollection(stack[0])) depth -= 1;
  if (stack.length > 1 && !CST.isCollection(stack[stack.length - 1])) depth -= 1;
  return depth;
}
