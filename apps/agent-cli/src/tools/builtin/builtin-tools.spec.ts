import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { SchemaCompiler } from '@toolmesh/protocol';
import { ExternalEventResolver } from '@toolmesh/rewake-bridge';

import { resultText, type Tool } from '../tool';
import { createBuiltinTools } from './builtin-tools';

/**
 * Architecture rules for the built-in tools (MCP tools are exempt: they advertise their server's schema
 * untouched, SPEC A1). A new built-in tool is covered as soon as createBuiltinTools returns it.
 */
const tools = createBuiltinTools({ workingDirectory: mkdtempSync(path.join(tmpdir(), 'builtin-tools-')) }, new ExternalEventResolver());

type Schema = Record<string, unknown>;

/** Every object schema in `schema`, with where it is, descending through the keywords that nest schemas. */
function objectSchemas(schema: Schema, at = '#'): Array<[string, Schema]> {
  const found: Array<[string, Schema]> = schema.type === 'object' || 'properties' in schema ? [[at, schema]] : [];
  for (const [key, value] of Object.entries(schema)) {
    if (value === null || typeof value !== 'object') continue;
    if (['properties', 'patternProperties', '$defs', 'definitions'].includes(key)) {
      for (const [name, child] of Object.entries(value as Record<string, Schema>))
        found.push(...objectSchemas(child, `${at}/${key}/${name}`));
    } else if (['items', 'additionalProperties', 'not', 'if', 'then', 'else'].includes(key) && !Array.isArray(value)) {
      found.push(...objectSchemas(value as Schema, `${at}/${key}`));
    } else if (['anyOf', 'oneOf', 'allOf', 'prefixItems'].includes(key) && Array.isArray(value)) {
      value.forEach((child, i) => found.push(...objectSchemas(child as Schema, `${at}/${key}/${i}`)));
    }
  }
  return found;
}

describe('built-in tools (architecture)', () => {
  it('are Read, Write, Edit, Glob, Grep, Bash and WaitForEvent, with the side effects the agent must assume', () => {
    const declared = Object.fromEntries(tools.map((t) => [t.name, t.sideEffects]));
    expect(declared).toEqual({
      Read: { level: 'read-only', destructive: false, basis: 'declared' },
      Write: { level: 'mutating', destructive: true, basis: 'declared' },
      Edit: { level: 'mutating', destructive: false, basis: 'declared' },
      Glob: { level: 'read-only', destructive: false, basis: 'declared' },
      Grep: { level: 'read-only', destructive: false, basis: 'declared' },
      Bash: { level: 'mutating', destructive: true, basis: 'declared' },
      WaitForEvent: { level: 'read-only', destructive: false, basis: 'declared' },
    });
  });

  describe.each(tools.map((tool) => [tool.name, tool] as [string, Tool]))('%s', (_name, tool) => {
    it('has a name that cannot collide with an MCP tool, and a description', () => {
      expect(tool.name).toMatch(/^[A-Z][A-Za-z]+$/);
      expect(tool.description.length).toBeGreaterThan(20);
    });

    it('declares a side-effect level, and is destructive only if mutating', () => {
      expect(['read-only', 'mutating']).toContain(tool.sideEffects.level);
      expect(typeof tool.sideEffects.destructive).toBe('boolean');
      if (tool.sideEffects.level === 'read-only') expect(tool.sideEffects.destructive).toBe(false);
    });

    it('has an object input schema that is closed (additionalProperties: false) at every level', () => {
      expect(tool.inputSchema.type).toBe('object');
      const open = objectSchemas(tool.inputSchema as Schema)
        .filter(([, schema]) => schema.additionalProperties !== false)
        .map(([at]) => at);
      expect(open).toEqual([]);
    });

    it('describes every property, and requires only properties it declares', () => {
      const properties = tool.inputSchema.properties as Record<string, Schema>;
      const required = (tool.inputSchema.required ?? []) as string[];
      expect(required.length).toBeGreaterThan(0);
      expect(required.filter((name) => !(name in properties))).toEqual([]);
      expect(
        Object.entries(properties)
          .filter(([, schema]) => typeof schema.description !== 'string')
          .map(([name]) => name),
      ).toEqual([]);
    });

    it('has a schema the validator compiles in strict mode and enforces, naming the required fields', () => {
      const validator = new SchemaCompiler({ strict: true }).compile(tool.inputSchema);
      const required = tool.inputSchema.required as string[];
      expect(validator.check({}, 'arguments')).toEqual({ ok: false, problems: required.map((name) => `arguments.${name} is required`) });
    });

    it('turns missing and unknown arguments into error results, without throwing', async () => {
      const missing = await tool.execute({});
      expect(missing.isError).toBe(true);
      expect(resultText(missing)).toMatch(new RegExp(`^invalid arguments for ${tool.name}: `));
      const unknown = await tool.execute({ no_such_argument: true });
      expect(unknown.isError).toBe(true);
      expect(resultText(unknown)).toContain('arguments.no_such_argument is not allowed');
    });
  });
});
