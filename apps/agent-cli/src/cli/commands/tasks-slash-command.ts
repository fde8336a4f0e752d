import type { BackgroundTask, BackgroundTasks } from '../../mcp/tasks/background-tasks';

export const TASKS_COMMAND_USAGE = '/tasks [cancel <id>]';

/**
 * Chat's `/tasks`: the tasks the agent's calls became that still run, one line each, and `/tasks cancel <id>`,
 * which cancels one at its server (tasks/cancel). What it says goes to stderr, like the other slash commands.
 */
export async function tasksCommand(background: BackgroundTasks | undefined, rest: string): Promise<string> {
  const words = rest
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '');
  if (words.length === 0) return listing(background?.list() ?? []);
  if (words[0] === 'cancel' && words.length === 2) {
    if (!background) return 'no task is running';
    return background.cancel(words[1]);
  }
  return `usage: ${TASKS_COMMAND_USAGE}`;
}

function listing(tasks: readonly BackgroundTask[]): string {
  if (tasks.length === 0) return 'no task is running';
  return tasks
    .map(
      (task) =>
        `${task.taskId}  ${task.tool}  ${task.status}${task.statusMessage ? ` (${task.statusMessage})` : ''}  started ${task.startedAt.toISOString()}`,
    )
    .join('\n');
}
