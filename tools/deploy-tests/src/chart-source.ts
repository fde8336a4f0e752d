import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { parse as parseYaml } from 'yaml';

/**
 * A Helm chart read without helm (none can be installed here): values.yaml and Chart.yaml with the YAML
 * parser, each template with the YAML parser after its actions are made opaque. Nothing is rendered: each
 * action `{{ ... }}` that produces text becomes a placeholder scalar whose expression `actionOf` gives back
 * (`labels:` followed by `{{- include "...labels" . | nindent 4 }}` parses as `labels: <that include>`), and
 * a line holding only a control action (`if`, `else`, `end`, `with`, `range`, a comment) is dropped, so the
 * template's own YAML structure is what the tests walk. `valueAt` resolves a plain `.Values.a.b` reference
 * against values.yaml, the only expression the tests evaluate.
 */
export interface ParsedTemplate {
  readonly raw: string;
  /** The template's YAML with its actions as placeholders. */
  readonly doc: Record<string, unknown>;
  /** The expression of a placeholder value (`.Values.ports.management`), or undefined for a literal. */
  actionOf(value: unknown): string | undefined;
}

export interface Chart {
  readonly dir: string;
  readonly meta: Record<string, unknown>;
  readonly values: Record<string, unknown>;
  /** templates/*.yaml by file name. */
  readonly templates: Record<string, ParsedTemplate>;
  /** The raw text of templates/_helpers.tpl. */
  readonly helpers: string;
}

const ACTION = /\{\{-?\s*([\s\S]*?)\s*-?\}\}/g;
const PLACEHOLDER = /^__tpl(\d+)__$/;
const CONTROL_LINE = /^\s*\{\{-?\s*(if|else|end|with|range|\/\*)(\s|\b)[\s\S]*\}\}\s*$/;

export function readChart(dir: string): Chart {
  const templatesDir = path.join(dir, 'templates');
  const templates: Record<string, ParsedTemplate> = {};
  for (const file of readdirSync(templatesDir).filter((name) => name.endsWith('.yaml'))) {
    templates[file] = parseTemplate(readFileSync(path.join(templatesDir, file), 'utf8'));
  }
  return {
    dir,
    meta: parseYaml(readFileSync(path.join(dir, 'Chart.yaml'), 'utf8')),
    values: parseYaml(readFileSync(path.join(dir, 'values.yaml'), 'utf8')),
    templates,
    helpers: readFileSync(path.join(templatesDir, '_helpers.tpl'), 'utf8'),
  };
}

export function parseTemplate(raw: string): ParsedTemplate {
  const expressions: string[] = [];
  const opaque = (line: string) =>
    line.replace(ACTION, (_whole, expression: string) => {
      expressions.push(expression);
      return `__tpl${expressions.length - 1}__`;
    });
  const lines: string[] = [];
  for (const line of raw.split('\n')) {
    if (CONTROL_LINE.test(line)) continue;
    const contentOnly = line.includes('{{') && line.replace(ACTION, '').trim() === '';
    // A line that is only a text-producing action is either the value of the key above it or entries
    // spliced into the mapping around it (`{{- toYaml .Values.podAnnotations | nindent 8 }}`).
    const spliced = contentOnly && !/:\s*(\|)?\s*$/.test(lines.at(-1) ?? '');
    lines.push(spliced ? `${opaque(line)}: spliced` : opaque(line));
  }
  const doc = (parseYaml(lines.join('\n')) ?? {}) as Record<string, unknown>;
  return {
    raw,
    doc,
    actionOf: (value) => {
      const match = typeof value === 'string' ? PLACEHOLDER.exec(value.trim()) : null;
      return match ? expressions[Number(match[1])] : undefined;
    },
  };
}

/** The body of `{{- define "name" -}} ... {{- end -}}` in a helpers file (its own `if ... end` nested), trimmed. */
export function defineBody(helpers: string, name: string): string {
  const start = helpers.indexOf(`define "${name}"`);
  if (start < 0) throw new Error(`_helpers.tpl defines no "${name}"`);
  const bodyStart = helpers.indexOf('}}', start) + 2;
  let depth = 1;
  for (const action of helpers.slice(bodyStart).matchAll(ACTION)) {
    const keyword = /^(if|with|range|define|block|end)\b/.exec(action[1])?.[1];
    if (keyword === 'end') depth -= 1;
    else if (keyword) depth += 1;
    if (depth === 0) return helpers.slice(bodyStart, bodyStart + (action.index ?? 0)).trim();
  }
  throw new Error(`the define "${name}" in _helpers.tpl has no end`);
}

/** The value of a `.Values.a.b` reference in values.yaml; throws for anything else or a missing key. */
export function valueAt(values: Record<string, unknown>, reference: string): unknown {
  const match = /^\.Values((?:\.[A-Za-z_][\w]*)+)$/.exec(reference);
  if (!match) throw new Error(`not a plain .Values reference: ${reference}`);
  let current: unknown = values;
  for (const key of match[1].slice(1).split('.')) {
    if (typeof current !== 'object' || current === null || !(key in current)) throw new Error(`values.yaml has no ${reference}`);
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Walks a parsed document by keys and list indexes; undefined when the path does not exist. */
export function at(doc: unknown, ...keys: Array<string | number>): unknown {
  return keys.reduce<unknown>(
    (node, key) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined),
    doc,
  );
}
