import { printableName } from '@toolmesh/protocol';

import type { AskLine } from '../agent/approval/terminal-approver';
import type { DriftApprover, ToolDrift } from '../mcp/pins/tool-pins';
import { PROGRAM } from '../program-name';
import { forTerminal } from '../tools/terminal-text';

/** What decides a changed tool definition, from the command line. */
export interface DriftSettings {
  /** `--approve-changed-tools`: every change is approved, and each one said on stderr. */
  readonly approveAll: boolean;
  /** `tools --approve <server>[/<tool>]`: the changes of these are approved. */
  readonly targets: readonly string[];
  /** A person to ask (`run` and `chat` at a terminal, without --yes); absent: nobody is asked. */
  readonly ask?: AskLine;
  /** Where a line for the user goes (stderr, or above an open question): approvals and warnings. */
  readonly tell: (line: string) => void;
}

/**
 * The CLI's approver of changed definitions. `--yes` approves tool calls, never drift: without a person,
 * the explicit flag or a named target, a change is refused with a warning naming the server and tool
 * and how to approve it (a diff is the server's text, shown only to a person who is asked).
 */
export function driftApprover(settings: DriftSettings): DriftApprover {
  return async (drift) => {
    const which = `tool "${printableName(drift.tool)}" of MCP server "${drift.server}"`;
    if (settings.approveAll || settings.targets.some((target) => target === drift.server || target === `${drift.server}/${drift.tool}`)) {
      settings.tell(`approved the changed definition of ${which}`);
      return true;
    }
    if (settings.ask) return /^\s*y(es)?\s*$/i.test(await settings.ask(driftQuestion(drift, which)));
    settings.tell(
      `warning: the definition of ${which} changed since it was approved; it is not offered to the model until approved: "${PROGRAM} tools --approve ${drift.server}/${printableName(drift.tool)}" or --approve-changed-tools`,
    );
    return false;
  };
}

function driftQuestion(drift: ToolDrift, which: string): string {
  return forTerminal(
    `The definition of ${which} changed since you approved it:\n${drift.diff.join('\n')}\nApprove the new definition? [y/N] `,
  );
}
