import { type SeededRandom, seededRandom } from '@toolmesh/test-peers/seeded-random';

import { AgentError, AgentErrorCode } from '../../errors/agent-errors';
import { readCompletion } from './completion-reader';

const SSE = 'text/event-stream';

function chunk(delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> {
  return { id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] };
}

/** A stream as OpenAI sends it: text in pieces, two tool calls whose arguments arrive in fragments. */
const STREAM_CHUNKS = [
  chunk({ role: 'assistant', content: '' }),
  chunk({ content: 'Let me ' }),
  chunk({ content: 'look.' }),
  chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'Read', arguments: '' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"a.txt"}' } }] }),
  chunk({
    tool_calls: [
      { index: 1, id: 'call_b', type: 'function', function: { name: 'mcp__everything__echo', arguments: '{"message":"hé 🙂"}' } },
    ],
  }),
  chunk({}, 'tool_calls'),
];
const STREAM = `${STREAM_CHUNKS.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
const EXPECTED = {
  text: 'Let me look.',
  toolCalls: [
    { id: 'call_a', name: 'Read', arguments: '{"path":"a.txt"}' },
    { id: 'call_b', name: 'mcp__everything__echo', arguments: '{"message":"hé 🙂"}' },
  ],
  finishReason: 'tool_calls',
};

/** The bytes cut at random places, also inside a multi-byte character or a `\r\n`. */
function randomPieces(bytes: Buffer, random: SeededRandom): Buffer[] {
  const pieces: Buffer[] = [];
  for (let i = 0; i < bytes.length;) {
    const size = 1 + random.int(40);
    pieces.push(bytes.subarray(i, i + size));
    i += size;
  }
  return pieces;
}

describe('readCompletion', () => {
  it('assembles text and tool calls by index from a stream, handing on each text piece as it comes', async () => {
    const texts: string[] = [];
    expect(await readCompletion([Buffer.from(STREAM)], SSE, (t) => texts.push(t))).toEqual(EXPECTED);
    expect(texts).toEqual(['Let me ', 'look.']);
  });

  it('gives the same reply however the stream is cut into pieces (seeded)', async () => {
    const random = seededRandom(61);
    const variants = [Buffer.from(STREAM), Buffer.from(STREAM.replace(/\n/g, '\r\n'))];
    for (let round = 0; round < 100; round++) {
      expect(await readCompletion(randomPieces(variants[round % 2], random), SSE)).toEqual(EXPECTED);
    }
  });

  it('takes a whole JSON completion from a server that ignores stream: true, and a stream sent as another type', async () => {
    const whole = {
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'hi',
            tool_calls: [{ id: 'x', type: 'function', function: { name: 'Read', arguments: { path: 'a' } } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
    };
    const texts: string[] = [];
    expect(await readCompletion([Buffer.from(JSON.stringify(whole))], 'application/json', (t) => texts.push(t))).toEqual({
      text: 'hi',
      toolCalls: [{ id: 'x', name: 'Read', arguments: '{"path":"a"}' }],
      finishReason: 'tool_calls',
    });
    expect(texts).toEqual(['hi']);
    expect(await readCompletion([Buffer.from(STREAM)], 'text/plain')).toEqual(EXPECTED);
  });

  it('takes tool calls sent whole without an index, and gives a call without an id one', async () => {
    const stream = `data: ${JSON.stringify(chunk({ tool_calls: [{ function: { name: 'Read', arguments: '{}' } }, { function: { name: 'Glob', arguments: '{}' } }] }, 'tool_calls'))}\n\n`;
    expect((await readCompletion([Buffer.from(stream)], SSE)).toolCalls).toEqual([
      { id: 'call_0', name: 'Read', arguments: '{}' },
      { id: 'call_1', name: 'Glob', arguments: '{}' },
    ]);
  });

  it.each([
    ['a chunk that is not JSON', 'data: {"choices": [\n\n', 'a stream chunk is not valid JSON'],
    ['a chunk that is not an object', 'data: 42\n\n', 'a stream chunk is not a JSON object'],
    ['choices that are not a list', 'data: {"choices": {}}\n\n', '"choices" of a stream chunk is not a list'],
    ['content that is not text', `data: ${JSON.stringify(chunk({ content: 7 }))}\n\n`, '"delta.content" is not a string'],
    [
      'a tool call without a name',
      `data: ${JSON.stringify(chunk({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] }, 'tool_calls'))}\n\n`,
      'tool call 0 has no function name',
    ],
    ['a chunk over 16 MiB', `data: ${'x'.repeat(16 * 1024 * 1024)}\n\n`, 'a stream chunk is larger than 16777216 bytes'],
    ['a stream cut short', `data: ${JSON.stringify(chunk({ content: 'half' }))}\n\n`, 'the stream ended without a finish reason or [DONE]'],
  ])('rejects %s as llm.malformed_response, saying what is wrong', async (_, stream, problem) => {
    await expect(readCompletion([Buffer.from(stream)], SSE)).rejects.toMatchObject({
      code: AgentErrorCode.LlmMalformedResponse,
      message: expect.stringContaining(problem),
    });
  });

  it("reports an error object inside the stream as the provider's error", async () => {
    await expect(readCompletion([Buffer.from('data: {"error":{"message":"model overloaded"}}\n\n')], SSE)).rejects.toMatchObject({
      code: AgentErrorCode.LlmRequestFailed,
      message: 'the LLM server reported an error: model overloaded',
    });
  });

  it('fuzz: a stream with random damage gives a reply or a coded LLM error, never anything else (seeded)', async () => {
    const random = seededRandom(62);
    const lines = STREAM.split('\n');
    const damages = [
      (s: string) => s.slice(0, random.int(s.length)),
      (s: string) =>
        s.slice(0, random.int(s.length)) +
        random.pick(['{', '}', '"', ':', 'null', '[', '\u0000', '🙂', '\n', '\r']) +
        s.slice(random.int(s.length)),
      (s: string) =>
        s.replace(
          /"(content|arguments|name|index|id|choices|delta|tool_calls|function)":/,
          `"$1":${random.pick(['null', '1', '[]', '{}', '"x"', 'true'])},"_":`,
        ),
      () => random.pick(['data: ', 'data:', 'data: [DONE', 'data: {}', 'data: {"choices":null}', ':', 'retry: 1']),
    ];
    const outcomes = { reply: 0, error: 0 };
    for (let round = 0; round < 300; round++) {
      const damaged = [...lines];
      for (let n = 1 + random.int(3); n > 0; n--) {
        const at = random.int(damaged.length);
        damaged[at] = random.pick(damages)(damaged[at]);
      }
      try {
        const reply = await readCompletion(randomPieces(Buffer.from(damaged.join('\n')), random), SSE);
        expect(typeof reply.text).toBe('string');
        for (const call of reply.toolCalls) expect(call.name.length).toBeGreaterThan(0);
        outcomes.reply++;
      } catch (error) {
        expect(error).toBeInstanceOf(AgentError);
        expect([AgentErrorCode.LlmMalformedResponse, AgentErrorCode.LlmRequestFailed]).toContain((error as AgentError).code);
        outcomes.error++;
      }
    }
    expect(outcomes.reply).toBeGreaterThan(0);
    expect(outcomes.error).toBeGreaterThan(0);
  });
});
