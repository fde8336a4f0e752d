/**
 * Deferred tools (docs/benchmarks.md, "Tool search"; SPEC A21): what the tool definitions in the agent's
 * requests to the model weigh, with deferral against without, in the same run. The real runtime (the
 * built-in tools, 10 local stdio MCP servers of 100 tools each, tools/test/peers/stdio-peer.mjs) and the
 * real agent loop, driven by an in-process scripted model that records each request:
 *
 * - with deferral (the default llm.toolDefinitionBudget): the model finds the tool with ToolSearch, calls
 *   it on the next turn, then answers (3 turns);
 * - without (a budget no catalogue reaches): every definition is sent; the model calls the tool at once,
 *   then answers (2 turns).
 *
 * Tokens are estimated as characters / 4 of the request's `tools` array, as the budget counts them. The
 * figure is the ratio of tokens of tool definitions per turn, deferral / none (goal at most 0.1x); the
 * whole task's total is printed too. Run: `node tools/bench/tool-search/run.mjs`.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { writeSyntheticToolFiles } from '@toolmesh/test-peers/synthetic-tool-catalogue';

import {
  AgentLoop,
  type AssistantReply,
  type ChatModel,
  type CompletionRequest,
  createAgentRuntime,
  DEFAULT_LLM_CONFIG,
  FLAG_APPROVER,
  type StdioServerConfig,
  Transcript,
  TransportClientFactory,
} from '../../../apps/agent-cli/src/bench-seam';
import { SMOKE, smokeRan } from '../smoke.mjs';

const ROOT = path.resolve(__dirname, '../../..');
const SERVERS = SMOKE ? 2 : 10;
const TOOLS_EACH = 100;
const WANTED = 'mcp__catalogue-1__billing_export_invoice';
const QUERY = 'export the invoices of the billing ledger as a csv file';

const STDIO_PEER = path.join(ROOT, 'tools/test/peers/stdio-peer.mjs');

/** The servers of the tool-search specs (apps/agent-cli/src/test-support/synthetic-servers.ts): the same catalogue. */
function servers(): StdioServerConfig[] {
  return writeSyntheticToolFiles(SERVERS, TOOLS_EACH).map((file, i) => ({
    name: `catalogue-${i}`,
    transport: 'stdio',
    command: process.execPath,
    args: [STDIO_PEER, `--tools-file=${file}`],
    env: {},
    requestTimeoutMs: 30_000,
    annotationTrust: 'trust',
  }));
}

type Step = { readonly tool: string; readonly args: Record<string, unknown> } | { readonly text: string };

/** A model that plays `steps` in order and keeps the size of each request's tool definitions. */
class ScriptedModel implements ChatModel {
  readonly definitionChars: number[] = [];
  readonly toolCounts: number[] = [];

  constructor(private readonly steps: readonly Step[]) {}

  complete(request: CompletionRequest): Promise<AssistantReply> {
    this.definitionChars.push(JSON.stringify(request.tools).length);
    this.toolCounts.push(request.tools.length);
    const step = this.steps[this.definitionChars.length - 1];
    if (step === undefined) throw new Error('the script has ended');
    if ('text' in step) return Promise.resolve({ text: step.text, toolCalls: [], finishReason: 'stop' });
    const call = { id: `call-${this.definitionChars.length}`, name: step.tool, arguments: JSON.stringify(step.args) };
    return Promise.resolve({ text: '', toolCalls: [call], finishReason: 'tool_calls' });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

async function run(label: string, budget: number, steps: readonly Step[]) {
  const workingDirectory = mkdtempSync(path.join(tmpdir(), 'bench-tool-search-'));
  const runtime = await createAgentRuntime(
    { file: 'bench', servers: servers(), llm: { ...DEFAULT_LLM_CONFIG, toolDefinitionBudget: budget } },
    { clientFactory: new TransportClientFactory({ name: 'bench', version: '0' }), log: { warn: () => undefined }, workingDirectory },
  );
  const transcript = new Transcript(path.join(workingDirectory, 'transcript.jsonl'), () => undefined);
  const model = new ScriptedModel(steps);
  try {
    const loop = new AgentLoop({
      model,
      tools: runtime.tools,
      deferral: runtime.deferral,
      executor: runtime.executor({ cap: 'destructive', approver: FLAG_APPROVER }),
      transcript,
      systemPrompt: 'bench',
      maxTurns: 5,
    });
    const outcome = await loop.send('export invoice inv-7 as csv');
    if (outcome.kind !== 'done') throw new Error(`${label}: the loop ended with ${outcome.kind}`);
  } finally {
    transcript.close();
    await runtime.close();
  }
  const tokens = model.definitionChars.map((chars) => Math.ceil(chars / 4));
  const total = tokens.reduce((sum, t) => sum + t, 0);
  const row = {
    label,
    turns: tokens.length,
    toolsPerTurn: model.toolCounts,
    tokensPerTurn: tokens,
    total,
    perTurn: Math.round(total / tokens.length),
  };
  console.log(
    `${label.padEnd(16)} ${row.turns} turns, tools sent per turn ${row.toolsPerTurn.join(' / ')}, definition tokens per turn ${tokens.join(' / ')} (mean ${row.perTurn}, task ${total})`,
  );
  return row;
}

async function main(): Promise<void> {
  console.log(`\n${SERVERS * TOOLS_EACH} MCP tools on ${SERVERS} stdio servers, node ${process.version}`);
  const exportCall = { tool: WANTED, args: { invoiceId: 'inv-7', format: 'csv' } };
  const deferred = await run('with deferral', DEFAULT_LLM_CONFIG.toolDefinitionBudget, [
    { tool: 'ToolSearch', args: { query: QUERY } },
    exportCall,
    { text: 'exported' },
  ]);
  const whole = await run('without', Number.MAX_SAFE_INTEGER, [exportCall, { text: 'exported' }]);
  const perTurn = deferred.perTurn / whole.perTurn;
  console.log(
    `\ntool-definition tokens per turn, deferral / none: ${perTurn.toFixed(3)}x (goal <= 0.1x); per task: ${(deferred.total / whole.total).toFixed(3)}x`,
  );
  if (!SMOKE) {
    mkdirSync(path.join(ROOT, 'tmp/bench'), { recursive: true });
    writeFileSync(path.join(ROOT, 'tmp/bench/tool-search.json'), `${JSON.stringify({ deferred, whole, perTurn }, null, 2)}\n`);
  }
}

main().then(
  () => smokeRan('tool-search'),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
