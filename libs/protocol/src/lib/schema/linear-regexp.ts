import type { RegExpEngine, RegExpLike } from 'ajv/dist/types';
import { RE2JS } from 're2js';

import { errorMessage } from '../errors/error-message';
import { printable } from '../text/printable';
import { SchemaError, SchemaErrorCode } from './schema-errors';

/**
 * Ajv's `code.regExp` with RE2 semantics (ADR 0012): matching time is linear in the input whatever the
 * pattern, so a schema's `pattern` can never freeze the event loop, as V8's backtracking `^(a+)+$` did
 * (SPEC N5). Patterns RE2 cannot run in linear time (back-references, lookarounds) throw a SchemaError at
 * compile time, which makes the schema unusable instead of slow.
 *
 * Each engine keeps its compiled patterns, so one Ajv instance compiles a pattern once however many
 * schemas repeat it; the cache dies with the engine.
 */
export function linearRegExpEngine(): RegExpEngine {
  const compiled = new Map<string, RegExpLike>();
  const engine = (source: string): RegExpLike => {
    let regExp = compiled.get(source);
    if (!regExp) {
      regExp = compileLinear(source);
      compiled.set(source, regExp);
    }
    return regExp;
  };
  // Read by Ajv's standalone code generation only, which we do not use; Ajv requires the field.
  engine.code = 'linearRegExp';
  return engine;
}

/** A pattern compiled for linear-time matching: `test` finds it anywhere in the input, as RegExp#test does. */
export interface LinearRegExp {
  test(input: string): boolean;
}

/**
 * Compiles an ECMA-262 pattern for RE2 (ADR 0012), for code outside schemas that runs patterns it did not
 * write (the agent's Grep tool runs the model's). Throws a SchemaError (`schema.unsupported_pattern`)
 * naming the pattern when RE2 cannot run it.
 */
export function compileLinearRegExp(source: string, options: { ignoreCase?: boolean } = {}): LinearRegExp {
  return compileLinear(source, options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
}

function compileLinear(source: string, flags = 0): RegExpLike {
  let re2: RE2JS;
  try {
    // translateRegExp accepts ECMA-262 spellings (\u{...}, named groups, \/) that RE2 writes otherwise.
    re2 = RE2JS.compile(RE2JS.translateRegExp(source), flags);
  } catch (error) {
    const reason = errorMessage(error);
    throw new SchemaError(
      SchemaErrorCode.UnsupportedPattern,
      `pattern "${printable(source)}" cannot run in linear time (${printable(reason, 200)})`,
    );
  }
  // Ajv dedupes patterns by `toString()` within an instance, so it must be the source itself.
  return { test: (input: string) => re2.test(input), toString: () => source } as RegExpLike;
}
