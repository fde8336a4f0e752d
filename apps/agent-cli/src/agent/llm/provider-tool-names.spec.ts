import { type SeededRandom, seededRandom } from '@toolmesh/test-peers/seeded-random';

import { mcpToolName } from '../../mcp/mcp-tool';
import { isProviderSafe, ProviderToolNames } from './provider-tool-names';

const SERVER_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789-';
const TOOL_PIECES = ['read', 'write', 'files', 'list', '.', '.', '/', ' ', 'ü', '読む', '🙂', '_', '-', 'Get', 'x'];

function serverName(random: SeededRandom): string {
  const length = 1 + random.int(random.next() < 0.2 ? 60 : 12);
  let name = random.pick([...'abcdefghijklmnopqrstuvwxyz']);
  while (name.length < length) name += random.pick([...SERVER_CHARS]);
  return name.replace(/-+$/, '') || 's';
}

function toolName(random: SeededRandom): string {
  let name = '';
  const pieces = 1 + random.int(random.next() < 0.2 ? 40 : 6);
  for (let i = 0; i < pieces; i++) name += random.pick(TOOL_PIECES);
  return name;
}

/**
 * 200 server/tool pairs as the agent names them (`mcp__<server>__<tool>`): short and valid, long, dotted,
 * unicode, and groups built to collide: equal after sanitising (`a.b` / `a b` / `a/b`) or equal in their
 * first 64 characters.
 */
function generatedNames(seed: number): string[] {
  const random = seededRandom(seed);
  const names = new Set<string>();
  const longServer = 'a-server-name-long-enough-to-fill-most-of-the-sixty-four';
  while (names.size < 200) {
    const kind = random.int(4);
    if (kind === 0) names.add(mcpToolName(serverName(random), toolName(random)));
    if (kind === 1) for (const separator of ['.', ' ', '/', '_']) names.add(mcpToolName('files', `read${separator}text`));
    if (kind === 2) names.add(mcpToolName(longServer, `${toolName(random)}_${random.int(1000)}`));
    if (kind === 3) names.add(mcpToolName(serverName(random), 'x'.repeat(70) + toolName(random)));
  }
  return [...names].slice(0, 200);
}

describe('ProviderToolNames', () => {
  it('maps 200 generated server/tool names to unique provider-safe names, and each back to its own name', () => {
    const names = generatedNames(6);
    expect(names).toHaveLength(200);
    expect(names.some((n) => n.length > 64)).toBe(true);
    expect(names.some((n) => [...n].some((c) => c.charCodeAt(0) > 0x7f))).toBe(true); // unicode
    expect(names.filter((n) => n.startsWith('mcp__files__read')).length).toBeGreaterThanOrEqual(4);

    const table = new ProviderToolNames(names);
    const providerNames = names.map((name) => table.providerName(name) as string);

    expect(providerNames.filter((n) => !isProviderSafe(n))).toEqual([]);
    expect(new Set(providerNames).size).toBe(200);
    for (const name of names) expect(table.registryName(table.providerName(name) as string)).toBe(name);
  });

  it.each([1, 2, 3, 4, 5])('holds for seed %i too', (seed) => {
    const names = generatedNames(seed);
    const table = new ProviderToolNames(names);
    const providerNames = names.map((name) => table.providerName(name) as string);
    expect(providerNames.every(isProviderSafe)).toBe(true);
    expect(new Set(providerNames).size).toBe(names.length);
    expect(names.every((name) => table.registryName(table.providerName(name) as string) === name)).toBe(true);
  });

  it('leaves valid names as they are (idempotent), also when fed its own output', () => {
    const valid = ['Read', 'Write', 'mcp__everything__echo', 'mcp__memory__read_graph', 'x'.repeat(64)];
    const table = new ProviderToolNames(valid);
    expect(valid.map((n) => table.providerName(n))).toEqual(valid);

    const names = generatedNames(7);
    const first = new ProviderToolNames(names);
    const output = names.map((n) => first.providerName(n) as string);
    const second = new ProviderToolNames(output);
    expect(output.map((n) => second.providerName(n))).toEqual(output);
  });

  it('gives the same names whatever order the tools were registered in', () => {
    const names = generatedNames(8);
    const random = seededRandom(9);
    const shuffled = [...names].sort(() => random.next() - 0.5);
    const a = new ProviderToolNames(names);
    const b = new ProviderToolNames(shuffled);
    expect(names.map((n) => b.providerName(n))).toEqual(names.map((n) => a.providerName(n)));
  });

  it('keeps a valid name even when another name sanitises to it, and hashes the other', () => {
    const table = new ProviderToolNames(['mcp__files__read.text', 'mcp__files__read_text']);
    expect(table.providerName('mcp__files__read_text')).toBe('mcp__files__read_text');
    expect(table.providerName('mcp__files__read.text')).toMatch(/^mcp__files__read_text_[0-9a-f]{8}$/);
  });

  it('sanitises a name that is merely invalid, and shortens a long one with a hash of the original', () => {
    const long = `mcp__server__${'y'.repeat(80)}`;
    const table = new ProviderToolNames(['mcp__files__read.text', long]);
    expect(table.providerName('mcp__files__read.text')).toBe('mcp__files__read_text');
    expect(table.providerName(long)).toMatch(/^mcp__server__y+_[0-9a-f]{8}$/);
    expect(table.providerName(long)).toHaveLength(64);
  });

  it('knows nothing of a name the model made up', () => {
    expect(new ProviderToolNames(['Read']).registryName('mcp__files__read')).toBeUndefined();
  });
});
