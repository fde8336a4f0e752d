import { printable, printableName } from '@toolmesh/protocol';

import { McpResourceClient } from '../../mcp/host/resource-client';
import { resourceContentsText } from '../../mcp/host/resource-contents';
import { PROGRAM } from '../../program-name';
import { type Command, type CommandContext, withRuntime } from '../command-context';
import { ExitCode } from '../exit-codes';
import { formatTable } from '../format-table';
import { reportFeatureFailure, reportListingFailures } from './server-feature-failure';

/**
 * `resources [list [server]]`, `resources templates [server]`, `resources read <server> <uri>`: the
 * connected servers' resources (SPEC A13). Text from servers is escaped and cut in tables.
 */
export const resourcesCommand: Command = async (context) => {
  const [action = 'list', ...rest] = context.args;
  const usage = (problem: string) => {
    context.io.stderr(`${PROGRAM} resources: ${problem}\nRun "${PROGRAM} resources --help" for usage.\n`);
    return ExitCode.Usage;
  };
  if (action === 'list' || action === 'templates') {
    if (rest.length > 1) return usage(`"${action}" takes at most a server name`);
    return withRuntime(context, (runtime) =>
      list(
        context,
        new McpResourceClient(runtime.mcp),
        action,
        rest[0],
        runtime.servers.some((s) => s.state === 'failed'),
      ),
    );
  }
  if (action === 'read') {
    if (rest.length !== 2)
      return usage(
        `"read" takes a server name and a URI, e.g. ${PROGRAM} resources read everything demo://resource/static/document/architecture.md`,
      );
    const [server, uri] = rest;
    return withRuntime(context, async (runtime) => {
      try {
        const result = await new McpResourceClient(runtime.mcp).read(server, uri, context.agent.signal);
        context.io.stdout(context.json ? `${JSON.stringify(result, null, 2)}\n` : `${resourceContentsText(result)}\n`);
        return ExitCode.Ok;
      } catch (error) {
        return reportFeatureFailure(context.io, 'resources read', error);
      }
    });
  }
  return usage(`unknown action "${action}"; use list, templates or read`);
};

async function list(
  context: CommandContext,
  client: McpResourceClient,
  action: 'list' | 'templates',
  server: string | undefined,
  someFailed: boolean,
): Promise<number> {
  try {
    if (action === 'list') {
      const { items, failures } = await client.list(server, context.agent.signal);
      if (context.json) context.io.stdout(`${JSON.stringify({ resources: items, failures }, null, 2)}\n`);
      else
        context.io.stdout(
          formatTable(
            ['SERVER', 'URI', 'NAME', 'MIME TYPE', 'DESCRIPTION'],
            items.map((r) => [
              r.server,
              printable(r.uri, 120),
              printableName(r.name),
              printableName(r.mimeType ?? ''),
              printable(r.description ?? ''),
            ]),
          ),
        );
      reportListingFailures(context.io, 'resources', failures);
      return someFailed || failures.length > 0 ? ExitCode.ServerUnavailable : ExitCode.Ok;
    }
    const { items, failures } = await client.templates(server, context.agent.signal);
    if (context.json) context.io.stdout(`${JSON.stringify({ resourceTemplates: items, failures }, null, 2)}\n`);
    else
      context.io.stdout(
        formatTable(
          ['SERVER', 'URI TEMPLATE', 'NAME', 'DESCRIPTION'],
          items.map((t) => [t.server, printable(t.uriTemplate, 120), printableName(t.name), printable(t.description ?? '')]),
        ),
      );
    reportListingFailures(context.io, 'resource templates', failures);
    return someFailed || failures.length > 0 ? ExitCode.ServerUnavailable : ExitCode.Ok;
  } catch (error) {
    return reportFeatureFailure(context.io, `resources ${action}`, error);
  }
}
