import { type ElicitResult, McpClient, type ServerRequestHandlers, type Tool } from '@toolmesh/mcp-client';
import { errorMessage, SchemaCompiler, SchemaError } from '@toolmesh/protocol';
import { StreamableHttpClientTransport } from '@toolmesh/transport-http/client';
import { Agent } from 'undici';

import { version } from '../../../../package.json';
import { AgentError, AgentErrorCode } from '../errors/agent-errors';
import { defaultAnswers } from '../mcp/host/elicitation-form';
import { loadServerSkill, readServerSkillFile, skillFiles } from '../skills/server-skills';
import { conformanceOAuth, isAuthScenario, runAuthScenario } from './conformance-auth';

/**
 * The client the official MCP conformance suite drives (`conformance client --command ...`): it runs
 * `<this> <server-url>` with MCP_CONFORMANCE_SCENARIO set (and MCP_CONFORMANCE_CONTEXT for scenarios
 * that say what to call), against a mock server per scenario. Built into
 * dist/apps/agent-cli/conformance/conformance-client.js; it uses exactly the agent's HTTP transport and
 * client with the agent's default era, `auto`: the 2025 scenarios meet a server that answers the
 * `server/discover` probe with an error (then `initialize`), the 2026-07-28 ones a server that answers it.
 */
type Scenario = (client: McpClient, context: ScenarioContext) => Promise<void>;

interface ScenarioContext {
  readonly toolCalls?: ReadonlyArray<{ readonly name: string; readonly arguments?: Record<string, unknown> }>;
}

const SCENARIOS: Readonly<Record<string, Scenario>> = {
  // Era detection and the handshake (or the discover result) only.
  initialize: async () => undefined,
  'request-metadata': async () => undefined,
  tools_call: (client) => callListedTool(client, 'add_numbers', { a: 5, b: 3 }),
  // The server ends the reply stream early; the transport must resume it with GET + Last-Event-ID.
  'sse-retry': (client) => callListedTool(client, 'test_reconnection', {}),
  'elicitation-sep1034-client-defaults': (client) => callListedTool(client, 'test_client_elicitation_defaults', {}),
  // input_required rounds, answered by the elicitation handler; requestState echoed byte for byte.
  'sep-2322-client-request-state': async (client) => {
    for (const name of ['test_mrtr_echo_state', 'test_mrtr_no_state', 'test_mrtr_unrelated', 'test_mrtr_no_result_type'])
      await callListedTool(client, name, {});
  },
  // The schema the client holds goes back verbatim: nothing it parsed may have changed it.
  'json-schema-2020-12-preservation': async (client) => {
    const focal = (await client.listTools()).find((t) => t.name === 'json_schema_2020_12_tool');
    if (!focal) throw new Error('the server lists no json_schema_2020_12_tool');
    await callListedTool(client, 'json_schema_echo', { schema: focal.inputSchema });
  },
  // The agent compiles every listed schema (as it does before offering a tool); no $ref is fetched.
  'json-schema-ref-no-deref': async (client) => {
    const schemas = new SchemaCompiler();
    for (const tool of await client.listTools()) compileAsTheAgentDoes(schemas, tool);
  },
  'http-standard-headers': async (client) => {
    for (const tool of await client.listTools()) await client.callTool(tool.name, {});
    const { features } = client;
    for (const resource of await features.listResources()) await features.readResource(resource.uri);
    for (const prompt of await features.listPrompts()) await features.getPrompt(prompt.name);
  },
  'http-custom-headers': async (client, context) => {
    for (const call of context.toolCalls ?? []) await callListedTool(client, call.name, call.arguments ?? {});
  },
  // Tools whose x-mcp-header breaks the rules are not listed: every tool that is listed is called.
  'http-invalid-tool-headers': async (client) => {
    for (const tool of await client.listTools()) await client.callTool(tool.name, requiredStrings(tool));
  },
  // SEP-2640: listing reads no skill file; loading checks SKILL.md, and only a skill that passed has its files read.
  'sep-2640-client-no-prefetch': async (client) => void (await client.features.listSkills()),
  'sep-2640-client-verify-digest': useSkills,
  'sep-2640-client-verify-size': useSkills,
  'sep-2640-client-verify-frontmatter': useSkills,
};

