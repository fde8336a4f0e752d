import type { ConfigReader } from './config-reader';
import type { HookEvent, Template } from './hook-file';

/**
 * A placeholder: `{{<path>}}` inside a template string. The paths name fields of the event a hook is
 * rendered against (agent/hooks/hook-template.ts), which is why only these are known.
 */
export const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
const PATH = /^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/;
const FIXED_PLACEHOLDERS = ['event', 'tool.name', 'args', 'result.text', 'result.isError'];
const KNOWN = '{{event}}, {{tool.name}}, {{args}}, {{args.<path>}}, {{result.text}}, {{result.isError}}';

/**
 * Reads a template out of a hook file and checks every placeholder in it, so a typo fails at load
 * rather than rendering nothing at every call. Only JSON values are templates; only strings hold
 * placeholders (keys are taken as written).
 */
export function readTemplate(field: ConfigReader, event: HookEvent): Template {
  const { value } = field;
  if (typeof value === 'string') return checkPlaceholders(field, value, event);
  if (value === null || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) return value;
  if (Array.isArray(value)) return value.map((_, i) => readTemplate(field.at(i), event));
  if (field.isObject()) return Object.fromEntries(field.entries().map(([key, child]) => [key, readTemplate(child, event)]));
  throw field.error('a JSON value: text, a number, true/false, null, a list or a map');
}

function checkPlaceholders(field: ConfigReader, text: string, event: HookEvent): string {
  for (const [, inner] of text.matchAll(PLACEHOLDER)) {
    const path = inner.trim();
    if (!PATH.test(path) || !(FIXED_PLACEHOLDERS.includes(path) || path.startsWith('args.'))) {
      throw field.fail(`has {{${inner}}}, which is not a placeholder (known: ${KNOWN})`);
    }
    if (path.startsWith('result.') && event === 'PreToolUse') {
      throw field.fail(`has {{${path}}}, but a PreToolUse hook runs before there is a result; use it in a PostToolUse hook`);
    }
  }
  if (text.replace(PLACEHOLDER, '').includes('{{'))
    throw field.fail('has a "{{" that does not start a placeholder: write {{<name>}} (there is no escape for a literal "{{")');
  return text;
}
