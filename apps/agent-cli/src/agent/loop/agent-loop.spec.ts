import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { SideEffects, Tool, ToolResult } from '../../tools/tool';
import { ToolRegistry } from '../../tools/tool-registry';
import { FLAG_APPROVER } from '../approval/approver';
import { ChatCompletionsClient } from '../llm/chat-completions-client';
import { type Script, type ScriptedLlmServer, startScriptedLlmServer } from '../test-support/scripted-llm-server';
import { ToolExecutor } from '../tool-executor';
import { Transcript } from '../transcript/transcript';
import { toolEventEntry } from '../transcript/transcript-entry';
import { AgentLoop } from './agent-loop';

const READ_ONLY: SideEffects = { level: 'read-only', destructive: false, basis: 'declared' };

/** A tool that answers with its own name; `onRun` lets a test change the registry from inside a call. */
function tool(name: string, onRun: () => void = () => undefined): Tool {
  return {
    name,
    description: `the ${name} tool`,
    inputSchema: { type: 'object' },
    sideEffects: READ_ONLY,
    checkArguments: () => undefined,
    execute: async (): Promise<ToolResult> => {
      onRun();
      return { isError: false, content: [{ type: 'text', text: `${name} ran` }] };
    },
  };
}

let server: ScriptedLlmServer | undefined;
let client: ChatCompletionsClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
});

/** The loop over a real client, the scripted server, a registry and the executor, writing a transcript. */
async function loopWith(registry: ToolRegistry, script: Script) {
  server = await startScriptedLlmServer(script);
  client = new ChatCompletionsClient({ provider: 'openai-chat', baseUrl: server.baseUrl, model: 'm', requestTimeoutMs: 10_000 });
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'loop-unit-')), 't.jsonl');
  const transcript = new Transcript(file, () => undefined);
  const executor = new ToolExecutor(registry, { approver: FLAG_APPROVER, onEvent: (event) => transcript.record(toolEventEntry(event)) });
  const loop = new AgentLoop({ model: client, tools: registry, executor, transcript, systemPrompt: 'sys', maxTurns: 5 });
  return { loop, server, transcript, file };
}

describe('AgentLoop', () => {
  it('sends a tool with an invalid name under its provider-safe name, and runs it when the model calls that name', async () => {
    const registry = new ToolRegistry();
    const dotted = `mcp__files__${'read.text.'.repeat(8)}`;
    let ran = 0;
    registry.register(tool(dotted, () => ran++));
    const {
      loop,
      server: llm,
      transcript,
      file,
    } = await loopWith(registry, (index) =>
      index === 0
        ? { toolCalls: [{ id: 'c', name: llm.requests[0].body.tools?.[0].function.name ?? '', arguments: {} }] }
        : { text: 'done' },
    );

    expect(await loop.send('go')).toEqual({ kind: 'done', text: 'done' });
    transcript.close();

    const sent = llm.requests[0].body.tools?.[0].function.name ?? '';
    expect(sent).toMatch(/^mcp__files__read_text_[\w-]*_[0-9a-f]{8}$/);
    expect(sent.length).toBeLessThanOrEqual(64);
    expect(ran).toBe(1);
    expect(llm.requests[1].body.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c', content: `${dotted} ran` });
    const calls = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((e) => e.type === 'tool_call');
    expect(calls).toEqual([expect.objectContaining({ name: dotted })]); // the transcript speaks registry names
  });

  it('takes the tool list from the registry at the start of each turn', async () => {
    const registry = new ToolRegistry();
    registry.register(tool('Install', () => registry.register(tool('Fresh'))));
    const { loop, server: llm } = await loopWith(registry, [
      { toolCalls: [{ name: 'Install', arguments: {} }] },
      { toolCalls: [{ name: 'Fresh', arguments: {} }] },
      { text: 'ok' },
    ]);

    await loop.send('install');

    const offered = llm.requests.map((r) => r.body.tools?.map((t) => t.function.name));
    expect(offered).toEqual([['Install'], ['Fresh', 'Install'], ['Fresh', 'Install']]);
    expect(llm.requests[2].body.messages.at(-1)).toMatchObject({ role: 'tool', content: 'Fresh ran' });
  });

  it('keeps the conversation between messages, and gives each message its own max-turns budget', async () => {
    const registry = new ToolRegistry();
    registry.register(tool('Read'));
    const { loop, server: llm } = await loopWith(registry, (index) =>
      index < 5 ? { toolCalls: [{ name: 'Read', arguments: '' }] } : { text: 'hello again' },
    );

    expect(await loop.send('first')).toEqual({ kind: 'max_turns', maxTurns: 5 });
    expect(await loop.send('second')).toEqual({ kind: 'done', text: 'hello again' });
    const last = llm.requests[5].body.messages;
    expect(last[0]).toEqual({ role: 'system', content: 'sys' });
    expect(last.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['first', 'second']);
    expect(last.filter((m) => m.role === 'tool')).toHaveLength(5); // '' arguments are {} for a tool without parameters
    expect(last.filter((m) => m.role === 'tool').every((m) => m.content === 'Read ran')).toBe(true);
  });
});
