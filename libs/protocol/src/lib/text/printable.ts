// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

/** How many characters of a name a peer chose (a method, a tool, a route) a log line keeps. */
const PRINTABLE_NAME_CHARS = 64;

/**
 * Text from a peer (a server's tool name, a manifest's pattern), made safe to put in a log line, a status
 * document or a terminal: C0 / C1 control characters and DEL become `\uXXXX` escapes, so no escape
 * sequence reaches a terminal raw, and text over `maxChars` is cut with "...". Everything else is kept as
 * written, backslashes included, so a pattern still reads as its author wrote it.
 */
export function printable(text: string, maxChars = 80): string {
  return escapeControlCharacters(text.length > maxChars ? `${text.slice(0, maxChars)}...` : text);
}

/** A name a peer chose (a method, a tool, a route), as a log line shows it. */
export function printableName(name: string): string {
  return printable(name, PRINTABLE_NAME_CHARS);
}

/** C0 / C1 control characters and DEL as `\uXXXX`; inside a JSON string literal the result is still valid JSON. */
export function escapeControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
