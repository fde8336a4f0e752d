import { errorMessage } from '@toolmesh/protocol';

import { BuiltinTool, type BuiltinToolContext, textResult } from '../../tools/builtin/builtin-tool';
import { errorResult, type Tool, type ToolResult } from '../../tools/tool';
import type { McpResourceClient } from './resource-client';
import { resourceContentsForModel } from './resource-contents';

const READ_ONLY = { level: 'read-only', destructive: false, basis: 'declared' } as const;

/**
 * The model's way to the connected servers' resources (as Claude Code offers it): two built-in tools,
 * read-only by the agent's own declaration (they only list and read), under the same gate and cap as
 * every other tool. Registered when at least one connected server offers resources.
 */
export function createResourceTools(context: BuiltinToolContext, resources: McpResourceClient): Tool[] {
  return [new ListMcpResourcesTool(context, resources), new ReadMcpResourceTool(context, resources)];
}

/** What both resource tools share: the connected servers' resources, only read. */
abstract class ResourceTool<Args> extends BuiltinTool<Args> {
  readonly sideEffects = READ_ONLY;

  constructor(
    context: BuiltinToolContext,
    protected readonly resources: McpResourceClient,
  ) {
    super(context);
  }
}

interface ListArgs {
  readonly server?: string;
}

class ListMcpResourcesTool extends ResourceTool<ListArgs> {
  readonly name = 'ListMcpResources';
  readonly description =
    'Lists the resources (files, documents, data) the connected MCP servers offer, one per line: server, URI, name, MIME type and description. ' +
    'Give `server` to list one server only. Read one with ReadMcpResource.';
  readonly inputSchema = {
    type: 'object',
    properties: { server: { type: 'string', minLength: 1, description: "Only this MCP server's resources." } },
    additionalProperties: false,
  } as const;

  protected async run({ server }: ListArgs, signal?: AbortSignal): Promise<ToolResult> {
    const [listing, templates] = await Promise.all([this.resources.list(server, signal), this.resources.templates(server, signal)]);
    const lines = [
      ...listing.items.map((r) => [r.server, r.uri, r.name, r.mimeType ?? '', r.description ?? ''].join('\t')),
      ...templates.items.map((t) =>
        [t.server, t.uriTemplate, `${t.name} (template: fill in the {placeholders} to read)`, t.mimeType ?? '', t.description ?? ''].join(
          '\t',
        ),
      ),
      ...[...listing.failures, ...templates.failures].map((f) => `${f.server}: could not list its resources: ${f.error}`),
    ];
    return textResult(lines.length > 0 ? lines.join('\n') : 'No connected MCP server offers resources.', {
      resources: listing.items,
      resourceTemplates: templates.items,
      failures: [...listing.failures, ...templates.failures],
    });
  }
}

interface ReadArgs {
  readonly server: string;
  readonly uri: string;
}

class ReadMcpResourceTool extends ResourceTool<ReadArgs> {
  readonly name = 'ReadMcpResource';
  readonly description =
    'Reads one resource of a connected MCP server by its URI (as ListMcpResources shows it, or a template with its placeholders filled in).';
  readonly inputSchema = {
    type: 'object',
    properties: {
      server: { type: 'string', minLength: 1, description: 'The MCP server, as ListMcpResources names it.' },
      uri: { type: 'string', minLength: 1, description: 'The resource URI.' },
    },
    required: ['server', 'uri'],
    additionalProperties: false,
  } as const;

  protected async run({ server, uri }: ReadArgs, signal?: AbortSignal): Promise<ToolResult> {
    try {
      return { isError: false, content: resourceContentsForModel(await this.resources.read(server, uri, signal)) };
    } catch (error) {
      return errorResult(`reading ${uri} from MCP server "${server}" failed: ${errorMessage(error)}`);
    }
  }
}
