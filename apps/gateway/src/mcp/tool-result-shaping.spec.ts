import type { ToolDefinition } from '@toolmesh/registry';

import { toolResult } from '../execution/result-mapper';
import { OUTPUT_BUDGET_META_KEY, toolResultShaper } from './tool-result-shaping';

/** A tool, as far as the shaper reads it. */
function toolOf(tool: Partial<ToolDefinition> & { name: string }): ToolDefinition {
  return { target: { kind: 'service' }, ...tool } as ToolDefinition;
}

const wrapped = {
  validator: undefined,
  wrapsForLegacy: true,
} as unknown as ToolDefinition['output'];

describe('toolResultShaper', () => {
  it('passes a result under its budget on as the very same object, in both eras', () => {
    const result = toolResult('short', false, 3);
    for (const era of ['legacy', 'modern'] as const) {
      expect(toolResultShaper(era, 2)(toolOf({ name: 't', maxResultChars: 5 }), result)).toBe(result);
    }
  });

  it("uses the operator's default for a tool whose manifest names no budget, the manifest's over it", () => {
    const result = toolResult('0123456789', false, 3);
    const shape = toolResultShaper('modern', 4);
    expect(shape(toolOf({ name: 'plain' }), result)).toMatchObject({
      content: [
        {
          text: expect.stringMatching(/^0123\n\n\[toolmesh: cut 6 of 10 characters/),
        },
      ],
      _meta: { [OUTPUT_BUDGET_META_KEY]: { budgetChars: 4, cutChars: 6 } },
    });
    expect(shape(toolOf({ name: 'roomy', maxResultChars: 20 }), result)).toBe(result);
    expect(toolResultShaper('modern', undefined)(toolOf({ name: 'plain' }), result)).toBe(result);
  });

  it("never splits a surrogate pair, and keeps the content block's own _meta", () => {
    const result = toolResult('ab😀cd', false, 3);
    const shaped = toolResultShaper('legacy', undefined)(toolOf({ name: 't', maxResultChars: 3 }), result) as typeof result;
    expect(shaped.content[0].text.startsWith('ab\n\n[toolmesh: cut 4 of 6 characters')).toBe(true);
    expect(shaped.content[0]._meta).toEqual({ searchTime: 3 });
  });

  it('wraps a non-object structuredContent for 2025 clients only, and not once it was dropped', () => {
    const result = {
      ...toolResult('["a"]', false, 1),
      structuredContent: ['a'],
    };
    const tags = toolOf({ name: 'tags', output: wrapped });
    const small = toolOf({ name: 'small', output: wrapped, maxResultChars: 2 });
    expect(toolResultShaper('legacy', undefined)(tags, result)).toMatchObject({ structuredContent: { result: ['a'] } });
    expect(toolResultShaper('modern', undefined)(tags, result)).toBe(result);
    const cut = toolResultShaper('legacy', undefined)(small, result);
    expect(cut).not.toHaveProperty('structuredContent');
    expect(cut).toMatchObject({
      isError: true,
      _meta: { [OUTPUT_BUDGET_META_KEY]: { structuredContentDropped: true } },
    });
  });

  describe("an MCP server's forwarded result (issue 28)", () => {
    const image = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' };
    const forwarded = {
      content: [{ type: 'text', text: '0123' }, image, { type: 'text', text: '456789' }],
      structuredContent: { n: 1 },
      _meta: { 'example.com/upstream': true },
    };
    const upstreamTool = (maxResultChars?: number) =>
      toolOf({ name: 'ev_echo', target: { kind: 'mcp', upstreamTool: 'echo' }, ...(maxResultChars && { maxResultChars }) });

    it('passes on as the very same object while its text blocks together fit the budget', () => {
      expect(toolResultShaper('modern', 10)(upstreamTool(), forwarded)).toBe(forwarded);
    });

    it('cuts the text blocks in order, keeps every other block, and says so in a block of its own', () => {
      const cut = toolResultShaper('modern', 6)(upstreamTool(), forwarded);
      expect(cut).toEqual({
        content: [
          { type: 'text', text: '0123' },
          image,
          { type: 'text', text: '45' },
          { type: 'text', text: expect.stringMatching(/^\[toolmesh: cut 4 of 10 characters.*structuredContent was dropped/) },
        ],
        isError: true,
        _meta: {
          'example.com/upstream': true,
          [OUTPUT_BUDGET_META_KEY]: { budgetChars: 6, originalChars: 10, cutChars: 4, structuredContentDropped: true },
        },
      });
    });
  });
});
