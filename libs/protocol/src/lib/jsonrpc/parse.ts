import secureJson from 'secure-json-parse';

import { callerText, invalidParams, invalidRequest, parseError } from './error-responses';
import { firstInexactNumber, mayHoldInexactNumbers } from './inexact-numbers';
import {
  JSONRPC_VERSION,
  type JsonRpcErrorResponse,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JsonRpcResponse,
  type ParsedMessage,
  type RequestId,
} from './messages';

/**
 * The parser's answer: a message, or the error response to send back. It never throws, whatever the
 * input (the fuzz test in parse.fuzz.spec.ts holds it to that).
 */
export type ParseResult = { ok: true; value: ParsedMessage } | { ok: false; error: JsonRpcErrorResponse };

const REQUEST_MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params']);
const RESPONSE_MEMBERS = new Set(['jsonrpc', 'id', 'result', 'error']);
const ERROR_OBJECT_MEMBERS = new Set(['code', 'message', 'data']);
const utf8 = new TextDecoder('utf-8', { fatal: true }); // strips a leading BOM, rejects malformed bytes
const SECURE_JSON = { protoAction: 'error', constructorAction: 'error' } as const;

export interface ParseOptions {
  /**
   * Deepest nesting of objects and arrays accepted, the envelope being level 1. V8 parses far deeper
   * input than `JSON.stringify` can write back (it overflows the stack near 10,000 levels), so an
   * unbounded message would fail later, wherever it is serialised again. Default 256.
   */
  maxDepth?: number;
}

export const DEFAULT_MAX_DEPTH = 256;

/** Parses one JSON-RPC 2.0 message from a request or stream body. Batches are refused (MCP 2025-06-18 on). */
export function parseJsonRpcMessage(body: string | Uint8Array, options: ParseOptions = {}): ParseResult {
  const json = readJson(body, options);
  return json.ok ? classifyExactly(json.value, json.mayHoldInexactNumbers) : json;
}

/** A body that is a JSON-RPC batch: each member parsed as it would be alone (an invalid one is its error response). */
export type BatchParseResult = ParseResult | { ok: true; batch: readonly ParseResult[] };

/**
 * Parses a body that may be a JSON-RPC batch (MCP 2025-03-26, whose servers MUST receive them; later
 * revisions removed them). The depth limit applies to the whole body, the batch being a level.
 */
export function parseJsonRpcBatchOrMessage(body: string | Uint8Array, options: ParseOptions = {}): BatchParseResult {
  const json = readJson(body, options);
  if (!json.ok) return json;
  const { value, mayHoldInexactNumbers } = json;
  if (!Array.isArray(value)) return classifyExactly(value, mayHoldInexactNumbers);
  // JSON-RPC 2.0: an empty array is one invalid request, answered with a single error.
  if (value.length === 0) return fail(invalidRequest(null, 'an empty batch holds no message'));
  return { ok: true, batch: value.map((member) => classifyExactly(member, mayHoldInexactNumbers)) };
}

/**
 * A message classified, and a request refused when a number in its params did not survive parsing
 * exactly: passed on changed, a tool would get another amount or id than the caller sent.
 * `mayHoldInexactNumbers` comes from a cheap look at the text, so most messages skip the walk.
 */
function classifyExactly(value: unknown, mayHoldInexactNumbers: boolean): ParseResult {
  const classified = classifyJsonRpcMessage(value);
  if (!mayHoldInexactNumbers || !classified.ok || classified.value.kind !== 'request') return classified;
  const { id, params } = classified.value.message;
  const field = firstInexactNumber(params, 'params');
  return field === undefined
    ? classified
    : fail(invalidParams(id, `${field} is a number JSON cannot carry exactly (beyond ±2^53, or out of range); send it as a string`));
}

type JsonRead = { ok: true; value: unknown; mayHoldInexactNumbers: boolean } | { ok: false; error: JsonRpcErrorResponse };

function readJson(body: string | Uint8Array, options: ParseOptions): JsonRead {
  let text: string;
  try {
    text = typeof body === 'string' ? stripBom(body) : utf8.decode(body);
  } catch {
    return fail(parseError('the body is not valid UTF-8'));
  }
  let value: unknown;
  try {
    value = secureJson.parse(text, undefined, SECURE_JSON);
  } catch {
    // Told apart only on this failure path, so valid input is parsed once.
    return isJson(text)
      ? fail(invalidRequest(null, 'the message contains a forbidden key (__proto__ or constructor.prototype)'))
      : fail(parseError('the body is not valid JSON'));
  }
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  // Each level of nesting takes an opening and a closing bracket, so a text shorter than twice the limit
  // cannot exceed it: most messages skip the walk.
  if (text.length > 2 * maxDepth && exceedsDepth(value, maxDepth))
    return fail(invalidRequest(null, `the message is nested deeper than ${maxDepth} levels`));
  return { ok: true, value, mayHoldInexactNumbers: mayHoldInexactNumbers(text) };
}

/** Checks an already-parsed value against the JSON-RPC 2.0 envelope as MCP uses it. */
function classifyJsonRpcMessage(value: unknown): ParseResult {
  if (Array.isArray(value)) return fail(invalidRequest(null, 'batches are not supported; send one message per request'));
  if (!isPlainObject(value)) return fail(invalidRequest(null, 'a message must be a JSON object'));

  const id = readId(value);
  if (id === INVALID_ID) return fail(invalidRequest(null, '"id" must be a string or a safe integer'));
  if (value.jsonrpc !== JSONRPC_VERSION) return fail(invalidRequest(id ?? null, '"jsonrpc" must be exactly "2.0"'));
  return 'method' in value ? classifyRequest(value, id) : classifyResponse(value, id);
}

