import { type ElicitResult } from '@toolmesh/mcp-client';
import { escapeControlCharacters, printable } from '@toolmesh/protocol';

/** Asks one question and resolves to the line typed; rejects at Ctrl-C / Ctrl-D (the terminal's `ask`). */
export type AskLine = (question: string, signal?: AbortSignal) => Promise<string>;

/** The part of an elicitation request a form needs: the server's message and its flat object schema. */
export interface FormRequest {
  readonly message: string;
  readonly requestedSchema: { readonly properties?: Readonly<Record<string, unknown>>; readonly required?: readonly string[] };
}

interface Choice {
  readonly value: string;
  readonly label: string;
}

/** One field of the form, read from the restricted schema MCP allows for elicitation (flat primitives and enums). */
interface Field {
  readonly name: string;
  readonly title: string;
  readonly description?: string;
  readonly required: boolean;
  readonly default?: unknown;
  readonly kind: 'string' | 'number' | 'integer' | 'boolean' | 'choice' | 'choices';
  readonly choices: readonly Choice[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly format?: string;
}

const DECLINE = '/decline';
const CANCEL = '/cancel';

/** The schema's fields, in the order the server lists them. */
function formFields(request: FormRequest): Field[] {
  const required = new Set(request.requestedSchema.required ?? []);
  return Object.entries(request.requestedSchema.properties ?? {}).map(([name, raw]) => {
    const schema = (raw ?? {}) as Record<string, unknown>;
    const choices = choicesOf(schema);
    const type = schema.type;
    const kind: Field['kind'] =
      type === 'array'
        ? 'choices'
        : choices.length > 0
          ? 'choice'
          : type === 'number' || type === 'integer' || type === 'boolean'
            ? type
            : 'string';
    return {
      name,
      title: typeof schema.title === 'string' ? schema.title : name,
      description: typeof schema.description === 'string' ? schema.description : undefined,
      required: required.has(name),
      default: schema.default,
      kind,
      choices,
      minimum: numberOr(schema.minimum ?? schema.minItems),
      maximum: numberOr(schema.maximum ?? schema.maxItems),
      minLength: numberOr(schema.minLength),
      maxLength: numberOr(schema.maxLength),
      format: typeof schema.format === 'string' ? schema.format : undefined,
    };
  });
}

/**
 * The schema's defaults as answers (SEP-1034: a client fills them in): what an accepted form holds for
 * every field the person left empty.
 */
export function defaultAnswers(request: FormRequest): Record<string, unknown> {
  return Object.fromEntries(formFields(request).flatMap((f) => (f.default === undefined ? [] : [[f.name, f.default]])));
}

/**
 * Fills an elicitation form on the terminal, one question per field: Enter keeps the default (or leaves
 * an optional field out), a wrong answer is told and asked again, `/decline` or `/cancel` at any
 * question ends it so, and Ctrl-C / Ctrl-D cancel. The answers are shown and sent only after a final yes;
 * a no there declines.
 */
export async function fillForm(
  server: string,
  request: FormRequest,
  ask: AskLine,
  show: (text: string) => void,
  signal?: AbortSignal,
): Promise<ElicitResult> {
  const fields = formFields(request);
  show(
    `\nMCP server "${server}" asks for information:\n  ${escapeControlCharacters(request.message).replace(/\n/g, '\n  ')}\n` +
      `(Enter keeps the [default]; ${DECLINE} or ${CANCEL} at any question ends the form)\n`,
  );
  const content: Record<string, unknown> = {};
  try {
    for (const field of fields) {
      for (;;) {
        const answer = (await ask(question(field), signal)).trim();
        if (answer === DECLINE) return { action: 'decline' };
        if (answer === CANCEL) return { action: 'cancel' };
        const parsed = parseAnswer(field, answer);
        if ('problem' in parsed) {
          show(`  ${parsed.problem}\n`);
          continue;
        }
        if ('value' in parsed) content[field.name] = parsed.value;
        break;
      }
    }
    const summary = Object.entries(content).map(([name, value]) => `  ${name}: ${printable(JSON.stringify(value), 200)}`);
    show(`Answers for "${server}":\n${summary.length > 0 ? summary.join('\n') : '  (none)'}\n`);
    const send = await ask('Send these answers? [y/N] ', signal);
    return /^\s*y(es)?\s*$/i.test(send) ? { action: 'accept', content: content as ElicitResult['content'] } : { action: 'decline' };
  } catch {
    // Ctrl-C, Ctrl-D or the terminal closing while a question was open.
    return { action: 'cancel' };
  }
}

function question(field: Field): string {
  const lines = [
    `${printable(field.title, 80)}${field.required ? ' (required)' : ''}${field.description ? ` - ${printable(field.description, 160)}` : ''}`,
  ];
  if (field.choices.length > 0) lines.push(field.choices.map((c, i) => `    ${i + 1}) ${printable(c.label, 60)}`).join('\n'));
  const hint = {
    string: field.format ?? 'text',
    number: 'number',
    integer: 'whole number',
    boolean: 'y/n',
    choice: 'number or value',
    choices: 'numbers or values, comma-separated',
  }[field.kind];
  const shownDefault =
    field.default === undefined
      ? ''
      : ` [${printable(Array.isArray(field.default) ? field.default.join(', ') : String(field.default), 60)}]`;
  return `${lines.join('\n')}\n  ${field.name} (${hint})${shownDefault}: `;
}

type Parsed = { readonly value: unknown } | { readonly problem: string } | { readonly skip: true };

function parseAnswer(field: Field, answer: string): Parsed {
  if (answer === '') {
    if (field.default !== undefined) return { value: field.default };
    return field.required ? { problem: `${field.name} is required; type a value, or ${DECLINE}` } : { skip: true };
  }
  switch (field.kind) {
    case 'boolean':
      if (/^(y|yes|true)$/i.test(answer)) return { value: true };
      if (/^(n|no|false)$/i.test(answer)) return { value: false };
      return { problem: 'answer y or n' };
    case 'number':
    case 'integer': {
      const value = Number(answer);
      if (!Number.isFinite(value) || (field.kind === 'integer' && !Number.isInteger(value)))
        return { problem: `"${printable(answer, 40)}" is not a ${field.kind === 'integer' ? 'whole number' : 'number'}` };
      return inRange(field, value, value);
    }
    case 'choice': {
      const choice = pick(field.choices, answer);
      return choice ? { value: choice.value } : { problem: `choose one of 1-${field.choices.length}` };
    }
    case 'choices': {
      const picked = answer.split(',').map((part) => pick(field.choices, part.trim()));
      if (picked.some((c) => c === undefined)) return { problem: `choose from 1-${field.choices.length}, comma-separated` };
      const values = [...new Set(picked.map((c) => (c as Choice).value))];
      return inRange(field, values.length, values, 'choices');
    }
    case 'string': {
      if (field.minLength !== undefined && answer.length < field.minLength) return { problem: `at least ${field.minLength} characters` };
      if (field.maxLength !== undefined && answer.length > field.maxLength) return { problem: `at most ${field.maxLength} characters` };
      const formatProblem = field.format ? FORMATS[field.format]?.(answer) : undefined;
      return formatProblem ? { problem: formatProblem } : { value: answer };
    }
  }
}

function inRange(field: Field, measure: number, value: unknown, unit = ''): Parsed {
  const of = unit ? ` ${unit}` : '';
  if (field.minimum !== undefined && measure < field.minimum) return { problem: `at least ${field.minimum}${of}` };
  if (field.maximum !== undefined && measure > field.maximum) return { problem: `at most ${field.maximum}${of}` };
  return { value };
}

const FORMATS: Readonly<Record<string, (text: string) => string | undefined>> = {
  email: (text) => (/^[^\s@]+@[^\s@]+$/.test(text) ? undefined : 'not an email address'),
  uri: (text) => (URL.canParse(text) ? undefined : 'not a URI (e.g. https://example.com)'),
  date: (text) => (/^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text)) ? undefined : 'not a date (YYYY-MM-DD)'),
  'date-time': (text) => (!Number.isNaN(Date.parse(text)) ? undefined : 'not a date and time (e.g. 2026-12-01T13:00:00Z)'),
};

/** A choice by its number (1-based) or its value. */
function pick(choices: readonly Choice[], answer: string): Choice | undefined {
  const index = /^\d+$/.test(answer) ? Number(answer) - 1 : -1;
  return choices[index] ?? choices.find((c) => c.value === answer);
}

/** The choices of an enum field in any of the forms MCP allows: enum (with legacy enumNames), oneOf / anyOf of const + title, and arrays of those. */
function choicesOf(schema: Record<string, unknown>): Choice[] {
  const source = schema.type === 'array' ? ((schema.items ?? {}) as Record<string, unknown>) : schema;
  if (Array.isArray(source.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return source.enum.map((value, i) => ({
      value: String(value),
      label: typeof names[i] === 'string' ? `${names[i]} (${String(value)})` : String(value),
    }));
  }
  const options = Array.isArray(source.oneOf) ? source.oneOf : Array.isArray(source.anyOf) ? source.anyOf : [];
  return options.flatMap((option: { const?: unknown; title?: unknown }) =>
    typeof option.const === 'string'
      ? [{ value: option.const, label: typeof option.title === 'string' ? option.title : option.const }]
      : [],
  );
}

function numberOr(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}
