import type { ForwardedToolResult, GatewayCallToolResult } from '../call/tool-call-outcome';
import type { ToolResultShaper } from './handlers/tools-call';

/** The result `_meta` key under which a cut result carries its figures (docs/manifest-format.md, "Output budgets"). */
export const OUTPUT_BUDGET_META_KEY = 'io.toolmesh/outputBudget';

/** What a cut result says in its `_meta`, for clients that act on it rather than read the notice. */
export interface OutputBudgetFigures {
  readonly budgetChars: number;
  readonly originalChars: number;
  readonly cutChars: number;
  readonly structuredContentDropped: boolean;
}

/**
 * Every change an era makes to a tool's result before it goes out, in one place, in order: the output
 * budget (both eras), then the 2025 era's `structuredContent` wrapping. Result variants negotiated per
 * request would be chosen here too.
 *
 * A result under its budget goes out as the very object the execution service made: the only cost on
 * that path is a length check (the tool is the one `tools/call` already looked up).
 */
export function toolResultShaper(era: 'legacy' | 'modern', defaultMaxResultChars: number | undefined): ToolResultShaper {
  return (tool, result) => {
    const budget = tool.maxResultChars ?? defaultMaxResultChars;
    let fitted = result;
    if (budget !== undefined) {
      // A tool service's result is one text block; an MCP server's may hold any blocks.
      if (tool.target.kind === 'mcp') fitted = fitForwarded(result as ForwardedToolResult, budget);
      else if ((result as GatewayCallToolResult).content[0].text.length > budget)
        fitted = cutToBudget(result as GatewayCallToolResult, budget);
    }
    if (era === 'legacy' && fitted.structuredContent !== undefined && tool.output?.wrapsForLegacy) {
      // 2025 clients take only an object as `structuredContent`: wrapped as the schema they were shown (SPEC G22).
      return { ...fitted, structuredContent: { result: fitted.structuredContent } };
    }
    return fitted;
  };
}

/**
 * Keeps the first `budget` characters of the text and says so in it, never silently. `structuredContent`
 * cannot be cut and stay valid against its schema, so it is dropped, and the result marked `isError`:
 * for a tool with an `outputSchema` a result without it is valid only as an error, and a client would
 * refuse it otherwise.
 */
function cutToBudget(
  result: GatewayCallToolResult,
  budget: number,
): GatewayCallToolResult & { _meta: Record<string, OutputBudgetFigures> } {
  const [block] = result.content;
  const { text } = block;
  const kept = keptChars(text, budget);
  const figures: OutputBudgetFigures = {
    budgetChars: budget,
    originalChars: text.length,
    cutChars: text.length - kept,
    structuredContentDropped: result.structuredContent !== undefined,
  };
  return {
    content: [{ ...block, text: text.slice(0, kept) + budgetNotice(figures) }],
    isError: result.isError || figures.structuredContentDropped,
    _meta: { [OUTPUT_BUDGET_META_KEY]: figures },
  };
}

/**
 * The budget over an MCP server's result (issue 28): its text blocks' characters together, cut in order,
 * the notice in a text block of its own; images, audio and resources pass untouched.
 */
function fitForwarded(result: ForwardedToolResult, budget: number): ForwardedToolResult {
  let total = 0;
  for (const block of result.content) if (isText(block)) total += block.text.length;
  if (total <= budget) return result;
  let left = budget;
  const content = result.content.map((block) => {
    if (!isText(block)) return block;
    const kept = keptChars(block.text, left);
    left -= kept;
    return { ...block, text: block.text.slice(0, kept) };
  });
  const figures: OutputBudgetFigures = {
    budgetChars: budget,
    originalChars: total,
    cutChars: total - (budget - left),
    structuredContentDropped: result.structuredContent !== undefined,
  };
  return {
    content: [...content, { type: 'text', text: budgetNotice(figures).trimStart() }],
    isError: result.isError === true || figures.structuredContentDropped,
    _meta: { ...result._meta, [OUTPUT_BUDGET_META_KEY]: figures },
  };
}

function isText(block: Readonly<Record<string, unknown>>): block is { type: 'text'; text: string } {
  return block.type === 'text' && typeof block.text === 'string';
}

/** How much of `text` fits `budget` characters: never splitting a surrogate pair, whose lone half is not valid text for the client's JSON decoder. */
function keptChars(text: string, budget: number): number {
  if (text.length <= budget) return text.length;
  return isHighSurrogate(text.charCodeAt(budget - 1)) ? budget - 1 : budget;
}

function budgetNotice(figures: OutputBudgetFigures): string {
  const dropped = figures.structuredContentDropped
    ? '; its structuredContent was dropped, since a cut value would not match its outputSchema'
    : '';
  return `\n\n[toolmesh: cut ${figures.cutChars} of ${figures.originalChars} characters: the result is over this tool's output budget of ${figures.budgetChars} characters${dropped}]`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