function classifyRequest(value: Record<string, unknown>, id: RequestId | null | undefined): ParseResult {
  const unknown = firstUnknownMember(value, REQUEST_MEMBERS);
  if (unknown !== undefined) return fail(invalidRequest(id ?? null, `unexpected member "${callerText(unknown)}"`));
  if (typeof value.method !== 'string' || value.method.length === 0) {
    return fail(invalidRequest(id ?? null, '"method" must be a non-empty string'));
  }
  if (id === null) return fail(invalidRequest(null, '"id" must not be null (MCP); omit it to send a notification'));
  if (value.params !== undefined && !isPlainObject(value.params)) {
    // MCP uses named parameters only: positional (array) params are well-formed JSON-RPC but invalid here.
    return Array.isArray(value.params) && id !== undefined
      ? fail(invalidParams(id, '"params" must be an object'))
      : fail(invalidRequest(id ?? null, '"params" must be an object when present'));
  }
  return id === undefined
    ? { ok: true, value: { kind: 'notification', message: value as JSONRPCNotification } }
    : { ok: true, value: { kind: 'request', message: value as JSONRPCRequest } };
}

function classifyResponse(value: Record<string, unknown>, id: RequestId | null | undefined): ParseResult {
  const unknown = firstUnknownMember(value, RESPONSE_MEMBERS);
  if (unknown !== undefined) return fail(invalidRequest(id ?? null, `unexpected member "${callerText(unknown)}"`));
  const hasResult = 'result' in value;
  const hasError = 'error' in value;
  if (hasResult === hasError) {
    return fail(invalidRequest(id ?? null, 'a message needs "method" (request) or exactly one of "result" and "error" (response)'));
  }
  if (hasResult) {
    if (id === undefined || id === null) return fail(invalidRequest(null, 'a result response needs the id of its request'));
    if (!isPlainObject(value.result)) return fail(invalidRequest(id, '"result" must be an object'));
  } else {
    if (id === undefined) return fail(invalidRequest(null, 'an error response needs "id" (null when unknown)'));
    const problem = errorObjectProblem(value.error);
    if (problem) return fail(invalidRequest(id, problem));
  }
  return { ok: true, value: { kind: 'response', message: value as JsonRpcResponse } };
}

function errorObjectProblem(error: unknown): string | undefined {
  if (!isPlainObject(error)) return '"error" must be an object';
  if (!Number.isSafeInteger(error.code)) return '"error.code" must be an integer';
  if (typeof error.message !== 'string') return '"error.message" must be a string';
  const unknown = firstUnknownMember(error, ERROR_OBJECT_MEMBERS);
  return unknown === undefined ? undefined : `unexpected member "error.${callerText(unknown)}"`;
}

const INVALID_ID = Symbol('invalid id');

/** undefined: absent (a notification); null: explicitly null; INVALID_ID: present but unusable. */
function readId(value: Record<string, unknown>): RequestId | null | undefined | typeof INVALID_ID {
  if (!('id' in value)) return undefined;
  const id = value.id;
  if (id === null || typeof id === 'string') return id;
  // Integers beyond 2^53 lose precision in JavaScript, so we could not echo them back unchanged.
  if (typeof id === 'number' && Number.isFinite(id) && (!Number.isInteger(id) || Number.isSafeInteger(id))) return id;
  return INVALID_ID;
}

/**
 * Iterative, so that checking a hostile document cannot itself overflow the stack. Values and their
 * depths are kept in two stacks rather than as a pair per value: this runs on every message.
 */
export function exceedsDepth(root: unknown, maxDepth: number): boolean {
  const values: unknown[] = [root];
  const depths: number[] = [1];
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop() as number;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > maxDepth) return true;
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (typeof child === 'object' && child !== null) {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/**
 * Whether the `roots` hold more than `max` JSON values together (objects, arrays, strings, numbers,
 * booleans, nulls; each root included, object keys not; an absent root is none). Iterative, as
 * exceedsDepth is, and it stops as soon as the values seen and those waiting are past `max`: a hostile
 * document costs about `max` steps (and a listing of the members of each object it opens), however large.
 */
export function exceedsNodes(roots: readonly unknown[], max: number): boolean {
  const pending = roots.filter((root) => root !== undefined);
  let count = 0;
  while (pending.length > 0) {
    const value = pending.pop();
    count += 1;
    if (typeof value !== 'object' || value === null) continue;
    const children = Array.isArray(value) ? value : Object.values(value);
    // Each value waiting is at least one more: a wide array is over the limit before it is walked.
    if (count + pending.length + children.length > max) return true;
    for (const child of children) pending.push(child);
  }
  return count > max;
}

function firstUnknownMember(value: Record<string, unknown>, allowed: ReadonlySet<string>): string | undefined {
  for (const key of Object.keys(value)) if (!allowed.has(key)) return key;
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function fail(error: JsonRpcErrorResponse): { ok: false; error: JsonRpcErrorResponse } {
  return { ok: false, error };
}
