import { errorMessage } from '@toolmesh/protocol';

export type ParsedArguments = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/**
 * Reads a tool call's body: a JSON object of arguments. An empty body counts as no arguments, so that a
 * plain `curl -X POST` works; anything else that is not a JSON object is refused.
 */
export function parseArguments(text: string): ParsedArguments {
  if (text.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `malformed JSON body: ${errorMessage(error)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: 'the body must be a JSON object of arguments' };
  }
  return { ok: true, value: value as Record<string, unknown> };
}
