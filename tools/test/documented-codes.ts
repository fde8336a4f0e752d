import { readFileSync } from 'node:fs';
import path from 'node:path';

const ERRORS_DOC = path.join(__dirname, '../../docs/errors.md');

/**
 * The string codes listed in the table under one `###` heading of docs/errors.md, for the tests that
 * keep each library's error module and the documentation in agreement.
 */
export function documentedCodes(heading: string): string[] {
  const text = readFileSync(ERRORS_DOC, 'utf8');
  const start = text.indexOf(`### ${heading}`);
  if (start === -1) throw new Error(`docs/errors.md has no section "### ${heading}"`);
  const next = text.indexOf('\n#', start + 4);
  const section = text.slice(start, next === -1 ? undefined : next);
  return [...section.matchAll(/^\|\s*`([a-z_.]+)`\s*\|/gm)].map(([, code]) => code);
}