/**
 * Loads every listed skill as the agent's LoadSkill does (skills/server-skills.ts) and, for one that was
 * not refused, reads each of its files as ReadSkillFile does. A refusal is the expected outcome of a
 * tampered skill, said on stderr; the run still succeeds.
 */
async function useSkills(client: McpClient): Promise<void> {
  for (const entry of await client.features.listSkills()) {
    const skill = { server: 'conformance', features: client.features, entry };
    try {
      await loadServerSkill(skill);
    } catch (error) {
      if (!(error instanceof AgentError && error.code === AgentErrorCode.SkillRefused)) throw error;
      process.stderr.write(`${error.message}\n`);
      continue;
    }
    for (const file of skillFiles(entry)) await readServerSkillFile(skill, file);
  }
}

/**
 * Nobody is at a terminal here: every form is accepted as it stands, which is its defaults, filled in
 * by the agent's own form code (SEP-1034).
 */
const serverRequests: ServerRequestHandlers = {
  elicitation: async (params) => ({
    action: 'accept',
    content: 'requestedSchema' in params ? (defaultAnswers(params) as ElicitResult['content']) : {},
  }),
};

async function callListedTool(client: McpClient, name: string, args: Record<string, unknown>): Promise<void> {
  const tools = await client.listTools();
  if (!tools.some((t) => t.name === name)) throw new Error(`the server lists no ${name} tool`);
  const result = await client.callTool(name, args);
  if (result.isError) throw new Error(`${name} returned an error: ${JSON.stringify(result.content)}`);
}

function compileAsTheAgentDoes(schemas: SchemaCompiler, tool: Tool): void {
  try {
    schemas.compile(tool.inputSchema);
  } catch (error) {
    // The agent skips such a tool with a warning; what matters here is that nothing was fetched.
    if (!(error instanceof SchemaError)) throw error;
    process.stderr.write(`tool ${tool.name} skipped: ${error.message}\n`);
  }
}

/** An argument for each required string property: enough to call a tool whose schema asks for nothing else. */
function requiredStrings(tool: Tool): Record<string, unknown> {
  const required = Array.isArray(tool.inputSchema.required) ? (tool.inputSchema.required as string[]) : [];
  return Object.fromEntries(required.map((name) => [name, 'conformance']));
}

function scenarioContext(): ScenarioContext {
  const text = process.env.MCP_CONFORMANCE_CONTEXT;
  return text ? (JSON.parse(text) as ScenarioContext) : {};
}

async function main(): Promise<number> {
  const url = process.argv[2];
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? 'initialize';
  const run = isAuthScenario(scenario) ? runAuthScenario : SCENARIOS[scenario];
  if (!url || !run) {
    process.stderr.write(
      `usage: conformance-client <server-url> with MCP_CONFORMANCE_SCENARIO one of: ${Object.keys(SCENARIOS).join(', ')} (got "${scenario}")\n`,
    );
    return 2;
  }
  const pool = new Agent({ keepAliveTimeout: 5000 });
  // auth/*: the agent's OAuth, with a headless user in place of the browser (conformance-auth.ts).
  const auth = isAuthScenario(scenario) ? conformanceOAuth(new URL(url), process.env.MCP_CONFORMANCE_CONTEXT) : undefined;
  const client = new McpClient(new StreamableHttpClientTransport(new URL(url), { dispatcher: pool, authorization: auth?.oauth }), {
    serverName: 'conformance',
    clientInfo: { name: 'toolmesh-agent-cli', version },
    requestTimeoutMs: 10_000,
    era: 'auto',
    onError: (error) => process.stderr.write(`transport: ${error.message}\n`),
    serverRequests,
  });
  try {
    await client.connect();
    process.stderr.write(`connected: era ${client.era}, protocol ${client.protocolVersion}\n`);
    await run(client, scenarioContext());
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
