import type { ConfigReader } from '../../config/config-reader';
import type { HookEvent, Template } from './skill';

/** The event a hook's templates are rendered against; without a `body` template it is also the HTTP body. */
export interface HookEventContext {
  readonly event: HookEvent;
  readonly tool: { readonly name: string };
  readonly args: Readonly<Record<string, unknown>>;
  /** PostToolUse only: what the call returned. */
  readonly result?: { readonly text: string; readonly isError: boolean };
}

const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
const WHOLE_PLACEHOLDER = /^\{\{([^{}]*)\}\}$/;
const PATH = /^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/;
const FIXED_PLACEHOLDERS = ['event', 'tool.name', 'args', 'result.text', 'result.isError'];
const KNOWN = '{{event}}, {{tool.name}}, {{args}}, {{args.<path>}}, {{result.text}}, {{result.isError}}';

/**
 * Reads a template out of a skill file and checks every placeholder in it, so a typo fails at load
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
  if (text.replace(PLACEHOLDER, '').includes('{{')) throw field.fail('has a "{{" that does not start a placeholder: write {{<name>}} (there is no escape for a literal "{{")');
  return text;
}

/**
 * Renders a template against an event. A string that is exactly one placeholder becomes the value
 * itself (an object, a number, true/false; null when the path is missing); placeholders inside text
 * are replaced by their text (empty when missing, JSON for objects and lists). Nothing is evaluated:
 * a path only walks own properties of the event. Never throws.
 */
export function renderTemplate(template: Template, context: HookEventContext): unknown {
  if (typeof template === 'string') return renderString(template, context);
  if (Array.isArray(template)) return template.map((item: Template) => renderTemplate(item, context));
  if (template !== null && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([key, value]) => [key, renderTemplate(value, context)]));
  }
  return template;
}

function renderString(text: string, context: HookEventContext): unknown {
  const whole = WHOLE_PLACEHOLDER.exec(text);
  if (whole) return lookup(context, whole[1].trim()) ?? null;
  return text.replace(PLACEHOLDER, (_, path: string) => asText(lookup(context, path.trim())));
}

function lookup(context: HookEventContext, path: string): unknown {
  let value: unknown = context;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}
