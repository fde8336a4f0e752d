import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { FLAG_APPROVER } from '../../agent/approval/approver';
import { ChatCompletionsClient } from '../../agent/llm/chat-completions-client';
import { AgentLoop, type AgentLoopOptions } from '../../agent/loop/agent-loop';
import { type Script, type ScriptedLlmServer, startScriptedLlmServer } from '../../agent/test-support/scripted-llm-server';
import { Transcript } from '../../agent/transcript/transcript';
import { toolEventEntry } from '../../agent/transcript/transcript-entry';
import { DEFAULT_LLM_CONFIG } from '../../config/llm-config';
import { TransportClientFactory } from '../../mcp/client-factory';
import type { McpServerConfig } from '../../mcp/server-config';
import type { AgentRuntime } from '../agent-runtime';
import { createAgentRuntime } from '../runtime-factory';

export interface LoopOverServers {
  readonly loop: AgentLoop;
  readonly runtime: AgentRuntime;
  readonly llm: ScriptedLlmServer;
  readonly warnings: string[];
  /** The transcript's entries so far (tool calls, the gate's verdicts, results). */
  transcript(): Array<Record<string, unknown>>;
  /** The tool names offered in each model request, in order. */
  offered(): string[][];
  close(): Promise<void>;
}

/**
 * The agent loop as `chat` runs it, over a real runtime (real MCP servers, real client manager) and the
 * scripted model, approving every call: for tests of what the model is offered while servers change.
 */
export async function loopOverServers(
  servers: readonly McpServerConfig[],
  script: Script,
  { toolDefinitionBudget, ...options }: Pick<AgentLoopOptions, 'resultLimits'> & { toolDefinitionBudget?: number } = {},
): Promise<LoopOverServers> {
  const warnings: string[] = [];
  const llm = await startScriptedLlmServer(script);
  const runtime = await createAgentRuntime(
    {
      file: 'test',
      servers,
      llm: { ...DEFAULT_LLM_CONFIG, toolDefinitionBudget: toolDefinitionBudget ?? DEFAULT_LLM_CONFIG.toolDefinitionBudget },
    },
    {
      clientFactory: new TransportClientFactory({ name: 'loop-test', version: '0' }),
      log: { warn: (message) => warnings.push(message) },
      workingDirectory: process.cwd(),
    },
  );
  const model = new ChatCompletionsClient({ provider: 'openai-chat', baseUrl: llm.baseUrl, model: 'scripted', requestTimeoutMs: 20_000 });
  const transcriptFile = path.join(mkdtempSync(path.join(tmpdir(), 'loop-servers-')), 't.jsonl');
  const transcript = new Transcript(transcriptFile, () => undefined);
  const executor = runtime.executor({ cap: 'destructive', approver: FLAG_APPROVER }, (event) => transcript.record(toolEventEntry(event)));
  const loop = new AgentLoop({
    model,
    tools: runtime.tools,
    deferral: runtime.deferral,
    executor,
    transcript,
    systemPrompt: 'sys',
    maxTurns: 5,
    ...options,
  });
  return {
    loop,
    runtime,
    llm,
    warnings,
    transcript: () =>
      readFileSync(transcriptFile, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    offered: () => llm.requests.map((request) => (request.body.tools ?? []).map((tool) => tool.function.name)),
    close: async () => {
      transcript.close();
      await model.close();
      await runtime.close();
      await llm.close();
    },
  };
}

/** The text of the `tool` message that answered the call `id`, as the model got it. */
export function toolMessage(llm: ScriptedLlmServer, id: string): string | undefined {
  for (const request of llm.requests) {
    const message = request.body.messages.find((m) => m.role === 'tool' && m.tool_call_id === id);
    if (message) return String(message.content);
  }
  return undefined;
}
