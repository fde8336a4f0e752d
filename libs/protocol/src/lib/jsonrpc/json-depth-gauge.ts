const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Measures the nesting depth of JSON text as its bytes arrive, so that a document nested too deep is
 * refused before it is buffered whole and parsed: V8 parses far deeper input than `JSON.stringify` can
 * write back, and building millions of nested arrays holds the event loop and hundreds of MB. Bytes of
 * UTF-8 multi-byte characters are all above 0x7F, so counting brackets byte by byte outside strings is
 * exact. The text is not validated: that is still the parser's job.
 */
export class JsonDepthGauge {
  private depth = 0;
  private inString = false;
  private escaped = false;

  /** `maxDepth`: the deepest nesting allowed, the outermost object or array being level 1. */
  constructor(readonly maxDepth: number) {}

  /** Reads the next bytes of the text; false once the text has gone deeper than `maxDepth`. */
  feed(bytes: Uint8Array): boolean {
    let { depth, inString, escaped } = this;
    const maxDepth = this.maxDepth;
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) inString = false;
      } else if (byte === QUOTE) {
        inString = true;
      } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
        if (++depth > maxDepth) {
          this.depth = depth;
          return false;
        }
      } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        depth -= 1;
      }
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    return true;
  }
}
