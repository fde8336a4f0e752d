import type { HookEvent, Template } from '../../config/hook-file';
import { PLACEHOLDER } from '../../config/hook-file-template';

/** The event a hook's templates are rendered against; without a `body` template it is also the HTTP body. */
export interface HookEventContext {
  readonly event: HookEvent;
  readonly tool: { readonly name: string };
  readonly args: Readonly<Record<string, unknown>>;
  /** PostToolUse only: what the call returned. */
  readonly result?: { readonly text: string; readonly isError: boolean };
}

const WHOLE_PLACEHOLDER = /^\{\{([^{}]*)\}\}$/;

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
