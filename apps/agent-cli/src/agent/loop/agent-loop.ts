import type { BackgroundTask, BackgroundTasks } from '../../mcp/tasks/background-tasks';
import { resultText, type Tool, type ToolResult } from '../../tools/tool';
import type { ToolDeferral } from '../../tools/tool-deferral';
import type { ToolRegistry } from '../../tools/tool-registry';
import {
  type AssistantReply,
  type ChatMessage,
  parseToolArguments,
  type RequestedToolCall,
  type ToolDefinition,
  type ToolMedia,
} from '../llm/chat-messages';
import type { ChatModel } from '../llm/chat-model';
import { ProviderToolNames } from '../llm/provider-tool-names';
import type { ToolExecutor } from '../tool-executor';
import type { Transcript } from '../transcript/transcript';
import { DEFAULT_RESULT_LIMITS, modelToolResult, type ResultLimits } from './tool-result-message';

export interface AgentLoopOptions {
  /** One completion per turn, from whichever provider (llm/chat-model.ts). */
  readonly model: Pick<ChatModel, 'complete'>;
  readonly tools: ToolRegistry;
  /** Every tool call goes through it; its events are the transcript's tool_call / approval / tool_result. */
  readonly executor: ToolExecutor;
  readonly transcript: Transcript;
  readonly systemPrompt: string;
  /** The most model turns one user message may take. */
  readonly maxTurns: number;
  /** The model's text as it streams. */
  readonly onText?: (delta: string) => void;
  /** Told after each tool call, for a progress line (names only: arguments may be private). */
  readonly onToolResult?: (name: string, isError: boolean) => void;
  /** How much of a tool result the model gets; default DEFAULT_RESULT_LIMITS. */
  readonly resultLimits?: ResultLimits;
  /** Which of the offered tools each request carries (SPEC A21); absent: all of them. */
  readonly deferral?: ToolDeferral;
  /** The tasks the calls became (SPEC A24); absent: none are followed. */
  readonly tasks?: LoopTasks;
}

export interface LoopTasks {
  readonly background: BackgroundTasks;
  /** `run`: the loop does not end while a task it started still runs (`--leave-tasks` turns this off); `chat`: off. */
  readonly waitForTasks: boolean;
  /** Told each time the loop waits for tasks, with those still running (a progress line on stderr). */
  readonly onWaiting?: (running: readonly BackgroundTask[]) => void;
}

/** What the model gets back for one call. */
interface ToolAnswer {
  readonly text: string;
  readonly isError: boolean;
  readonly media: readonly ToolMedia[];
}

export type LoopOutcome = { readonly kind: 'done'; readonly text: string } | { readonly kind: 'max_turns'; readonly maxTurns: number };

/**
 * The agent loop: the conversation starts with the system prompt; each user message is followed by
 * model turns until the model answers without asking for a tool (done) or the max-turns guard stops
 * it. A turn sends the registry's tools as `beginTurn()` gives them (under provider-safe names; the
 * deferral may leave MCP tools out of the request, yet a call naming one still runs) with the
 * whole conversation, streams the text, runs the requested calls in order through the executor, and
 * adds the assistant message and one `tool` message per call. The conversation is kept between user
 * messages, so `chat` is this loop fed line by line. Errors of the model (and the abort's reason on
 * Ctrl-C) are thrown to the command; nothing a tool or the model's arguments do can throw here.
 */
export class AgentLoop {
  private readonly messages: ChatMessage[];
  private turn = 0;

  constructor(private readonly options: AgentLoopOptions) {
    this.messages = [{ role: 'system', content: options.systemPrompt }];
  }

  async send(text: string, signal?: AbortSignal): Promise<LoopOutcome> {
    this.options.transcript.record({ type: 'user', text });
    this.messages.push({ role: 'user', content: text });
    return this.turns(signal);
  }

  /** Goes on without a user message: `chat` woken by a task that ended while it waited for the user's next line. */
  resume(signal?: AbortSignal): Promise<LoopOutcome> {
    return this.turns(signal);
  }

  private async turns(signal: AbortSignal | undefined): Promise<LoopOutcome> {
    for (let turns = 0; turns < this.options.maxTurns; turns++) {
      this.options.transcript.startTurn(++this.turn);
      this.giveEndedTasks();
      // The turn boundary: changed tool lists are applied here and nowhere else, and a server that is
      // down has its tools left out, so what the model is offered is what it can call in this turn.
      const tools = await this.options.tools.beginTurn();
      // Names over every offered tool, sent or deferred, so a tool keeps its name when it is loaded.
      const names = new ProviderToolNames(tools.map((tool) => tool.name));
      const sent = this.options.deferral?.plan(tools).sent ?? tools;
      const reply = await this.options.model.complete(
        { messages: this.messages, tools: toolDefinitions(sent, names) },
        { onText: this.options.onText, signal },
      );
      this.recordReply(reply, names);
      if (reply.toolCalls.length === 0) {
        if (await this.waitForTask(signal)) continue;
        return { kind: 'done', text: reply.text };
      }
      for (const call of reply.toolCalls) {
        const { text, isError, media } = await this.runToolCall(call, names, signal);
        this.messages.push({
          role: 'tool',
          tool_call_id: call.id,
          content: text,
          ...(isError ? { isError } : {}),
          ...(media.length > 0 ? { media } : {}),
        });
        signal?.throwIfAborted();
      }
    }
    return { kind: 'max_turns', maxTurns: this.options.maxTurns };
  }

