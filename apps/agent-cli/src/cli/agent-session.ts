/**
 * Wires one `run` or `chat` session over an open runtime: the transcript, the LLM client, the runtime's
 * executor behind the command line's gate, and the agent loop; all of it closed when the session ends.
 * What the runtime owns (tools, servers, hooks, rewake) is wired in runtime/runtime-factory.ts.
 */
import path from 'node:path';

import { errorMessage } from '@toolmesh/protocol';

import { type Approver, FLAG_APPROVER, NON_INTERACTIVE_APPROVER } from '../agent/approval/approver';
import { createChatModel } from '../agent/llm/create-chat-model';
import type { ModelSettings } from '../agent/llm/model-settings';
import { AgentLoop, type AgentLoopOptions, type LoopOutcome, type LoopTasks } from '../agent/loop/agent-loop';
import { ResultOverflow } from '../agent/loop/result-overflow';
import { defaultTranscriptFile, Transcript } from '../agent/transcript/transcript';
import { type SessionOutcome, toolEventEntry } from '../agent/transcript/transcript-entry';
import { DEFAULT_LLM_CONFIG, PROVIDER_DEFAULTS } from '../config/llm-config';
import type { AgentConfig } from '../config/load-config';
import { AgentError, AgentErrorCode } from '../errors/agent-errors';
import { userConfigDirectory } from '../mcp/oauth/credential-store';
import { storedSecrets } from '../mcp/oauth/stored-secrets';
import { PROGRAM } from '../program-name';
import type { AgentRuntime } from '../runtime/agent-runtime';
import { type AgentOptions, type CommandContext, withRuntime } from './command-context';

/** What one user message came to: the loop's outcome, or why it ended otherwise (already reported). */
export type SendResult = { readonly outcome: 'done'; readonly text: string } | { readonly outcome: 'max_turns' | 'error' | 'interrupted' };

/**
 * One agent session of `run` or `chat`: the runtime's tools, the executor with the command line's gate
 * and the runtime's hooks, the LLM client, the loop and the transcript, wired together and closed
 * together. `send` never throws: a failure is reported on stderr and in the transcript.
 */
export class AgentSession {
  /** Whether stdout ends a line, so progress lines on stderr do not land mid-sentence in a terminal. */
  private atLineStart = true;

  private readonly loop: AgentLoop;

  private constructor(
    private readonly context: CommandContext,
    readonly transcript: Transcript,
    private readonly maxTurns: number,
    /** The gate's decisions on this session's tool calls so far, and how many of them refused the call. */
    readonly decisions: { readonly made: number; readonly refused: number },
    loop: Pick<AgentLoopOptions, 'model' | 'tools' | 'executor' | 'systemPrompt' | 'resultLimits' | 'deferral'>,
    tasks: Omit<LoopTasks, 'onWaiting'> | undefined,
  ) {
    this.loop = new AgentLoop({
      ...loop,
      ...(tasks && {
        tasks: {
          ...tasks,
          onWaiting: (running) =>
            this.showProgress(
              `waiting for ${running.length} task${running.length === 1 ? '' : 's'}: ${running.map((t) => `${t.tool} ${t.taskId} ${t.status}${t.statusMessage ? ` (${t.statusMessage})` : ''}`).join('; ')}`,
            ),
        },
      }),
      transcript,
      maxTurns,
      onText: (delta) => this.showText(delta),
      onToolResult: (name, isError) => this.showProgress(`${name}: ${isError ? 'error' : 'ok'}`),
    });
  }

  /** Opens the runtime (servers), runs `body` with a session over it (and the runtime, for `chat`'s /prompt), and closes everything after. */
  static async run(
    context: CommandContext,
    command: 'run' | 'chat',
    body: (session: AgentSession, runtime: AgentRuntime) => Promise<number>,
  ): Promise<number> {
    const llm = context.config.llm ?? DEFAULT_LLM_CONFIG;
    const settings = modelSettings(context.config, context.agent); // before any server starts: a missing model or key is a config error
    const maxTurns = context.agent.maxTurns ?? llm.maxTurns;
    return withRuntime(context, async (runtime) => {
      const file = context.agent.transcript
        ? path.resolve(context.agent.workingDirectory, context.agent.transcript)
        : defaultTranscriptFile(context.agent.workingDirectory);
      const transcript = new Transcript(
        file,
        (message) => context.io.stderr(`warning: ${message}\n`),
        storedSecrets(userConfigDirectory(context.agent.env)),
        context.agent.transcript ? undefined : context.agent.workingDirectory,
      );
      const client = createChatModel(settings);
      const decisions = { made: 0, refused: 0 };
      const executor = runtime.executor(context.gate, (event) => {
        transcript.record(toolEventEntry(event));
        if (event.type !== 'approval') return;
        decisions.made += 1;
        if (!event.verdict.allowed) decisions.refused += 1;
      });
      const systemPrompt = llm.systemPrompt ?? defaultSystemPrompt(context.agent.workingDirectory);
      const background = runtime.mcp.backgroundTasks;
      const tasks = background && { background, waitForTasks: command === 'run' && context.agent.leaveTasks !== true };
      const session = new AgentSession(
        context,
        transcript,
        maxTurns,
        decisions,
        {
          model: client,
          tools: runtime.tools,
          deferral: runtime.deferral,
          executor,
          systemPrompt,
          resultLimits: {
            maxChars: llm.maxToolResultChars,
            audio: llm.audioInput,
            overflow: ResultOverflow.forSession(context.agent.workingDirectory),
          },
        },
        tasks,
      );
      transcript.record({
        type: 'session_start',
        command,
        provider: settings.provider,
        model: settings.model,
        baseUrl: settings.baseUrl,
        maxTurns,
        cap: context.gate.cap,
        approver: approverKind(context.gate.approver),
      });
      try {
        return await body(session, runtime);
      } finally {
        await client.close();
        transcript.close();
      }
    });
  }

