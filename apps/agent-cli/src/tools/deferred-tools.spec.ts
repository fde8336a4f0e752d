import path from 'node:path';

import type { ScriptedLlmServer } from '../agent/test-support/scripted-llm-server';
import type { McpServerConfig, StdioServerConfig } from '../mcp/server-config';
import { type LoopOverServers, loopOverServers, toolMessage } from '../runtime/test-support/loop-over-servers';
import { syntheticServers } from '../test-support/synthetic-servers';

/**
 * Deferred tools (SPEC A21, docs/agent-cli.md "Deferred tools"): the real runtime over real stdio MCP
 * servers and the scripted model. Over the budget, the MCP tools are left out of the requests; the model
 * finds the one it needs with ToolSearch and calls it on the next turn.
 */
const EXPORT_INVOICES = 'mcp__catalogue-1__billing_export_invoice';

let session: LoopOverServers | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

/** Characters of the tool definitions in each request the model got, the measure of what deferral saves. */
function definitionChars(llm: ScriptedLlmServer): number[] {
  return llm.requests.map((request) => JSON.stringify(request.body.tools ?? []).length);
}

describe('deferred tools behind ToolSearch', () => {
  it('1,000 MCP tools on 10 servers: the model is sent none of them, finds one with ToolSearch and calls it the next turn', async () => {
    session = await loopOverServers(syntheticServers(10, 100), [
      {
        toolCalls: [{ id: 'search', name: 'ToolSearch', arguments: { query: 'export the invoices of the billing ledger as a csv file' } }],
      },
      { toolCalls: [{ id: 'export', name: EXPORT_INVOICES, arguments: { invoiceId: 'inv-7', format: 'csv' } }] },
      { text: 'exported' },
    ]);
    expect(session.runtime.tools.list().filter((tool) => tool.name.startsWith('mcp__'))).toHaveLength(1_000);

    await expect(session.loop.send('export invoice inv-7 as csv')).resolves.toEqual({ kind: 'done', text: 'exported' });

    const [first, second, third] = session.offered();
    expect(first.filter((name) => name.startsWith('mcp__'))).toEqual([]);
    expect(first).toEqual(expect.arrayContaining(['Read', 'Bash', 'ToolSearch']));
    const found = toolMessage(session.llm, 'search') ?? '';
    expect(found).toMatch(/^\d+ tool\(s\) found; their definitions are in your tool list from your next turn on:\n- /);
    const foundNames = [...found.matchAll(/^- (\S+):/gm)].map((match) => match[1]);
    expect(foundNames).toContain(EXPORT_INVOICES);
    expect(foundNames.length).toBeLessThanOrEqual(5);
    // What ToolSearch found is sent whole from the next turn on, and nothing else of the 1,000.
    expect(second.filter((name) => name.startsWith('mcp__')).sort()).toEqual([...foundNames].sort());
    expect(third).toEqual(second);
    const definition = session.llm.requests[1].body.tools?.find((tool) => tool.function.name === EXPORT_INVOICES);
    expect(definition?.function.description).toMatch(/^Exports the invoices of the billing ledger as a CSV/);
    expect(toolMessage(session.llm, 'export')).toBe('billing_export_invoice ran with {"invoiceId":"inv-7","format":"csv"}');
    // ToolSearch goes through the gate like any tool, and being read-only needs no question.
    expect(
      session
        .transcript()
        .filter((entry) => entry.type === 'approval')
        .map((entry) => [entry.name, entry.by]),
    ).toEqual([
      ['ToolSearch', 'not-needed'],
      [EXPORT_INVOICES, 'not-needed'],
    ]);
    // The definitions the model got in each request: a few kilobytes, where all 1,000 take hundreds.
    expect(Math.max(...definitionChars(session.llm))).toBeLessThan(20_000);
  }, 120_000);

  it('a server marked alwaysLoad is always sent whole; under the budget nothing is deferred and ToolSearch is not sent', async () => {
    const [big, small] = syntheticServers(2, 100);
    const servers: McpServerConfig[] = [big, { ...small, alwaysLoad: true } satisfies StdioServerConfig];
    session = await loopOverServers(servers, [{ text: 'hello' }]);
    await session.loop.send('hi');
    const [offered] = session.offered();
    expect(offered.filter((name) => name.startsWith('mcp__catalogue-1__'))).toHaveLength(100);
    expect(offered.filter((name) => name.startsWith('mcp__catalogue-0__'))).toEqual([]);
    expect(offered).toContain('ToolSearch');
    await session.close();

    session = await loopOverServers(syntheticServers(1, 5), [{ text: 'hello' }]);
    await session.loop.send('hi');
    const [few] = session.offered();
    expect(few.filter((name) => name.startsWith('mcp__'))).toHaveLength(5);
    expect(few).not.toContain('ToolSearch');
  }, 120_000);

  it('a deferred tool the model names without searching still runs, through the same gate, and is sent from then on', async () => {
    // Mutating (the server claims no read-only, and its claims are trusted): the gate asks, --yes answers.
    const createInvoice = 'mcp__catalogue-0__billing_create_invoice';
    session = await loopOverServers(syntheticServers(10, 100), [
      { toolCalls: [{ id: 'direct', name: createInvoice, arguments: { fields: 'amount=7' } }] },
      { text: 'done' },
    ]);
    await session.loop.send('create an invoice');
    expect(toolMessage(session.llm, 'direct')).toBe('billing_create_invoice ran with {"fields":"amount=7"}');
    expect(session.transcript().filter((entry) => entry.id === 'direct' && entry.type === 'approval')).toEqual([
      expect.objectContaining({ name: createInvoice, allowed: true, by: 'flag' }),
    ]);
    const [first, second] = session.offered();
    expect(first).not.toContain(createInvoice);
    expect(second.filter((name) => name.startsWith('mcp__'))).toEqual([createInvoice]);
  }, 120_000);

  it('a list_changed re-indexes: a tool a server adds while the agent runs is found by ToolSearch', async () => {
    const adder: StdioServerConfig = {
      name: 'adder',
      transport: 'stdio',
      command: process.execPath,
      args: [path.join(__dirname, '../mcp/test-support/tool-adding-server.mjs')],
      env: {},
      requestTimeoutMs: 10_000,
      annotationTrust: 'ignore',
    };
    session = await loopOverServers(
      [adder],
      [
        { toolCalls: [{ id: 'before', name: 'ToolSearch', arguments: { query: 'fresh' } }] },
        { toolCalls: [{ id: 'install', name: 'mcp__adder__install', arguments: {} }] },
        { toolCalls: [{ id: 'after', name: 'ToolSearch', arguments: { query: 'fresh' } }] },
        { toolCalls: [{ id: 'fresh', name: 'mcp__adder__fresh', arguments: {} }] },
        { text: 'done' },
      ],
      { toolDefinitionBudget: 1 },
    );
    await session.loop.send('install fresh and use it');
    expect(toolMessage(session.llm, 'before')).not.toContain('mcp__adder__fresh');
    expect(toolMessage(session.llm, 'after')).toMatch(/^- mcp__adder__fresh: A tool that was not there at first$/m);
    expect(session.offered()[3]).toContain('mcp__adder__fresh');
    expect(toolMessage(session.llm, 'fresh')).toBe('fresh ran');
  });
});