  /**
   * The model answered without a call while tasks it started still run (or one ended unseen): with
   * `waitForTasks`, the agent sleeps until one ends, and the next turn gives it to the model. False: done.
   */
  private async waitForTask(signal: AbortSignal | undefined): Promise<boolean> {
    const tasks = this.options.tasks;
    if (!tasks?.waitForTasks || tasks.background.running + tasks.background.endedCount === 0) return false;
    if (tasks.background.endedCount === 0) tasks.onWaiting?.(tasks.background.list());
    await tasks.background.nextEnded(signal);
    return true;
  }

  /**
   * Each task that ended since the last turn, given to the model as its call's result: the same output
   * budget and spill-to-file rules as any result, in a user message (its call's `tool` message was the handle).
   */
  private giveEndedTasks(): void {
    for (const { task, result } of this.options.tasks?.background.takeEnded() ?? []) {
      this.options.transcript.record({
        type: 'tool_result',
        id: task.taskId,
        name: task.tool,
        isError: result.isError,
        text: resultText(result),
      });
      this.options.onToolResult?.(task.tool, result.isError);
      // A user message has no media: a task's images are named in its text, not attached.
      const { text } = this.fit(task.taskId, task.tool, result);
      this.messages.push({
        role: 'user',
        content: `[Task ${task.taskId} of ${task.tool} ended (${task.status}). Its result, the result of the call that started it:]\n${text}`,
      });
    }
  }

  /** A result as the model gets it, its overflow (saved to a file, or cut) recorded. */
  private fit(id: string, name: string, result: ToolResult): { text: string; media: readonly ToolMedia[] } {
    const { text, attachments, overflow } = modelToolResult(result, this.options.resultLimits ?? DEFAULT_RESULT_LIMITS);
    if (overflow) {
      const where = overflow.saved ? { file: overflow.shown } : { reason: overflow.reason };
      this.options.transcript.record({
        type: 'tool_result_overflow',
        id,
        name,
        resultChars: overflow.resultChars,
        previewChars: text.length,
        ...where,
      });
    }
    return { text: modelText(result.isError, text), media: attachments };
  }

  private recordReply(reply: AssistantReply, names: ProviderToolNames): void {
    this.options.transcript.record({
      type: 'assistant',
      text: reply.text,
      toolCalls: reply.toolCalls.map((call) => ({
        id: call.id,
        name: names.registryName(call.name) ?? call.name,
        arguments: call.arguments,
      })),
    });
    this.messages.push({
      role: 'assistant',
      content: reply.text,
      ...(reply.toolCalls.length > 0
        ? {
            tool_calls: reply.toolCalls.map((call) => ({
              id: call.id,
              type: 'function' as const,
              function: { name: call.name, arguments: call.arguments },
              ...(call.replay === undefined ? {} : { replay: call.replay }),
            })),
          }
        : {}),
    });
  }

  /** Runs one requested call and returns what the model gets back; an error result says it is one. */
  private async runToolCall(call: RequestedToolCall, names: ProviderToolNames, signal: AbortSignal | undefined): Promise<ToolAnswer> {
    const name = names.registryName(call.name);
    if (name === undefined)
      return this.refuse(call, call.name, `there is no tool named "${call.name}"; call one of the tools offered in this request`);
    const args = parseToolArguments(call.arguments);
    if (typeof args === 'string')
      return this.refuse(call, name, `the arguments for ${call.name} are ${args}; send a JSON object that matches the tool's parameters`);
    const result = await this.options.executor.execute({ id: call.id, name, args }, signal);
    this.options.deferral?.markCalled(name);
    this.options.onToolResult?.(name, result.isError);
    const { text, media } = this.fit(call.id, name, result);
    return { text, isError: result.isError, media };
  }

  /** A call that never reaches the executor still leaves its trace: the call and its error result. */
  private refuse(call: RequestedToolCall, name: string, message: string): ToolAnswer {
    this.options.transcript.record({ type: 'tool_call', id: call.id, name, args: call.arguments });
    this.options.transcript.record({ type: 'tool_result', id: call.id, name, isError: true, text: message });
    this.options.onToolResult?.(name, true);
    return { text: modelText(true, message), isError: true, media: [] };
  }
}

function toolDefinitions(tools: readonly Tool[], names: ProviderToolNames): ToolDefinition[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: names.providerName(tool.name) as string, description: tool.description, parameters: tool.inputSchema },
  }));
}

function modelText(isError: boolean, text: string): string {
  const body = text === '' ? '(no output)' : text;
  return isError ? `Error: ${body}` : body;
}
