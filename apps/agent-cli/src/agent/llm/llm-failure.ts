import { errorMessage } from '@toolmesh/protocol';

import { AgentError, AgentErrorCode } from '../../errors/agent-errors';
import type { ModelSettings } from './model-settings';

/**
 * The errors of a model request, the same for every provider: each says where, what went wrong, and what
 * to change, and names the key's variable, never the key.
 */
export function statusFailure(settings: ModelSettings, status: number, message: string | undefined): AgentError {
  const where = `the LLM server at ${settings.baseUrl}`;
  const shown = message ? providerMessage(message) : '';
  const detail = shown ? `: ${shown}` : '';
  if (status === 401 || status === 403) {
    const fix = settings.apiKeyEnv
      ? `check the key in the environment variable ${settings.apiKeyEnv}${settings.apiKeyEnvConfigured ? ' (named by llm.apiKeyEnv)' : ''}`
      : 'set llm.apiKeyEnv to the name of the environment variable that holds the key';
    return new AgentError(AgentErrorCode.LlmUnauthorized, `${where} refused the request (HTTP ${status}${detail}); ${fix}`);
  }
  if (status === 404) {
    const path =
      settings.provider === 'openai-chat'
        ? 'llm.baseUrl ends in its API path (often /v1)'
        : `llm.baseUrl is the ${settings.provider} API's root`;
    return new AgentError(
      AgentErrorCode.LlmModelNotFound,
      `${where} answered HTTP 404${detail}: check that it serves model "${settings.model}" (llm.model or --model) and that ${path}`,
    );
  }
  return new AgentError(AgentErrorCode.LlmRequestFailed, `${where} answered HTTP ${status}${detail}`);
}

export function unreachable(settings: ModelSettings, error: unknown): AgentError {
  return new AgentError(
    AgentErrorCode.LlmUnreachable,
    `cannot reach the LLM server at ${settings.baseUrl} (${errorReason(error)}); start it, or set llm.baseUrl in the configuration to where it runs`,
  );
}

export function timedOut(settings: ModelSettings): AgentError {
  return new AgentError(
    AgentErrorCode.LlmTimeout,
    `the LLM server at ${settings.baseUrl} did not answer within ${settings.requestTimeoutMs} ms; raise llm.requestTimeoutMs for a slow model`,
  );
}

export function replyTooLong(settings: ModelSettings): AgentError {
  return new AgentError(
    AgentErrorCode.LlmTimeout,
    `the LLM server at ${settings.baseUrl} did not finish its reply within llm.maxReplyMs (${settings.maxReplyMs} ms), ` +
      `however it streamed (keep-alive comments are no progress); raise llm.maxReplyMs for a slow model's long answers`,
  );
}

export function brokenOff(settings: ModelSettings, error: unknown): AgentError {
  return new AgentError(
    AgentErrorCode.LlmRequestFailed,
    `the LLM server at ${settings.baseUrl} broke off its reply (${errorReason(error)})`,
  );
}

/** An error the server reported inside a successful reply or stream. */
export function reportedError(message: string): AgentError {
  return new AgentError(AgentErrorCode.LlmRequestFailed, `the LLM server reported an error: ${providerMessage(message)}`);
}

const PROVIDER_MESSAGE_SHOWN = 300;

/** A provider's own error message, shortened: enough to act on, never a whole body. */
function providerMessage(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > PROVIDER_MESSAGE_SHOWN ? `${oneLine.slice(0, PROVIDER_MESSAGE_SHOWN)}…` : oneLine;
}

/** An error and its causes, outermost first (fetch and the SDKs wrap system errors as causes). */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let cause = error; cause && chain.length < 5; cause = (cause as { cause?: unknown }).cause) chain.push(cause);
  return chain;
}

function errorCodes(error: unknown): string[] {
  return causes(error).flatMap((cause) => {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' ? [code] : [];
  });
}

/** The innermost code, a system error's (ECONNREFUSED), else the innermost message ("fetch failed" says nothing). */
function errorReason(error: unknown): string {
  return errorCodes(error).at(-1) ?? errorMessage(causes(error).at(-1) ?? error);
}

/** Whether the error is the request timeout of our pool (sdk-fetch.ts), the wait for the reply or a pause of its stream. */
function isRequestTimeout(error: unknown): boolean {
  return errorCodes(error).some((code) => code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT');
}

/** The error classes an official Stainless-made SDK (Anthropic's, OpenAI's) throws, passed in by its adapter. */
export interface SdkErrorClasses {
  readonly APIError: abstract new (...args: never[]) => { readonly status?: number; readonly error?: unknown; readonly message: string };
  readonly APIConnectionError: abstract new (...args: never[]) => Error;
  readonly APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
  readonly APIUserAbortError: abstract new (...args: never[]) => Error;
}

/** What to throw for an error of an SDK's request: the abort's reason, our own errors as they are, or the provider-neutral error. */
export function sdkFailure(settings: ModelSettings, error: unknown, signal: AbortSignal | undefined, sdk: SdkErrorClasses): unknown {
  if (signal?.aborted) return signal.reason;
  if (error instanceof AgentError) return error;
  if (error instanceof sdk.APIUserAbortError) return signal?.reason ?? error;
  if (error instanceof sdk.APIConnectionTimeoutError || isRequestTimeout(error)) return timedOut(settings);
  if (error instanceof sdk.APIConnectionError) return unreachable(settings, (error as { cause?: unknown }).cause ?? error);
  if (error instanceof sdk.APIError && typeof error.status === 'number') return statusFailure(settings, error.status, apiMessage(error));
  return brokenOff(settings, error);
}

/** The provider's own message out of an SDK error's body (`{"error": {"message"}}`, `{"message"}`), or its message. */
function apiMessage(error: { readonly error?: unknown; readonly message: string }): string {
  const body = error.error as { error?: { message?: unknown }; message?: unknown } | undefined;
  const found = body?.error?.message ?? body?.message;
  return typeof found === 'string' ? found : error.message;
}
