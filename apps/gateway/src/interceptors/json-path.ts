/**
 * The JSON paths a refuse interceptor names (`$.query`, `$.filters[*].value`, `$['odd key']`): a small
 * subset of RFC 9535 with no filters or functions, so selecting costs one walk of the value. Parsed once at
 * configuration load; `select` runs per call.
 */
export type JsonPathStep = { readonly key: string } | { readonly index: number } | { readonly wildcard: true };

/** Why a path cannot be used, for the configuration error that names it. */
class JsonPathError extends Error {}

const NAME = /^[A-Za-z_$][A-Za-z0-9_$-]*/;

/** `$` then `.name`, `.*`, `[n]`, `[*]` or `['name']` steps; throws a JsonPathError saying what is wrong. */
export function parseJsonPath(path: string): readonly JsonPathStep[] {
  if (!path.startsWith('$')) throw new JsonPathError('a path starts with $ (the arguments object), e.g. $.query');
  const steps: JsonPathStep[] = [];
  let rest = path.slice(1);
  while (rest.length > 0) {
    if (rest.startsWith('.*')) {
      steps.push({ wildcard: true });
      rest = rest.slice(2);
    } else if (rest.startsWith('.')) {
      const name = NAME.exec(rest.slice(1))?.[0];
      if (name === undefined) throw new JsonPathError(`expected a member name after "." at "${rest}"; quote other names as ['name']`);
      steps.push({ key: name });
      rest = rest.slice(1 + name.length);
    } else if (rest.startsWith('[*]')) {
      steps.push({ wildcard: true });
      rest = rest.slice(3);
    } else {
      const bracket = /^\[(?:(\d{1,9})|'([^'\\]*)')\]/.exec(rest);
      if (bracket === null) throw new JsonPathError(`cannot read "${rest}": use .name, .*, [n], [*] or ['name']`);
      steps.push(bracket[1] !== undefined ? { index: Number(bracket[1]) } : { key: bracket[2] });
      rest = rest.slice(bracket[0].length);
    }
  }
  return steps;
}

/**
 * Each string at or below what the path selects in `value` (an object's members and an array's items
 * searched through), given to `visit` until it returns true; true when one did. Strings below the selected
 * node count, so nesting an argument one level deeper does not slip past a rule.
 */
export function someStringAt(value: unknown, steps: readonly JsonPathStep[], visit: (text: string) => boolean, from = 0): boolean {
  if (from === steps.length) return someString(value, visit);
  if (typeof value !== 'object' || value === null) return false;
  const step = steps[from];
  if ('wildcard' in step) {
    const children = Array.isArray(value) ? value : Object.values(value);
    return children.some((child) => someStringAt(child, steps, visit, from + 1));
  }
  if ('index' in step) return Array.isArray(value) && someStringAt(value[step.index], steps, visit, from + 1);
  return (
    !Array.isArray(value) &&
    Object.hasOwn(value, step.key) &&
    someStringAt((value as Record<string, unknown>)[step.key], steps, visit, from + 1)
  );
}

function someString(value: unknown, visit: (text: string) => boolean): boolean {
  if (typeof value === 'string') return visit(value);
  if (typeof value !== 'object' || value === null) return false;
  return (Array.isArray(value) ? value : Object.values(value)).some((child) => someString(child, visit));
}
