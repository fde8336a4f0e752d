import type { HttpBinding } from '@toolmesh/registry';

/**
 * The path and query of an OpenAPI call (issue 27): the one place an argument value reaches an outbound URL.
 * Only the arguments the operation declares as path or query parameters are placed, after the arguments
 * passed the tool's `inputSchema`; each value is percent-encoded whole, every character but the unreserved
 * ones (RFC 3986: letters, digits, `-`, `.`, `_`, `~`), so it stays one path segment or one query value:
 * no `/`, `?`, `#`, `%`, `@`, `:` or control character of it survives raw. A path value that is empty,
 * `.` or `..` would still move the path and is refused. The origin and the literal parts of the path come
 * from the configuration and the document only, so no value can change the scheme, host, port or the
 * path before it (outbound-path.fuzz.spec.ts).
 */
export function outboundPath(
  binding: Pick<HttpBinding, 'path' | 'query'>,
  args: Readonly<Record<string, unknown>>,
  extraQuery: ReadonlyArray<readonly [string, string]> = NO_PAIRS,
): string | { problem: string } {
  let path = '';
  for (const part of binding.path) {
    if (typeof part === 'string') {
      path += part;
      continue;
    }
    const value = args[part.argument];
    const text = value === undefined || value === null ? '' : String(value);
    if (text === '' || text === '.' || text === '..') {
      return { problem: `arguments.${part.argument} cannot be a path segment (empty, "." or "..")` };
    }
    const encoded = encodeComponent(text);
    if (encoded === undefined) return { problem: `arguments.${part.argument} is not valid Unicode text` };
    path += encoded;
  }
  const pairs: string[] = [];
  for (const name of binding.query) {
    const value = args[name];
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      const encoded = encodeComponent(String(item));
      if (encoded === undefined) return { problem: `arguments.${name} is not valid Unicode text` };
      pairs.push(`${encodeComponent(name) ?? ''}=${encoded}`);
    }
  }
  for (const [name, value] of extraQuery) pairs.push(`${encodeComponent(name) ?? ''}=${encodeComponent(value) ?? ''}`);
  return pairs.length === 0 ? path : `${path}?${pairs.join('&')}`;
}

const NO_PAIRS: ReadonlyArray<readonly [string, string]> = [];
/** What encodeURIComponent leaves as it is besides the unreserved characters. */
const SUB_DELIMS = /[!'()*]/g;

/** Every character but the unreserved ones percent-encoded as UTF-8; `undefined` for a lone surrogate, which has no UTF-8. */
function encodeComponent(text: string): string | undefined {
  try {
    const encoded = encodeURIComponent(text);
    // Most values hold none of them: skip the replace's scan and copy.
    return encoded.search(SUB_DELIMS) === -1
      ? encoded
      : encoded.replace(SUB_DELIMS, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  } catch {
    return undefined;
  }
}
