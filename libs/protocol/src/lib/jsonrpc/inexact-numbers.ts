import { callerText } from './error-responses';

/**
 * What a numeral `JSON.parse` may change looks like: one with an exponent (1e309 becomes Infinity, which
 * JSON writes back as null; 1e20 is past 2^53) or a run of 16 digits (an integer past 2^53 loses its
 * last digits). Tested on the raw text, so that a message without one, nearly every message, is never
 * walked; a match inside a string (a hex id) only costs the walk.
 */
const MAYBE_INEXACT = /\d[eE]|\d{16}/;

export function mayHoldInexactNumbers(text: string): boolean {
  return MAYBE_INEXACT.test(text);
}

/**
 * The path (`params.arguments.amount`, `params.items[3]`) of the first number in `value` that JSON.parse
 * may not have carried exactly: one out of range, or one beyond ±2^53, where not every integer exists as
 * a double and the caller's digits may have been rounded. Iterative, like the depth check.
 */
export function firstInexactNumber(value: unknown, root: string): string | undefined {
  const stack: Array<[unknown, string]> = [[value, root]];
  while (stack.length > 0) {
    const [current, path] = stack.pop() as [unknown, string];
    if (typeof current === 'number') {
      if (!(Math.abs(current) <= Number.MAX_SAFE_INTEGER)) return path;
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => stack.push([item, `${path}[${index}]`]));
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, member] of Object.entries(current)) stack.push([member, `${path}.${callerText(key)}`]);
    }
  }
  return undefined;
}
