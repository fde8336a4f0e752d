import { printable } from '@toolmesh/protocol';

import { type Command, withRuntime } from '../command-context';
import { ExitCode } from '../exit-codes';
import { formatTable } from '../format-table';

/**
 * `skills`: the skills the agent offers the model, from the connected servers that declare the skills
 * extension and from the configured folders: name, origin, description and SKILL.md's URI. Only the
 * listings are read, no skill's body. Exits with 4 when a server failed or could not list its skills.
 */
export const skillsCommand: Command = (context) =>
  withRuntime(context, async (runtime) => {
    const skills = runtime.skills?.skills ?? [];
    const problems = runtime.skills?.problems ?? [];
    if (context.json) {
      const listing = skills.map(({ name, description, origin, uri }) => ({ name, description, origin, uri }));
      context.io.stdout(`${JSON.stringify({ skills: listing, problems }, null, 2)}\n`);
    } else {
      // Names and descriptions are the servers' and the skill files' text: escaped, so none can move the cursor.
      context.io.stdout(
        skills.length === 0
          ? 'No skills: no connected server offers any, and no folder under skills.folders holds one.\n'
          : formatTable(
              ['SKILL', 'ORIGIN', 'DESCRIPTION', 'URI'],
              skills.map((s) => [
                printable(s.name, 64),
                printable(s.origin, 80),
                printable(s.description.split('\n')[0]),
                printable(s.uri, 120),
              ]),
            ),
      );
    }
    const failed = runtime.servers.some((s) => s.state === 'failed') || (runtime.skills?.unlistedServers.length ?? 0) > 0;
    return failed ? ExitCode.ServerUnavailable : ExitCode.Ok;
  });
