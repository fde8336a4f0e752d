import { errorMessage } from '@toolmesh/protocol';
import secureJson from 'secure-json-parse';
import { type Dispatcher, request } from 'undici';

import type { ServiceCredentials } from '../call/service-credentials';
import type { CredentialSource } from '../config/gateway-config';
import type { InterceptedCall, InterceptedResult, InterceptorPhase, Verdict } from './interceptor';
import { parseWebhookReply } from './webhook-reply';

/** Where a webhook interceptor asks, and how much of its answer it reads. */
export interface WebhookSettings {
  readonly url: string;
  /** The longest answer read; a longer one is a failure (`failOpen` decides). */
  readonly maxReplyBytes: number;
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
 * caller's token or any header of the request. Its answer is read by `parseWebhookReply`; an unreachable
 * service, an HTTP status other than 200 or an answer too long throws, and `failOpen` decides. The request
 * is aborted when the chain's `timeoutMs` passes (the signal).
 */
export function webhookJudge(name: string, settings: WebhookSettings, dispatcher: Dispatcher, secrets: SecretReader) {
  const url = new URL(settings.url);
  const credentials = Object.entries(settings.headers ?? {});
  const ask = async (phase: InterceptorPhase, call: InterceptedCall, signal: AbortSignal, result?: InterceptedResult): Promise<Verdict> => {
    const payload = { name: call.tool.name, arguments: call.args, ...(result !== undefined && { result }) };
    const body = JSON.stringify({ interceptor: name, event: 'tools/call', phase, payload, context: contextOf(call) });
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    // An unreadable secret is left out, as a tool service's is; a refusal for it then names it below.
    const unread = credentials.filter(([header, source]) => {
      const value = secrets.read(source);
      if (value !== undefined) headers[header] = value;
      return value === undefined;
    });
    let status: number;
    let text: string;
    try {
      const response = await request(url, {
        method: 'POST',
        headers,
        body,
        dispatcher,
        signal,
      });
      status = response.statusCode;
      text = await readBounded(response.body, settings.maxReplyBytes);
    } catch (error) {
      throw new Error(`the guardrail could not be asked: ${errorMessage(error)}`, { cause: error });
    }
    if (status !== 200) throw new Error(`the guardrail answered HTTP ${status}${unreadNote(unread)}`);
    let reply: unknown;
    try {
      reply = secureJson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' });
    } catch {
      throw new Error('the guardrail answered something other than JSON');
    }
    return parseWebhookReply(reply, phase, call.tool);
  };
  return {
    request: (call: InterceptedCall, signal: AbortSignal) => ask('request', call, signal),
    response: (call: InterceptedCall, result: InterceptedResult, signal: AbortSignal) => ask('response', call, signal, result),
  };
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

async function readBounded(body: Dispatcher.ResponseData['body'], max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      body.destroy();
      throw new Error(`its answer is longer than ${max} bytes (webhook.maxReplyBytes)`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
