import { Redactor } from '@redactpii/node';
import { lintSource } from '@secretlint/core';
import { creator as recommendedSecretRules } from '@secretlint/secretlint-rule-preset-recommend';

import { PERSONAL_DATA_KINDS, type PersonalDataKind } from '../config/interceptor-settings';
import { ALLOW, type InterceptedCall, type InterceptedResult, type Verdict } from './interceptor';

/** What a redact interceptor removes from results. */
export interface RedactSettings {
  /** Credentials secretlint's recommended rules find (cloud keys, GitHub, Slack, npm and OpenAI tokens, private keys, ...). */
  readonly secrets: boolean;
  readonly personalData: readonly PersonalDataKind[];
}

/** What a found secret becomes: nothing of it is kept. */
const SECRET_MARK = '[REDACTED SECRET]';

/**
 * The secretlint configuration: the recommended preset, with AWS access key ids found too (the preset reports
 * only secret keys by default, but an id beside its key in a result is half a credential).
 */
const SECRETLINT_CONFIG = {
  rules: [
    {
      id: '@secretlint/secretlint-rule-preset-recommend',
      rule: recommendedSecretRules,
      rules: [{ id: '@secretlint/secretlint-rule-aws', options: { enableIDScanRule: true } }],
    },
  ],
};

/**
 * The built-in `redact` (response phase, ADR 0027): secrets and personal data removed from a result's text
 * blocks and from every string of its `structuredContent`, by detection libraries rather than our own
 * patterns: secretlint's recommended rules for credentials, `@redactpii/node` for personal data. All the
 * result's strings go to secretlint as one text (one lint per result, not per string); what it finds is
 * mapped back to each string by offset. A result with nothing to remove is passed on as the same object.
 */
export function redactJudge(settings: RedactSettings): (call: InterceptedCall, result: InterceptedResult) => Verdict | Promise<Verdict> {
  const enabled = new Set(settings.personalData);
  const redactor =
    enabled.size > 0
      ? new Redactor({ rules: Object.fromEntries(PERSONAL_DATA_KINDS.map((kind) => [kind, enabled.has(kind)])) })
      : undefined;
  const redactPersonal = (text: string): string => (redactor ? redactor.redact(text) : text);
  return (_call, result) => {
    const strings = stringsOf(result);
    if (strings.length === 0) return ALLOW;
    if (!settings.secrets) return verdictFor(result, strings, strings.map(redactPersonal));
    return secretsRemoved(strings).then((cleaned) => verdictFor(result, strings, cleaned.map(redactPersonal)));
  };
}

/** Each string with its secrets replaced, found by one secretlint run over them all, joined by newlines. */
async function secretsRemoved(strings: readonly string[]): Promise<string[]> {
  const content = strings.join('\n');
  const { messages } = await lintSource({
    source: { content, filePath: '/tool-result.txt', ext: '.txt', contentType: 'text' },
    options: { config: SECRETLINT_CONFIG },
  });
  if (messages.length === 0) return [...strings];
  const ranges = messages.map((message) => message.range).sort((a, b) => a[0] - b[0]);
  let start = 0;
  return strings.map((text) => {
    const end = start + text.length;
    let cleaned = '';
    let at = start;
    for (const [from, to] of ranges) {
      if (to <= at || from >= end) continue;
      cleaned += content.slice(at, Math.max(at, from)) + SECRET_MARK;
      at = Math.min(Math.max(at, to), end);
    }
    cleaned += content.slice(at, end);
    start = end + 1;
    return cleaned;
  });
}

/** The text of the result's text blocks, then every string of its `structuredContent`, in a fixed order. */
function stringsOf(result: InterceptedResult): string[] {
  const strings: string[] = [];
  for (const block of result.content) if (block.type === 'text' && typeof block.text === 'string') strings.push(block.text);
  collectStrings(result.structuredContent, strings);
  return strings;
}

function collectStrings(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (typeof value === 'object' && value !== null) for (const member of Object.values(value)) collectStrings(member, into);
}

/** The result again with `cleaned` in place of its strings (same order as `stringsOf`), or allow when none changed. */
function verdictFor(result: InterceptedResult, strings: readonly string[], cleaned: readonly string[]): Verdict {
  if (cleaned.every((text, i) => text === strings[i])) return ALLOW;
  let next = 0;
  const take = () => cleaned[next++];
  const content = result.content.map((block) =>
    block.type === 'text' && typeof block.text === 'string' ? { ...block, text: take() } : block,
  );
  const replaced = { ...result, content } as InterceptedResult & { structuredContent?: unknown };
  if (result.structuredContent !== undefined) replaced.structuredContent = rebuilt(result.structuredContent, take);
  return { kind: 'modify', result: replaced };
}

function rebuilt(value: unknown, take: () => string): unknown {
  if (typeof value === 'string') return take();
  if (Array.isArray(value)) return value.map((item) => rebuilt(item, take));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, rebuilt(member, take)]));
  return value;
}
