import type { Tool, ToolResult } from '../tool';
import { BuiltinTool, type BuiltinToolContext, textResult } from './builtin-tool';

interface ToolSearchArgs {
  readonly query: string;
  readonly limit?: number;
}

/** What ToolSearch needs of the deferral (tools/tool-deferral.ts): the search, and how much is left out. */
interface DeferredToolFinder {
  find(query: string, limit: number): readonly Tool[];
  readonly deferredCount: number;
}

export const TOOL_SEARCH_NAME = 'ToolSearch';
const DEFAULT_LIMIT = 5;
const MAX_LIMIT = 20;

/**
 * `ToolSearch` (SPEC A21): the model's way to the MCP tools left out of its requests because their
 * definitions are over `llm.toolDefinitionBudget`. It ranks them by the query (names, descriptions,
 * parameter names) and lists the best; those are sent in full from the model's next turn on. It reads
 * nothing outside the agent, so it runs without a question.
 */
export class ToolSearchTool extends BuiltinTool<ToolSearchArgs> {
  readonly name = TOOL_SEARCH_NAME;
  readonly inputSchema = {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        minLength: 1,
        description: 'What the tool should do, in a few words (e.g. "export invoices as csv"), or part of its name.',
      },
      limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, description: `Most tools to return (default ${DEFAULT_LIMIT}).` },
    },
    required: ['query'],
    additionalProperties: false,
  } as const;
  readonly sideEffects = { level: 'read-only', destructive: false, basis: 'declared' } as const;

  constructor(
    context: BuiltinToolContext,
    private readonly finder: DeferredToolFinder,
  ) {
    super(context);
  }

  get description(): string {
    const count = this.finder.deferredCount;
    return (
      `Finds MCP tools that are not in your tool list yet${count > 0 ? ` (${count} are left out to save room)` : ''}. ` +
      'Search by what you need done; the best matches are listed with their descriptions, and their full definitions are in ' +
      'your tool list from your next turn on: call them then. Search again with other words if none fits.'
    );
  }

  protected run({ query, limit = DEFAULT_LIMIT }: ToolSearchArgs): Promise<ToolResult> {
    const found = this.finder.find(query, limit);
    if (found.length === 0) return Promise.resolve(textResult(`no tool matches "${query}"; try other words`, { tools: [] }));
    const lines = found.map((tool) => `- ${tool.name}: ${firstLine(tool.description)}`);
    const text = `${found.length} tool(s) found; their definitions are in your tool list from your next turn on:\n${lines.join('\n')}`;
    return Promise.resolve(textResult(text, { tools: found.map((tool) => tool.name) }));
  }
}

function firstLine(text: string): string {
  const line = text.split('\n')[0];
  return line.length > 300 ? `${line.slice(0, 300)}...` : line;
}