  send(text: string): Promise<SendResult> {
    return this.converse((signal) => this.loop.send(text, signal));
  }

  /** Lets the model go on with what arrived since (a task's result), without a message of the user's. */
  resume(): Promise<SendResult> {
    return this.converse((signal) => this.loop.resume(signal));
  }

  private async converse(turns: (signal: AbortSignal | undefined) => Promise<LoopOutcome>): Promise<SendResult> {
    try {
      const outcome = await turns(this.context.agent.signal);
      this.endLine();
      if (outcome.kind === 'done') return { outcome: 'done', text: outcome.text };
      const message = `the model was still asking for tools after ${this.maxTurns} turns; stopped by the max-turns guard (raise llm.maxTurns or --max-turns)`;
      this.context.io.stderr(`${PROGRAM}: ${message}\n`);
      this.transcript.record({ type: 'error', message });
      return { outcome: 'max_turns' };
    } catch (error) {
      this.endLine();
      if (this.context.agent.signal?.aborted) {
        this.transcript.record({ type: 'error', message: 'interrupted' });
        return { outcome: 'interrupted' };
      }
      const code = error instanceof AgentError ? error.code : undefined;
      const message = errorMessage(error);
      this.context.io.stderr(`${PROGRAM}: ${message}${code ? ` [${code}]` : ''}\n`);
      this.transcript.record({ type: 'error', ...(code ? { code } : {}), message });
      return { outcome: 'error' };
    }
  }

  end(outcome: SessionOutcome): void {
    this.transcript.record({ type: 'end', outcome });
  }

  private showText(delta: string): void {
    if (this.context.json || delta === '') return;
    this.context.io.stdout(delta);
    this.atLineStart = delta.endsWith('\n');
  }

  private showProgress(line: string): void {
    this.endLine();
    this.context.io.stderr(`  [${line}]\n`);
  }

  private endLine(): void {
    if (this.atLineStart) return;
    this.context.io.stdout('\n');
    this.atLineStart = true;
  }
}

/**
 * The model's settings from the configuration and the command line; the key comes from the environment:
 * the variable llm.apiKeyEnv names, else the provider's usual one. Also what sampling for MCP servers uses
 * (cli/client-features-wiring.ts).
 */
export function modelSettings(config: AgentConfig, agent: Pick<AgentOptions, 'model' | 'env'>): ModelSettings {
  const llm = config.llm ?? DEFAULT_LLM_CONFIG;
  const model = agent.model ?? llm.model;
  if (!model) {
    throw new AgentError(
      AgentErrorCode.LlmModelNotConfigured,
      `no model to plan with: set llm.model in ${config.file} or pass --model <name> (e.g. --model llama3.1 for Ollama)`,
    );
  }
  const { provider } = llm;
  const settings = {
    provider,
    baseUrl: llm.baseUrl,
    model,
    requestTimeoutMs: llm.requestTimeoutMs,
    maxReplyMs: llm.maxReplyMs,
    maxOutputTokens: llm.maxOutputTokens,
  };
  if (llm.apiKeyEnv) {
    const apiKey = agent.env[llm.apiKeyEnv];
    if (!apiKey)
      throw new AgentError(
        AgentErrorCode.ConfigMissingVariable,
        `llm.apiKeyEnv names the environment variable ${llm.apiKeyEnv}, which is not set; export it, or remove llm.apiKeyEnv for a server without keys`,
      );
    return { ...settings, apiKey, apiKeyEnv: llm.apiKeyEnv, apiKeyEnvConfigured: true };
  }
  const usual = PROVIDER_DEFAULTS[provider].keyVariables;
  if (usual.length === 0) return settings;
  const apiKeyEnv = usual.find((name) => agent.env[name]);
  if (!apiKeyEnv)
    throw new AgentError(
      AgentErrorCode.ConfigMissingVariable,
      `llm.provider ${provider} needs a key: export ${usual.join(' or ')}, or set llm.apiKeyEnv to the variable that holds it`,
    );
  return { ...settings, apiKey: agent.env[apiKeyEnv], apiKeyEnv };
}

function approverKind(approver: Approver): string {
  if (approver === FLAG_APPROVER) return 'flag (--yes)';
  if (approver === NON_INTERACTIVE_APPROVER) return 'non-interactive';
  return 'terminal';
}

function defaultSystemPrompt(workingDirectory: string): string {
  return (
    `You are agent-cli, an agent working in the directory ${workingDirectory}. Use the tools offered to do the user's task; ` +
    "relative paths are relative to that directory. Some tool calls need the user's approval and may be refused: then do not retry the same call. " +
    'When the task is done, answer with a short summary and no tool call.'
  );
}
