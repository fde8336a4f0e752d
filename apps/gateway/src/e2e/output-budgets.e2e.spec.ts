import { useDocumentGateway } from '../test-support/document-gateway';

/**
 * Announced output budgets against the built gateway, as its own process, and a real tool service on
 * loopback: a reply over a tool's `maxResultChars` is cut with a notice and its figures in `_meta`, in
 * both eras; one under it goes out exactly as it would with no budget at all.
 */
const BUDGET = 100_000;
const BIG_TEXT = 'The quarterly ledger, line by line. '.repeat(Math.ceil(2_000_000 / 36)).slice(0, 2_000_000);
const BIG_ROWS = {
  rows: Array.from({ length: 20_000 }, (_, i) => ({
    id: `row-${i}`,
    amount: i * 7,
    note: 'x'.repeat(60),
  })),
};
const ROWS_SCHEMA = {
  type: 'object',
  properties: { rows: { type: 'array' } },
  required: ['rows'],
};
const META_KEY = 'io.toolmesh/outputBudget';

function manifest(budget: number | undefined) {
  const limit = budget === undefined ? {} : { maxResultChars: budget };
  return {
    revision: budget === undefined ? 'unbudgeted' : 'budgeted',
    tools: [
      {
        name: 'ledger_text',
        inputSchema: { type: 'object' },
        endpoint: '/tools/big-text',
        ...limit,
      },
      {
        name: 'ledger_rows',
        inputSchema: { type: 'object' },
        outputSchema: ROWS_SCHEMA,
        endpoint: '/tools/big-rows',
        ...limit,
      },
      {
        name: 'note_text',
        inputSchema: { type: 'object' },
        endpoint: '/tools/small-text',
        ...limit,
      },
      {
        name: 'note_rows',
        inputSchema: { type: 'object' },
        outputSchema: ROWS_SCHEMA,
        endpoint: '/tools/small-rows',
        ...limit,
      },
    ],
  };
}

type Era = 'legacy' | 'modern';
interface CallResult {
  content: Array<{ type: string; text: string }>;
  structuredContent?: unknown;
  isError: boolean;
  _meta?: Record<string, unknown>;
}

describe('announced output budgets (built gateway process, real tool service)', () => {
  const running = useDocumentGateway((service) =>
    service
      .serve('/tool-manifest', { json: manifest(BUDGET) })
      .serve('/tools/big-text', { json: { data: BIG_TEXT } })
      .serve('/tools/big-rows', { json: { data: BIG_ROWS } })
      .serve('/tools/small-text', { json: { data: 'Ledger closed: 3 open items.' } })
      .serve('/tools/small-rows', { json: { data: { rows: [{ id: 'row-1', amount: 7 }] } } }),
  );

  /** The raw body of one `tools/call` in the given era. */
  async function callRaw(era: Era, name: string): Promise<string> {
    const modern = era === 'modern';
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const res = await fetch(running().mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': modern ? '2026-07-28' : '2025-11-25',
        ...(modern && { 'mcp-method': 'tools/call', 'mcp-name': name }),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name, arguments: {}, ...(modern && { _meta: meta }) },
      }),
    });
    expect(res.status).toBe(200);
    return res.text();
  }
  const call = async (era: Era, name: string) => (JSON.parse(await callRaw(era, name)) as { result: CallResult }).result;

  it.each<Era>(['legacy', 'modern'])(
    '%s: a 2 MB text reply to a tool with a 100 KB budget arrives cut, with the notice and the figures',
    async (era) => {
      const result = await call(era, 'ledger_text');
      const cut = BIG_TEXT.length - BUDGET;
      expect(result.isError).toBe(false);
      expect(result.content).toHaveLength(1);
      expect(result.content[0].text.startsWith(BIG_TEXT.slice(0, BUDGET))).toBe(true);
      expect(result.content[0].text.slice(BUDGET)).toBe(
        `\n\n[toolmesh: cut ${cut} of ${BIG_TEXT.length} characters: the result is over this tool's output budget of ${BUDGET} characters]`,
      );
      expect(result._meta?.[META_KEY]).toEqual({
        budgetChars: BUDGET,
        originalChars: BIG_TEXT.length,
        cutChars: cut,
        structuredContentDropped: false,
      });
      if (era === 'modern') expect(result._meta?.['io.modelcontextprotocol/serverInfo']).toBeDefined();
    },
  );

  it.each<Era>(['legacy', 'modern'])(
    '%s: structuredContent that would be cut is dropped with a notice, never sent invalid',
    async (era) => {
      const result = await call(era, 'ledger_rows');
      const whole = JSON.stringify(BIG_ROWS).length;
      expect(whole).toBeGreaterThan(1_000_000);
      expect(result.structuredContent).toBeUndefined();
      // Without the structuredContent its outputSchema promises, the result is valid only as an error.
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toContain(`[toolmesh: cut ${whole - BUDGET} of ${whole} characters`);
      expect(result.content[0].text).toContain('its structuredContent was dropped');
      expect(result._meta?.[META_KEY]).toEqual({
        budgetChars: BUDGET,
        originalChars: whole,
        cutChars: whole - BUDGET,
        structuredContentDropped: true,
      });
    },
  );

  it('a reply under its budget is byte for byte what the same call gives with no budget configured, in both eras', async () => {
    const calls: Array<[Era, string]> = [
      ['legacy', 'note_text'],
      ['legacy', 'note_rows'],
      ['modern', 'note_text'],
      ['modern', 'note_rows'],
    ];
    // The call's duration is the one part of a result that may differ between two calls.
    const bodies = async () =>
      Promise.all(calls.map(async ([era, name]) => (await callRaw(era, name)).replace(/"searchTime":\d+/, '"searchTime":0')));
    const budgeted = await bodies();
    expect(budgeted.every((body) => !body.includes(META_KEY) && !body.includes('[toolmesh: cut'))).toBe(true);

    running().service.serve('/tool-manifest', { json: manifest(undefined) });
    const refresh = await fetch(`${running().managementUrl}/actuator/toolBundles/sample/refresh`, { method: 'POST' });
    expect(((await refresh.json()) as { manifestRevision?: string }).manifestRevision).toBe('unbudgeted');
    expect(await bodies()).toEqual(budgeted);
    // And the big reply, unbudgeted now, passes whole: the cut above was the budget's doing.
    expect((await call('legacy', 'ledger_text')).content[0].text).toBe(BIG_TEXT);
  });
});
