import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ANNOTATION_TRUST } from '../mcp/annotation-trust';
import { LLM_KEYS } from './llm-config';
import { SERVER_KEYS } from './load-config';
import { REWAKE_KEYS, REWAKE_RULE_KEYS } from './rewake-config';

const doc = readFileSync(path.join(__dirname, '../../../../docs/agent-cli.md'), 'utf8');

describe('docs/agent-cli.md', () => {
  it('documents every setting of a server entry', () => {
    for (const key of SERVER_KEYS) expect({ key, documented: doc.includes(`\`${key}\``) }).toEqual({ key, documented: true });
  });

  it('documents every annotationTrust level in the Trust table', () => {
    for (const level of ANNOTATION_TRUST)
      expect({ level, documented: new RegExp(`^\\| \`${level}\`( \\(default\\))? \\|`, 'm').test(doc) }).toEqual({
        level,
        documented: true,
      });
  });

  it('documents every rewake setting', () => {
    const keys = [...REWAKE_KEYS.map((key) => `rewake.${key}`), ...REWAKE_RULE_KEYS.map((key) => `rewake.rules[].${key}`)];
    for (const key of keys) expect({ key, documented: doc.includes(`| \`${key}\``) }).toEqual({ key, documented: true });
  });

  it('documents every llm setting', () => {
    for (const key of LLM_KEYS) expect({ key, documented: doc.includes(`| \`llm.${key}\``) }).toEqual({ key, documented: true });
  });
});
