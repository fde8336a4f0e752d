import { definitionDiff } from './definition-diff';
import { canonicalDefinition, definitionHash } from './tool-definition';

const tool = {
  name: 'lookup',
  description: 'Looks up an order',
  inputSchema: { type: 'object' as const, properties: { order: { type: 'string' } }, required: ['order'] },
  _meta: { 'x/build': 1 },
};

describe('canonical tool definitions', () => {
  it('hashes the same definition the same whatever its key order, and leaves _meta out', () => {
    const reordered = {
      _meta: { 'x/build': 2 },
      inputSchema: { required: ['order'], properties: { order: { type: 'string' } }, type: 'object' as const },
      description: 'Looks up an order',
      name: 'lookup',
    };
    expect(definitionHash(canonicalDefinition(reordered))).toBe(definitionHash(canonicalDefinition(tool)));
  });

  it('counts a description, a schema or an annotation as a change, and shows each as a diff line', () => {
    const pinned = canonicalDefinition(tool);
    const changed = canonicalDefinition({
      ...tool,
      description: 'Looks up an order\u001b[2J',
      inputSchema: { ...tool.inputSchema, properties: { order: { type: 'number' }, mode: { type: 'string' } } },
      annotations: { readOnlyHint: true },
    });
    expect(definitionHash(changed)).not.toBe(definitionHash(pinned));
    expect(definitionDiff(pinned, changed)).toEqual([
      '  description: "Looks up an order" -> "Looks up an order\\u001b[2J"',
      '  inputSchema.properties.order.type: "string" -> "number"',
      '+ annotations.readOnlyHint: true',
      '+ inputSchema.properties.mode.type: "string"',
    ]);
  });
});
