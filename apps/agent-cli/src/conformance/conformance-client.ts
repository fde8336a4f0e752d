import { Agent } from 'undici';
import { errorMessage, McpClient, type ElicitResult, type ServerRequestHandlers } from '@toolmesh/protocol';
import { StreamableHttpClientTransport } from '@toolmesh/transport-http/client';
import { version } from '../../../../package.json';
import { defaultAnswers } from '../mcp/host/elicitation-form';
import { conformanceOAuth, isAuthScenario, runAuthScenario } from './conformance-auth';

/**
 * The client the official MCP conformance suite drives (`conformance client --command ...`): it runs
 * `<this> <server-url>` with MCP_CONFORMANCE_SCENARIO set, against a mock server per scenario. Built
 * into dist/apps/agent-cli/conformance-client.js; it uses exactly the agent's HTTP transport and client.
 *
 * Scenarios: initialize (handshake only), tools_call (list the tools, call add_numbers), sse-retry (a
 * call whose reply stream the server ends early) and elicitation-sep1034-client-defaults (a call whose
 * server asks a form of the client, which must fill in the schema's defaults).
 */
const SCENARIOS: Readonly<Record<string, (client: McpClient) => Promise<void>>> = {
  initialize: async () => undefined,
  tools_call: (client) => callListedTool(client, 'add_numbers', { a: 5, b: 3 }),
  // The server ends the reply stream early; the transport must resume it with GET + Last-Event-ID.
  'sse-retry': (client) => callListedTool(client, 'test_reconnection', {}),
  'elicitation-sep1034-client-defaults': (client) => callListedTool(client, 'test_client_elicitation_defaults', {}),
};

/**
 * Nobody is at a terminal here: every form is accepted as it stands, which is its defaults, filled in
 * by the agent's own form code (SEP-1034).
 */
const serverRequests: ServerRequestHandlers = {
  elicitation: async (params) => ({ action: 'accept', content: 'requestedSchema' in params ? (defaultAnswers(params) as ElicitResult['content']) : {} }),
};

async function callListedTool(client: McpClient, name: string, args: Record<string, unknown>): Promise<void> {
  const tools = await client.listTools();
  if (!tools.some((t) => t.name === name)) throw new Error(`the server lists no ${name} tool`);
  const result = await client.callTool(name, args);
  if (result.isError) throw new Error(`${name} returned an error: ${JSON.stringify(result.content)}`);
}

async function main(): Promise<number> {
  const url = process.argv[2];
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? 'initialize';
  const run = isAuthScenario(scenario) ? runAuthScenario : SCENARIOS[scenario];
  if (!url || !run) {
    process.stderr.write(`usage: conformance-client <server-url> with MCP_CONFORMANCE_SCENARIO one of: ${Object.keys(SCENARIOS).join(', ')} (got "${scenario}")\n`);
    return 2;
  }
  const pool = new Agent({ keepAliveTimeout: 5000 });
  // auth/*: the agent's OAuth, with a headless user in place of the browser (conformance-auth.ts).
  const auth = isAuthScenario(scenario) ? conformanceOAuth(new URL(url), process.env.MCP_CONFORMANCE_CONTEXT) : undefined;
  const client = new McpClient(new StreamableHttpClientTransport(new URL(url), { dispatcher: pool, authorization: auth?.oauth }), {
    serverName: 'conformance',
    clientInfo: { name: 'toolmesh-agent-cli', version },
    requestTimeoutMs: 10_000,
    onError: (error) => process.stderr.write(`transport: ${error.message}\n`),
    serverRequests,
  });
  try {
    await client.connect();
    await run(client);
    return 0;
  } catch (error) {
    process.stderr.write(`scenario ${scenario} failed: ${errorMessage(error)}\n`);
    return 1;
  } finally {
    await client.close();
    await pool.close();
    auth?.dispose();
  }
}

void main().then((code) => {
  process.exitCode = code;
});
