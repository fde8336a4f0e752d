import { PROGRAM } from '../../program-name';
import { AgentSession } from '../agent-session';
import type { Command } from '../command-context';
import { ExitCode } from '../exit-codes';

const EXIT_CODES = { done: ExitCode.Ok, max_turns: ExitCode.MaxTurns, error: ExitCode.Failure, interrupted: ExitCode.Interrupted } as const;

/** `run "<task>"`: one task, start to finish; the exit code tells how it ended (5: it finished, but every tool call was refused). */
export const runCommand: Command = async (context) => {
  const task = context.args.join(' ').trim();
  if (task === '') {
    context.io.stderr(
      `${PROGRAM} run: expected the task, e.g. ${PROGRAM} run "list the TODOs in src"\nRun "${PROGRAM} run --help" for usage.\n`,
    );
    return ExitCode.Usage;
  }
  return AgentSession.run(context, 'run', async (session, runtime) => {
    const result = await session.send(task);
    session.end(result.outcome);
    const left = runtime.mcp.backgroundTasks?.list() ?? [];
    if (left.length > 0)
      context.io.stderr(
        `${PROGRAM} run: left ${left.length} task(s) running at their servers: ${left.map((t) => `${t.tool} ${t.taskId}`).join(', ')}\n`,
      );
    if (context.json) {
      const text = result.outcome === 'done' ? result.text : undefined;
      context.io.stdout(`${JSON.stringify({ outcome: result.outcome, text, transcript: session.transcript.file }, null, 2)}\n`);
    }
    // The model finished, but nothing it asked for ran: the task was not done as asked (SPEC A20).
    const { made, refused } = session.decisions;
    if (result.outcome === 'done' && made > 0 && refused === made) {
      context.io.stderr(`${PROGRAM} run: every tool call (${made}) was refused; see --yes, --max-side-effect and the hooks\n`);
      return ExitCode.Denied;
    }
    return EXIT_CODES[result.outcome];
  });
};
