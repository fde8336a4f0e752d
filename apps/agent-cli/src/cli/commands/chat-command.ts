import { createInterface } from 'node:readline';

import { McpPromptClient } from '../../mcp/host/prompt-client';
import type { BackgroundTasks } from '../../mcp/tasks/background-tasks';
import { PROGRAM } from '../../program-name';
import { AgentSession } from '../agent-session';
import type { CliIo, Command } from '../command-context';
import { ExitCode } from '../exit-codes';
import { PROMPT_COMMAND_USAGE, promptMessage } from './prompt-slash-command';
import { ROOTS_COMMAND_USAGE, rootsCommand } from './roots-slash-command';
import { TASKS_COMMAND_USAGE, tasksCommand } from './tasks-slash-command';

/** The user's lines: from the terminal (prompted), or from piped stdin. `undefined` at the end. */
interface LineSource {
  next(): Promise<string | undefined>;
  close(): void;
}

/**
 * `chat`: a conversation, one user turn per line, until `/exit` or the end of input. At a terminal the
 * "> " prompt and the approval questions share one readline, so an approval is answered in the chat;
 * piped input is read line by line, and the gate is non-interactive there unless `--yes` is given.
 */
export const chatCommand: Command = async (context) => {
  if (context.args.length > 0) {
    context.io.stderr(
      `${PROGRAM} chat: takes no arguments; type the messages at the "> " prompt\nRun "${PROGRAM} chat --help" for usage.\n`,
    );
    return ExitCode.Usage;
  }
  return AgentSession.run(context, 'chat', async (session, runtime) => {
    const lines = lineSource(context.io, context.agent.signal);
    const prompts = new McpPromptClient(runtime.mcp);
    try {
      if (context.io.terminal)
        context.io.stderr(
          `Type a message, ${PROMPT_COMMAND_USAGE} to send a server's prompt, ${ROOTS_COMMAND_USAGE} to change a server's roots, ${TASKS_COMMAND_USAGE} to list or cancel running tasks, /exit to leave.\n`,
        );
      const background = runtime.mcp.backgroundTasks;
      // The user's next line, kept across a wake: a task that ends meanwhile lets the agent go on first.
      let pending: Promise<string | undefined> | undefined;
      for (;;) {
        pending ??= lines.next();
        if (background && (await taskEndedFirst(background, pending, context.agent.signal))) {
          context.io.stderr(`[a task ended; the agent goes on]\n`);
          if ((await session.resume()).outcome === 'interrupted') break;
          continue;
        }
        const line = await pending;
        pending = undefined;
        if (line === undefined || line.trim() === '/exit') break;
        if (line.trim() === '') continue;
        let message = line;
        if (/^\/roots(\s|$)/.test(line.trim())) {
          const servers = runtime.servers.map((server) => server.name);
          context.io.stderr(
            `${rootsCommand(runtime.roots, servers, line.trim().slice('/roots'.length), context.agent.workingDirectory)}\n`,
          );
          continue;
        }
        if (/^\/tasks(\s|$)/.test(line.trim())) {
          context.io.stderr(`${await tasksCommand(runtime.mcp.backgroundTasks, line.trim().slice('/tasks'.length))}\n`);
          continue;
        }
        if (/^\/prompt(\s|$)/.test(line.trim())) {
          const prompt = await promptMessage(prompts, line.trim().slice('/prompt'.length), context.agent.signal);
          if ('problem' in prompt) {
            context.io.stderr(`${prompt.problem}\n`);
            continue;
          }
          message = prompt.text;
        }
        if ((await session.send(message)).outcome === 'interrupted') break;
      }
      const interrupted = context.agent.signal?.aborted === true;
      session.end(interrupted ? 'interrupted' : 'done');
      return interrupted ? ExitCode.Interrupted : ExitCode.Ok;
    } finally {
      lines.close();
    }
  });
};

/** Whether a task the agent started ended before the user's next line came (only while some are running or unseen). */
async function taskEndedFirst(background: BackgroundTasks, line: Promise<unknown>, signal: AbortSignal | undefined): Promise<boolean> {
  if (background.running + background.endedCount === 0) return false;
  return Promise.race([
    line.then(() => false),
    background.nextEnded(signal).then(
      () => background.endedCount > 0,
      () => false,
    ),
  ]);
}

function lineSource(io: CliIo, signal: AbortSignal | undefined): LineSource {
  const terminal = io.terminal;
  if (terminal) {
    return {
      // The terminal's question rejects at Ctrl-D / Ctrl-C or once closed: that ends the chat.
      next: () => terminal.ask('> ', signal).catch(() => undefined),
      close: () => undefined,
    };
  }
  if (!io.stdin) return { next: async () => undefined, close: () => undefined };
  const readline = createInterface({ input: io.stdin, terminal: false });
  const iterator = readline[Symbol.asyncIterator]();
  return {
    next: async () => {
      const { value, done } = await iterator.next();
      return done ? undefined : value;
    },
    close: () => readline.close(),
  };
}
