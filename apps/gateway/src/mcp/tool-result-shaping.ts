import type { GatewayCallToolResult } from '../execution/result-mapper';
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
    const fitted = budget !== undefined && result.content[0].text.length > budget ? cutToBudget(result, budget) : result;
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
  // Never split a surrogate pair: a lone half is not valid text for the client's JSON decoder to keep.
  const kept = isHighSurrogate(text.charCodeAt(budget - 1)) ? budget - 1 : budget;
  const figures: OutputBudgetFigures = {
    budgetChars: budget,
    originalChars: text.length,
    cutChars: text.length - kept,
    structuredContentDropped: result.structuredContent !== undefined,
  };
  const dropped = figures.structuredContentDropped
    ? '; its structuredContent was dropped, since a cut value would not match its outputSchema'
    : '';
  const notice = `\n\n[toolmesh: cut ${figures.cutChars} of ${figures.originalChars} characters: the result is over this tool's output budget of ${budget} characters${dropped}]`;
  return {
    content: [{ ...block, text: text.slice(0, kept) + notice }],
    isError: result.isError || figures.structuredContentDropped,
    _meta: { [OUTPUT_BUDGET_META_KEY]: figures },
  };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
