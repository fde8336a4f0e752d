import type { EventFilter, EventWaiter } from '@toolmesh/rewake-bridge';

import { errorResult, type ToolResult } from '../tool';
import { BuiltinTool, type BuiltinToolContext, textResult } from './builtin-tool';

/** snake_case like the other built-in tools' arguments (Bash's `timeout_ms`, Edit's `old_string`). */
interface WaitForEventArgs {
  readonly filter?: Omit<EventFilter, 'uriPrefix'> & { readonly uri_prefix?: string };
  readonly timeout_ms: number;
}

/** The longest single wait (the same bound as a Bash command); the model can wait again. */
const WAIT_FOR_EVENT_MAX_TIMEOUT_MS = 600_000;

const filterField = (description: string) => ({ type: 'string', minLength: 1, description });

/**
 * `WaitForEvent`: the agent sleeps until an MCP server's notification becomes an event (rewake, SPEC A7).
 * Its result, the event as JSON, is what the model reads on its next turn. Events that arrived while
 * nobody waited are buffered by the runtime's resolver and returned first.
 */
export class WaitForEventTool extends BuiltinTool<WaitForEventArgs> {
  readonly name = 'WaitForEvent';
  readonly description =
    'Waits until a connected MCP server sends a notification that is an event (a resource update, a log message, or a custom ' +
    'notification the configuration maps), or until timeout_ms passes. Returns the event as JSON: ' +
    '{"id", "server", "type", "method", "summary": {"uri", "level", "logger", "data"}, "receivedAt"}. Events that arrived since ' +
    'the last wait are kept and returned first, oldest first, so none is missed between turns. Use it to sleep until ' +
    'something happens instead of polling; a timeout is not an error.';
  readonly inputSchema = {
    type: 'object',
    properties: {
      filter: {
        type: 'object',
        description: 'Which event to wait for; every given field must match. Default: any event.',
        properties: {
          server: filterField('The configured name of the server that sent it.'),
          type: filterField('The event type, e.g. "resource.updated" or "log".'),
          method: filterField('The notification method, e.g. "notifications/resources/updated".'),
          uri_prefix: filterField('The start of the resource URI (summary.uri), e.g. "file:///reports/".'),
        },
        additionalProperties: false,
      },
      timeout_ms: {
        type: 'integer',
        minimum: 0,
        maximum: WAIT_FOR_EVENT_MAX_TIMEOUT_MS,
        description: `How long to wait, in milliseconds; 0 only takes an event that has already arrived. At most ${WAIT_FOR_EVENT_MAX_TIMEOUT_MS}.`,
      },
    },
    required: ['timeout_ms'],
    additionalProperties: false,
  } as const;
  readonly sideEffects = { level: 'read-only', destructive: false, basis: 'declared' } as const;

  constructor(
    context: BuiltinToolContext,
    private readonly events: EventWaiter,
  ) {
    super(context);
  }

  protected async run({ filter = {}, timeout_ms: timeoutMs }: WaitForEventArgs, signal?: AbortSignal): Promise<ToolResult> {
    const { uri_prefix: uriPrefix, ...rest } = filter;
    const outcome = await this.events.waitFor({ ...rest, ...(uriPrefix === undefined ? {} : { uriPrefix }) }, timeoutMs, signal);
    switch (outcome.kind) {
      case 'event':
        return textResult(JSON.stringify(outcome.event), { event: outcome.event });
      case 'timeout':
        return textResult(`no event arrived within ${timeoutMs} ms`, { event: null, timedOut: true, timeout_ms: timeoutMs });
      case 'aborted':
        return errorResult('WaitForEvent: cancelled before an event arrived');
      case 'closed':
        return errorResult('WaitForEvent: the agent is shutting down; no more events will arrive');
    }
  }
}
