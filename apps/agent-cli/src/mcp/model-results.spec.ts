import { EVERYTHING_SCRIPT } from '@toolmesh/test-peers/mcp-servers';

import { type LoopOverServers, loopOverServers, toolMessage } from '../runtime/test-support/loop-over-servers';
import type { StdioServerConfig } from './server-config';

const everything: StdioServerConfig = {
  name: 'everything',
  transport: 'stdio',
  command: process.execPath,
  args: [EVERYTHING_SCRIPT, 'stdio'],
  env: {},
  requestTimeoutMs: 20_000,
  annotationTrust: 'ignore',
};

let session: LoopOverServers | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

describe('results the model can use (SPEC A17), from server-everything', () => {
  it('passes an image result to the model as an image_url content part, and says so in the tool message', async () => {
    session = await loopOverServers(
      [everything],
      [{ toolCalls: [{ id: 'img', name: 'mcp__everything__get-tiny-image', arguments: {} }] }, { text: 'a tiny image' }],
    );
    await session.loop.send('show me the image');

    const messages = session.llm.requests[1].body.messages;
    expect(toolMessage(session.llm, 'img')).toMatch(/\[image image\/png, \d+ bytes\] \(attached\)/);
    const media = messages.at(-1) as { role: string; content: Array<{ type: string; text?: string; image_url?: { url: string } }> };
    expect(media.role).toBe('user');
    expect(media.content[0]).toEqual({ type: 'text', text: 'Returned by tool call img:' });
    expect(media.content[1].type).toBe('image_url');
    expect(media.content[1].image_url?.url).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    expect(messages.filter((m) => m.role === 'tool')).toHaveLength(1); // the tool message itself stays text
  });

  it('keeps the URIs of resource links and the text of embedded resources', async () => {
    session = await loopOverServers(
      [everything],
      [
        {
          toolCalls: [
            { id: 'links', name: 'mcp__everything__get-resource-links', arguments: { count: 2 } },
            { id: 'embedded', name: 'mcp__everything__get-resource-reference', arguments: { resourceType: 'Text', resourceId: 1 } },
          ],
        },
        { text: 'read them' },
      ],
    );
    await session.loop.send('links and a resource');

    expect(toolMessage(session.llm, 'links')).toMatch(/\[resource link: [^\]]* <demo:\/\/resource\/[^>]+> text\/plain\]/);
    expect(toolMessage(session.llm, 'embedded')).toMatch(/\[resource <demo:\/\/resource\/[^>]+> text\/plain\]\n\S+/);
    expect(toolMessage(session.llm, 'embedded')).not.toContain('[resource content]');
  });

  it('cuts a result over llm.maxToolResultChars and says how much was cut', async () => {
    session = await loopOverServers(
      [everything],
      [{ toolCalls: [{ id: 'long', name: 'mcp__everything__echo', arguments: { message: 'x'.repeat(5000) } }] }, { text: 'ok' }],
      {
        resultLimits: { maxChars: 1000, audio: false },
      },
    );
    await session.loop.send('echo a lot');

    const text = toolMessage(session.llm, 'long') ?? '';
    expect(text.startsWith(`Echo: ${'x'.repeat(994)}\n`)).toBe(true);
    expect(text).toMatch(/\n\[cut: 4006 of 5006 characters not shown; llm\.maxToolResultChars is 1000\]$/);
  });
});
