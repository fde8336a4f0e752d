/**
 * What a terminal would act on rather than show: C0 controls but newline and tab (ESC starts every escape
 * sequence: screen clears, colours, OSC 52 clipboard writes, window titles; CR rewrites a line), DEL, C1
 * controls (CSI and OSC have one-character forms), and the Unicode bidi overrides, isolates and marks that
 * make text read in another order than it is stored.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const TERMINAL_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text as a terminal must get it: every control above as a visible `\uXXXX`, everything else as written.
 * Idempotent, and safe on any chunk of a stream, since it works character by character.
 */
export function forTerminal(text: string): string {
  return text.replace(TERMINAL_CONTROLS, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
