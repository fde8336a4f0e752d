import { canonicalDefinition, definitionHash } from '@toolmesh/protocol';

import { definitionDiff } from './definition-diff';

const tool = {
  name: 'lookup',
  description: 'Looks up an order',
  inputSchema: { type: 'object' as const, properties: { order: { type: 'string' } }, required: ['order'] },
  _meta: { 'x/build': 1 },
};

describe('a changed definition as diff lines', () => {
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
