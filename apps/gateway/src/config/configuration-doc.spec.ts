import { readFileSync } from 'node:fs';
import path from 'node:path';

import { configSchema } from './config-schema';
import { ENV_OVERRIDES } from './load-config';

const doc = readFileSync(path.join(__dirname, '../../../../docs/configuration.md'), 'utf8');

/** Every leaf key of the schema, as `a.b.c` (array items as `a[].b`). */
function keys(schema: Record<string, unknown>, prefix = ''): string[] {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(properties).flatMap(([name, child]) => {
    const key = `${prefix}${name}`;
    if (child.type === 'object' && child.properties && !['serverInfo'].includes(name)) return keys(child, `${key}.`);
    if (child.type === 'array' && (child.items as Record<string, unknown>)?.properties)
      return keys(child.items as Record<string, unknown>, `${key}[].`);
    return [key];
  });
}

describe('docs/configuration.md', () => {
  it('documents every configuration key', () => {
    for (const key of keys(configSchema as unknown as Record<string, unknown>))
      expect({ key, documented: doc.includes(`| \`${key}\``) }).toEqual({ key, documented: true });
  });

  it('documents every environment variable', () => {
    for (const [variable, target] of ENV_OVERRIDES) expect(doc).toContain(`| \`${variable}\` | \`${target}\``);
  });
});
