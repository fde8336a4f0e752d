import { type Dispatcher, request } from 'undici';

import type { HttpAction } from '../../../config/hook-file';
import { type ActionOutcome, parseJsonReply } from '../hook-reply';
import { type HookEventContext, renderTemplate } from '../hook-template';
import { safeDescription } from './safe-description';

/** A hook endpoint answers a decision, not a document. */
const MAX_REPLY_BYTES = 1024 * 1024;

/**
 * Runs an `http` action: sends the event (or the rendered `body` template) as JSON to the fixed URL and
 * reads the reply as JSON. Redirects are not followed, so the request goes exactly where the operator said.
 */
export class HttpActionRunner {
  constructor(private readonly dispatcher: Dispatcher) {}

  async run(action: HttpAction, context: HookEventContext, signal: AbortSignal): Promise<ActionOutcome> {
    const body = JSON.stringify(action.body === undefined ? context : renderTemplate(action.body, context)) ?? 'null';
    let response: Dispatcher.ResponseData;
    try {
      response = await request(action.url, {
        method: action.method,
        headers: { 'content-type': 'application/json', accept: 'application/json', ...action.headers },
        body,
        signal,
        dispatcher: this.dispatcher,
      });
    } catch (error) {
      return { failure: `the request failed: ${safeDescription(error)}` };
    }
    if (response.statusCode < 200 || response.statusCode > 299) {
      await response.body.dump().catch(() => undefined);
      return { failure: `the endpoint answered HTTP ${response.statusCode}` };
    }
    const text = await readLimited(response.body);
    return text === undefined
      ? { failure: `the reply was larger than ${MAX_REPLY_BYTES} bytes or broke off` }
      : parseJsonReply(text, 'a body');
  }
}

async function readLimited(body: Dispatcher.ResponseData['body']): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > MAX_REPLY_BYTES) {
        body.destroy();
        return undefined;
      }
      chunks.push(chunk as Buffer);
    }
  } catch {
    return undefined;
  }
  return Buffer.concat(chunks).toString('utf8');
}
