import { McpMetaKey, serializedText } from '@toolmesh/protocol';

import { CallStream, progressTokenOf } from '../../handlers/call-stream';
import type { CallRefusal, ToolsCallEra } from '../../handlers/tools-call';
import { errorOutcome } from '../../outcomes';
import { acceptsEventStream } from '../../request-headers';
import type { ModernResults } from '../modern-results';
import { checkParamHeaders } from '../param-headers';

/**
 * The 2026 era's check of a `tools/call` before it runs: the `Mcp-Param-*` headers of the tool's
 * `x-mcp-header` arguments are checked against the body (`-32020` + 400).
 */
export const paramHeaderRefusal: CallRefusal = (tool, args, context, id) => {
  if (tool.mcpHeaders.length === 0) return undefined;
  const mismatch = checkParamHeaders(id, tool.mcpHeaders, args, context);
  return mismatch ? errorOutcome(mismatch, 400) : undefined;
};

/**
 * A 2026 call's answer as an event stream once its MCP server tells progress or logs, for a caller that
 * sent a `progressToken` or a `_meta` log level and takes a stream (the revision: both only on that
 * request's stream, log messages only at or above the level the request names; issue 44). Nothing else
 * goes on it: the server's requests reach a 2026 caller as `input_required`.
 */
export function modernCallStream(results: ModernResults): NonNullable<ToolsCallEra['streamToCaller']> {
  return (id, params, context) => {
    const token = progressTokenOf(params);
    const meta = params._meta as Record<string, unknown>;
    const logLevel = meta[McpMetaKey.LogLevel] as string | undefined;
    if ((token === undefined && logLevel === undefined) || !acceptsEventStream(context)) return undefined;
    const declared = meta[McpMetaKey.ClientCapabilities] as Record<string, unknown>;
    return new CallStream(
      (answer) => {
        const outcome = results.answer(id, answer, declared ?? {}, () => results.complete());
        return 'json' in outcome ? serializedText(outcome.json) : '';
      },
      token,
      logLevel === undefined ? undefined : { level: logLevel },
    );
  };
}
