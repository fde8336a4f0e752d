import secureJson from 'secure-json-parse';

import type { ServiceCredentials } from '../call/service-credentials';
import type { CredentialSource } from '../config/gateway-config';
import type { ToolClient, ToolHttpResponse } from '../tool-client/tool-client';
import type { InterceptedCall, InterceptedResult, InterceptorPhase, Verdict } from './interceptor';
import { parseWebhookReply } from './webhook-reply';

/** Where a webhook interceptor asks, and how long it waits. */
export interface WebhookSettings {
  readonly url: string;
  /** The interceptor's `timeoutMs`: the whole exchange, connecting and reading the answer included. */
  readonly timeoutMs: number;
  /** The gateway's credentials for the guardrail, by header name (`webhook.headers`). */
  readonly headers?: Readonly<Record<string, CredentialSource>>;
}

/** Reads a configured secret now (a mounted file is read again after a while, so a rotated one is used). */
export type SecretReader = Pick<ServiceCredentials, 'read'>;

/**
 * The `webhook` interceptor: one POST per phase to an external guardrail service (SEP-2624's invoke
 * shape, docs/gateway.md "Interceptors"): the event, the phase, the payload (tool name, arguments and, on
 * the response, the result) and the caller as verified claims (subject, scopes, client id), with the
 * gateway's own credentials for the service (`webhook.headers`, read from `secrets` at each call). Never the
 * caller's token or any header of the request. It goes out as a tool call does, through a `ToolClient`
 * (handler-level undici, one timer for the whole exchange, the answer's size and depth bounded as it
 * arrives: ADR 0005), so a guardrail costs the gateway one outbound hop. Its answer is read by
 * `parseWebhookReply`; no answer within `timeoutMs`, an unreachable service, an HTTP status other than 200
 * or an answer too long throws, and `failOpen` decides.
 */
export function webhookJudge(name: string, settings: WebhookSettings, client: ToolClient, secrets: SecretReader) {
  const endpoint = new URL(settings.url);
  const credentials = Object.entries(settings.headers ?? {});
  const ask = async (phase: InterceptorPhase, call: InterceptedCall, result?: InterceptedResult): Promise<Verdict> => {
    const payload = { name: call.tool.name, arguments: call.args, ...(result !== undefined && { result }) };
    const body = JSON.stringify({ interceptor: name, event: 'tools/call', phase, payload, context: contextOf(call) });
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    // An unreadable secret is left out, as a tool service's is; a refusal for it then names it below.
    const unread = credentials.filter(([header, source]) => {
      const value = secrets.read(source);
      if (value !== undefined) headers[header] = value;
      return value === undefined;
    });
    const response = await client.post({ endpoint, headers, body, timeoutMillis: settings.timeoutMs });
    if (response.kind === 'failure') throw new Error(failureText(response, settings.timeoutMs));
    if (response.status !== 200) throw new Error(`the guardrail answered HTTP ${response.status}${unreadNote(unread)}`);
    let reply: unknown;
    try {
      reply = secureJson.parse(response.body, undefined, { protoAction: 'remove', constructorAction: 'remove' });
    } catch {
      throw new Error('the guardrail answered something other than JSON');
    }
    return parseWebhookReply(reply, phase, call.tool);
  };
  return {
    request: (call: InterceptedCall) => ask('request', call),
    response: (call: InterceptedCall, result: InterceptedResult) => ask('response', call, result),
  };
}

/** Why the guardrail gave no answer, in its words rather than a tool service's. */
function failureText(failure: Extract<ToolHttpResponse, { kind: 'failure' }>, timeoutMs: number): string {
  switch (failure.reason) {
    case 'timeout':
      return `no answer within ${timeoutMs} ms (timeoutMs)`;
    case 'reply_too_large':
      return `its answer was not read: ${failure.detail} (webhook.maxReplyBytes)`;
    case 'reply_too_deep':
      return `its answer was not read: ${failure.detail}`;
    case 'connection_refused':
      return 'the guardrail could not be asked: it refused the connection';
    default:
      return `the guardrail could not be asked: ${failure.detail}`;
  }
}

/** Which configured credentials were not sent, for a refusal's message: their header names, never a value. */
function unreadNote(unread: ReadonlyArray<readonly [string, CredentialSource]>): string {
  if (unread.length === 0) return '';
  const names = unread.map(([header]) => header).join(', ');
  return ` (webhook.headers ${names} not sent: the variable or file each names is unset or empty)`;
}

/**
 * Who calls, as the gateway verified it (SEP-2624's `context.principal`): the subject, the scopes and the
 * client id, when authentication is on; `principal: null` when it is off. Correlation ids let the service's
 * own logs be joined with the gateway's.
 */
function contextOf({ context }: InterceptedCall): Record<string, unknown> {
  const caller = context.caller;
  const clientId = caller?.claims.client_id ?? caller?.claims.azp;
  const principal = caller && {
    type: 'user',
    id: caller.subject,
    claims: { scopes: [...caller.scopes], ...(typeof clientId === 'string' && { clientId }) },
  };
  return { principal: principal ?? null, guid: context.guid, requestId: context.requestId, timestamp: new Date().toISOString() };
}
