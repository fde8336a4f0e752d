import path from 'node:path';

import { type LoopOverServers, loopOverServers, toolMessage } from '../runtime/test-support/loop-over-servers';
import type { StdioServerConfig } from './server-config';

const SERVER = path.join(__dirname, 'test-support/tool-adding-server.mjs');
const config: StdioServerConfig = {
  name: 'adder',
  transport: 'stdio',
  command: process.execPath,
  args: [SERVER],
  env: {},
  requestTimeoutMs: 10_000,
  annotationTrust: 'ignore',
};

let session: LoopOverServers | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

describe('live tool lists (SPEC A12)', () => {
  it('applies a list_changed at the next turn: the running turn keeps the old list, the next one offers and calls the new tool', async () => {
    session = await loopOverServers(
      [config],
      [
        // One turn: install (the server adds "fresh" and says so), then "fresh" in the same reply.
        {
          toolCalls: [
            { id: 'install', name: 'mcp__adder__install', arguments: {} },
            { id: 'too-early', name: 'mcp__adder__fresh', arguments: {} },
          ],
        },
        { toolCalls: [{ id: 'next-turn', name: 'mcp__adder__fresh', arguments: {} }] },
        { text: 'done' },
      ],
    );

    await session.loop.send('install fresh and use it');

    const [first, second] = session.offered();
    expect(first.filter((name) => name.startsWith('mcp__adder__'))).toEqual(['mcp__adder__install']);
    expect(toolMessage(session.llm, 'install')).toBe('installed fresh');
    expect(toolMessage(session.llm, 'too-early')).toMatch(/^Error: there is no tool named "mcp__adder__fresh"/);
    expect(second.filter((name) => name.startsWith('mcp__adder__'))).toEqual(['mcp__adder__fresh', 'mcp__adder__install']);
    expect(toolMessage(session.llm, 'next-turn')).toBe('fresh ran');
    expect(session.runtime.mcp.status[0].toolCount).toBe(2);
  });
});
