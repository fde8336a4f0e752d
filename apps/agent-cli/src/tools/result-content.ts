/**
 * MCP's content blocks (spec 2025-11-25 "Tool Result"), read defensively: a server may send any shape.
 * Each block becomes text a person or a model can read, and, for media, the media itself.
 */
export type ToolContent = { readonly type: 'text'; readonly text: string } | { readonly type: string; readonly [key: string]: unknown };

/** What one content block becomes. */
export type ResultPiece =
  | { readonly kind: 'text'; readonly text: string }
  /** Base64 `data` of an image or audio clip, with the text that stands for it where media cannot go. */
  | { readonly kind: 'media'; readonly media: 'image' | 'audio'; readonly mimeType: string; readonly data: string; readonly text: string };

export function resultPiece(block: ToolContent): ResultPiece {
  const field = (value: unknown, key: string): string | undefined => {
    const found = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
    return typeof found === 'string' ? found : undefined;
  };
  switch (block.type) {
    case 'text':
      return { kind: 'text', text: field(block, 'text') ?? '' };
    case 'image':
    case 'audio': {
      const data = field(block, 'data') ?? '';
      const mimeType = field(block, 'mimeType') ?? 'application/octet-stream';
      return { kind: 'media', media: block.type, mimeType, data, text: `[${block.type} ${mimeType}, ${decodedBytes(data)} bytes]` };
    }
    case 'resource_link': {
      const uri = field(block, 'uri') ?? '';
      const name = field(block, 'title') ?? field(block, 'name') ?? uri;
      const mimeType = field(block, 'mimeType');
      const description = field(block, 'description');
      return {
        kind: 'text',
        text: `[resource link: ${name} <${uri}>${mimeType ? ` ${mimeType}` : ''}]${description ? ` ${description}` : ''}`,
      };
    }
    case 'resource': {
      const resource = (block as { resource?: unknown }).resource;
      const uri = field(resource, 'uri') ?? '';
      const mimeType = field(resource, 'mimeType');
      const text = field(resource, 'text');
      if (text !== undefined) return { kind: 'text', text: `[resource <${uri}>${mimeType ? ` ${mimeType}` : ''}]\n${text}` };
      const blob = field(resource, 'blob') ?? '';
      const label = `[resource <${uri}> ${mimeType ?? 'binary'}, ${decodedBytes(blob)} bytes]`;
      if (mimeType?.startsWith('image/')) return { kind: 'media', media: 'image', mimeType, data: blob, text: label };
      return { kind: 'text', text: `${label} (binary, not shown)` };
    }
    default:
      return { kind: 'text', text: `[${String(block.type).slice(0, 32)} content]` };
  }
}

/** Bytes that base64 text decodes to. */
function decodedBytes(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}
