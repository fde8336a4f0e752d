import { type GetPromptResult, type Prompt } from '@toolmesh/mcp-client';
import { printableName } from '@toolmesh/protocol';

import { AgentError, AgentErrorCode } from '../../errors/agent-errors';
import { type ConnectedServers, listFromServers, type Listing, serverOffering } from './connected-servers';
import { promptArguments } from './prompt-text';

/**
 * The host's prompt client (SPEC A13): lists the connected servers' prompts and gets one with its
 * arguments. Like the resource client, an interface of its own beside the tool client.
 */
export class McpPromptClient {
  constructor(private readonly servers: ConnectedServers) {}

  list(server?: string, signal?: AbortSignal): Promise<Listing<Prompt>> {
    return listFromServers(this.servers, 'prompts', server, ({ features }) => features.listPrompts({ signal }));
  }

  /**
   * Gets the prompt `name` of `server` with `key=value` words as its arguments, checked against the
   * prompt's definition first, so a typo is told with the arguments the prompt takes.
   */
  async get(server: string, name: string, words: readonly string[], signal?: AbortSignal): Promise<GetPromptResult> {
    const { features } = serverOffering(this.servers, server, 'prompts');
    const prompts = await features.listPrompts({ signal });
    const prompt = prompts.find((p) => p.name === name);
    if (!prompt) {
      const names = prompts.map((p) => printableName(p.name)).join(', ') || 'none';
      throw new AgentError(
        AgentErrorCode.PromptNotFound,
        `MCP server "${server}" has no prompt named "${printableName(name)}" (its prompts: ${names})`,
      );
    }
    return features.getPrompt(name, promptArguments(prompt, words), { signal });
  }
}
