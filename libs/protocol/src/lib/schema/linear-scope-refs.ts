import type { Name, ScopeValueSets, ValueScope, ValueScopeName } from 'ajv/dist/compile/codegen';
import { _Code } from 'ajv/dist/compile/codegen/code';

/**
 * Makes an Ajv instance declare a compiled function's outside values in time linear in their number.
 *
 * Every compiled validator starts with one `const pattern0 = scope.pattern[0];` per outside value it
 * uses: one per distinct `pattern` and `patternProperties` key, one per `$ref` not inlined. Ajv 8's
 * `ValueScope.scopeRefs` builds those lines as `code = _\`${code}const ...\``, which copies every line
 * so far for each new one: a tool with 10,000 patterned properties spent 55 s there, holding the event
 * loop (issue 43, item 2). This writes the same lines once each. Installed before the instance compiles
 * anything; the compiled code is unchanged, so only the time to get there differs.
 */
export function declareScopeValuesLinearly(ajv: { readonly scope: ValueScope }): void {
  ajv.scope.scopeRefs = (scopeName: Name, values?: ScopeValueSets | Record<string, Map<unknown, ValueScopeName>>): _Code => {
    const lines: string[] = [];
    for (const prefix in values) {
      // A Set of names (a compile's own) or a Map to them (the whole instance's): forEach gives the names.
      values[prefix]?.forEach((name: ValueScopeName) => {
        if (name.scopePath === undefined) throw new Error(`CodeGen: name "${name}" has no value`);
        lines.push(`const ${name} = ${scopeName}${name.scopePath};`);
      });
    }
    return new _Code(lines.join(''));
  };
}
