import { compileLinearRegExp, type LinearRegExp } from '@toolmesh/protocol';

import type { RefuseRule } from '../config/interceptor-settings';
import { ALLOW, type InterceptedCall, type Verdict } from './interceptor';
import { type JsonPathStep, parseJsonPath, someStringAt } from './json-path';

/**
 * The built-in `refuse` (request phase): arguments matching a rule's pattern at its JSON path. Patterns run
 * on RE2 (re2js, ADR 0012): matching time is linear in the argument whatever the pattern, so a pattern like
 * `(a+)+$` cannot freeze the event loop on a hostile argument, and one RE2 cannot run so (a back-reference,
 * a lookaround) fails the configuration load. The reason names the path, never the value.
 */
export function refuseJudge(rules: readonly RefuseRule[]): (call: InterceptedCall) => Verdict {
  const compiled = rules.map((rule) => ({
    path: rule.path,
    steps: parseJsonPath(rule.path) as readonly JsonPathStep[],
    regExp: compileLinearRegExp(rule.pattern, { ignoreCase: rule.ignoreCase }) as LinearRegExp,
  }));
  return ({ args }) => {
    for (const rule of compiled) {
      if (someStringAt(args, rule.steps, (text) => rule.regExp.test(text)))
        return { kind: 'deny', reason: `the argument at ${rule.path} matches a refused pattern` };
    }
    return ALLOW;
  };
}
