import { resultPiece } from '../../tools/result-content';
import type { ToolResult } from '../../tools/tool';
import type { ToolMedia } from '../llm/chat-messages';
import type { ResultOverflow, SavedResult } from './result-overflow';
import { headAndTail, jsonSummary } from './result-preview';

/** How much of a tool result goes to the model (`llm.maxToolResultChars`, `llm.audioInput`). */
export interface ResultLimits {
  /** Text beyond this many characters is cut, with a note saying how much. */
  readonly maxChars: number;
  /** Whether the model takes audio (`input_audio` parts, wav and mp3): most do not, and refuse the request. */
  readonly audio: boolean;
  /** Where text over `maxChars` is saved whole, the model getting a preview and the path; without it, the text is cut. */
  readonly overflow?: ResultOverflow;
}

export const DEFAULT_RESULT_LIMITS: ResultLimits = { maxChars: 100_000, audio: false };

/** A tool result as the model gets it: the `tool` message's text, and its media. */
export interface ModelToolResult {
  readonly text: string;
  readonly attachments: readonly ToolMedia[];
  /** Set when the text was over `maxChars` and the session saves such results: where it went, or why it could not. */
  readonly overflow?: ResultOverflowOutcome;
}

/** What became of a result over the limit, and how long it was. */
export type ResultOverflowOutcome = SavedResult & { readonly resultChars: number };

/**
 * The text of a tool result and its media, which each provider's adapter places where its API takes them
 * (chat completions in a user message after the turn's tool messages); audio only where the model takes
 * it, and the text says which media are attached. Resource links keep their URIs, embedded resources
 * their text (SPEC A17). Text over the limit is saved whole to the session's folder, the model getting a
 * preview and the path (or, with nowhere to save it, cut with a note); media are bounded by the
 * transport's message limit instead.
 */
export function modelToolResult(result: ToolResult, limits: ResultLimits): ModelToolResult {
  if (result.content.length === 0 && result.structuredContent !== undefined)
    return { ...fit(JSON.stringify(result.structuredContent), limits), attachments: [] };
  const lines: string[] = [];
  const attachments: ToolMedia[] = [];
  for (const block of result.content) {
    const piece = resultPiece(block);
    if (piece.kind === 'text') {
      lines.push(piece.text);
    } else if (piece.media === 'image') {
      attachments.push({ type: 'image', mimeType: piece.mimeType, data: piece.data });
      lines.push(`${piece.text} (attached)`);
    } else {
      const format = audioFormat(piece.mimeType);
      if (limits.audio && format) {
        attachments.push({ type: 'audio', format, data: piece.data });
        lines.push(`${piece.text} (attached)`);
      } else {
        lines.push(`${piece.text} (not passed on: ${format ? 'llm.audioInput is off' : 'the model takes wav and mp3 only'})`);
      }
    }
  }
  return { ...fit(lines.join('\n'), limits), attachments };
}

/** The text within the limit as is; over it, saved whole and previewed, or cut when it cannot be saved. */
function fit(text: string, limits: ResultLimits): { text: string; overflow?: ResultOverflowOutcome } {
  if (text.length <= limits.maxChars || limits.overflow === undefined) return { text: cut(text, limits) };
  const json = parseJson(text);
  const overflow = { ...limits.overflow.save(text, json), resultChars: text.length };
  if (!overflow.saved)
    return { text: `${cut(text, limits)}\n[the whole result could not be saved for Read: ${overflow.reason}]`, overflow };
  const note =
    `[This result has ${text.length} characters, over llm.maxToolResultChars (${limits.maxChars}), so it was saved whole to ${overflow.shown}: ` +
    `Read that file (offset and limit page through its lines) or Grep it for what you need. Below, ${json === undefined ? 'its start and its end' : 'the structure of its JSON'}.]`;
  const room = Math.max(0, limits.maxChars - note.length);
  return { text: `${note}\n${json === undefined ? headAndTail(text, room) : jsonSummary(json, room)}`, overflow };
}

/** A JSON object or array, when the whole text is one: what gets a structural summary rather than head and tail. */
function parseJson(text: string): unknown {
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function cut(text: string, limits: ResultLimits): string {
  if (text.length <= limits.maxChars) return text;
  return `${text.slice(0, limits.maxChars)}\n[cut: ${text.length - limits.maxChars} of ${text.length} characters not shown; llm.maxToolResultChars is ${limits.maxChars}]`;
}

function audioFormat(mimeType: string): 'wav' | 'mp3' | undefined {
  if (/^audio\/(x-)?wav$/.test(mimeType)) return 'wav';
  if (/^audio\/(mpeg|mp3)$/.test(mimeType)) return 'mp3';
  return undefined;
}
