import { type CallToolResult, Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

import { spawnGateway, writeGatewayConfig } from './gateway-process';
import { startEverything } from './mcp-servers';

/**
 * The built gateway federating server-everything (issue 28): its one bundle, `everything` (prefix `ev_`),
 * is server-everything's Streamable HTTP endpoint. For the specs of clients through a front gateway.
 */
export interface FederatingGateway {
  /** The front gateway's MCP endpoint. */
  readonly url: string;
  /** What each of FEDERATED_CALLS answered when made to server-everything directly, by tool. */
  readonly direct: ReadonlyMap<string, PassedOn>;
  stop(): Promise<void>;
}

/** The calls a client makes through the front gateway: each tool's name on server-everything, and its arguments. */
export const FEDERATED_CALLS: ReadonlyArray<readonly [tool: string, args: Record<string, unknown>]> = [
  ['echo', { message: 'federated' }],
  ['get-tiny-image', {}],
  ['get-resource-links', { count: 2 }],
];

/** The members of a result that a client must get unchanged through the gateway. */
export type PassedOn = Pick<CallToolResult, 'content' | 'structuredContent'> & { isError: boolean };

export const passedOn = ({ content, structuredContent, isError }: CallToolResult): PassedOn => ({
  content,
  structuredContent,
  isError: isError ?? false,
});

export async function startFederatingGateway(): Promise<FederatingGateway> {
  const everything = await startEverything();
  try {
    const front = await spawnEverythingGateway(everything.url);
    return {
      url: front.match[1],
      direct: await directResults(everything.url),
      stop: async () => {
        await front.stop();
        await everything.stop();
      },
    };
  } catch (error) {
    await everything.stop();
    throw error;
  }
}

/** The built gateway whose one bundle, `everything` (prefix `ev_`), is the server-everything at `everythingUrl`. */
export function spawnEverythingGateway(everythingUrl: string): ReturnType<typeof spawnGateway> {
  const file = writeGatewayConfig(
    `server: { port: 0, managementPort: 0 }
mcp:
  shutdownDrainMillis: 1000
  bundles:
    - { name: everything, namePrefix: ev_, mcpServer: { url: "\${EVERYTHING_URL}" } }
`,
  );
  return spawnGateway(file, { EVERYTHING_URL: everythingUrl });
}

async function directResults(url: string): Promise<Map<string, PassedOn>> {
  const client = new Client({ name: 'federation-reference', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    const results = new Map<string, PassedOn>();
    for (const [tool, args] of FEDERATED_CALLS)
      results.set(tool, passedOn((await client.callTool({ name: tool, arguments: args })) as CallToolResult));
    return results;
  } finally {
    await client.close();
  }
}
