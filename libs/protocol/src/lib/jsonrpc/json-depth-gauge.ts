const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Measures the nesting depth of JSON text as it arrives, so that a document nested too deep is refused
 * before it is buffered whole and parsed: V8 parses far deeper input than `JSON.stringify` can write
 * back, and building millions of nested arrays holds the event loop and hundreds of MB. It reads UTF-8
 * bytes (`feed`) or decoded text (`feedText`): the bytes of a multi-byte character, like the UTF-16 code
 * units of a non-ASCII one, are all above 0x7F, so counting brackets outside strings is exact either way.
 * The text is not validated: that is still the parser's job.
 */
export class JsonDepthGauge {
  private depth = 0;
  private inString = false;
  private escaped = false;

  /** `maxDepth`: the deepest nesting allowed, the outermost object or array being level 1. */
  constructor(readonly maxDepth: number) {}

  /** Reads the next bytes of the text; false once the text has gone deeper than `maxDepth`. */
  feed(bytes: Uint8Array): boolean {
    for (let i = 0; i < bytes.length; i++) if (!this.step(bytes[i])) return false;
    return true;
  }

  /** Reads the next characters of the text; false once the text has gone deeper than `maxDepth`. */
  feedText(text: string): boolean {
    for (let i = 0; i < text.length; i++) if (!this.step(text.charCodeAt(i))) return false;
    return true;
  }

  /** One byte or code unit. A method per character measured no slower than one loop per input kind (V8 inlines it). */
  private step(code: number): boolean {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (code === BACKSLASH) this.escaped = true;
      else if (code === QUOTE) this.inString = false;
    } else if (code === QUOTE) {
      this.inString = true;
    } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      if (++this.depth > this.maxDepth) return false;
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      this.depth -= 1;
    }
    return true;
  }
}
