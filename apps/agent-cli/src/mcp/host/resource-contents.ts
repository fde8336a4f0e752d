import type { ReadResourceResult } from '@toolmesh/mcp-client';

import type { ToolContent } from '../../tools/result-content';

type ResourceContents = ReadResourceResult['contents'][number];

/** How a binary part is named where it cannot be shown: its URI, type and decoded size. */
function blobNote(part: ResourceContents & { blob: string }): string {
  const bytes = Buffer.byteLength(part.blob, 'base64');
  return `[binary resource ${part.uri} (${part.mimeType ?? 'no MIME type'}, ${bytes} bytes)]`;
}

/** The read result as a person reads it: each text part as it is, each binary part as a note. */
export function resourceContentsText(result: ReadResourceResult): string {
  return result.contents.map((part) => ('text' in part ? part.text : blobNote(part))).join('\n');
}

/**
 * The read result as tool content for the model: text parts as text, images as image parts (the
 * results stage passes them to providers that take them), any other binary part as a note.
 */
export function resourceContentsForModel(result: ReadResourceResult): ToolContent[] {
  return result.contents.map((part): ToolContent => {
    if ('text' in part) return { type: 'text', text: part.text };
    if (part.mimeType?.startsWith('image/')) return { type: 'image', data: part.blob, mimeType: part.mimeType };
    return { type: 'text', text: blobNote(part) };
  });
}
