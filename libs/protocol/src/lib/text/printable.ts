/**
 * Text from a peer (a server's tool name, a manifest's pattern), made safe to put in a log line, a status
 * document or a terminal: C0 / C1 control characters and DEL become `\uXXXX` escapes, so no escape
 * sequence reaches a terminal raw, and text over `maxChars` is cut with "...". Everything else is kept as
 * written, backslashes included, so a pattern still reads as its author wrote it.
 */
export function printable(text: string, maxChars = 80): string {
  const cut = text.length > maxChars ? `${text.slice(0, maxChars)}...` : text;
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return cut.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
