import { AgentErrorCode } from '../errors/agent-errors';
import { parseConfig } from './load-config';

/** `era` per server (SPEC A18): auto unless set, in both formats; a value it cannot be is refused by name. */
const parse = (text: string) => parseConfig(text, 'agent-cli.yaml', {}).servers;

function refusal(text: string): { code: string; message: string } {
  try {
    parse(text);
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error('expected the configuration to be refused');
}

describe('server setting era', () => {
  it('is absent (auto) unless set, and reads each of auto, 2026-07-28 and legacy', () => {
    const servers = parse(`mcp:
  servers:
    - { name: plain, command: srv }
    - { name: probed, command: srv, era: auto }
    - { name: modern, url: "https://a.example/mcp", era: "2026-07-28" }
    - { name: old, url: "https://b.example/mcp", era: legacy }
`);
    expect(servers.map((s) => [s.name, s.era])).toEqual([
      ['plain', undefined],
      ['probed', 'auto'],
      ['modern', '2026-07-28'],
      ['old', 'legacy'],
    ]);
  });

  it('is read from an mcpServers import too', () => {
    const servers = parse(JSON.stringify({ mcpServers: { docs: { type: 'http', url: 'https://docs.example/mcp', era: 'legacy' } } }));
    expect(servers[0].era).toBe('legacy');
  });

  it('refuses a value it does not know, naming the setting and the choices', () => {
    const error = refusal('mcp:\n  servers:\n    - { name: s, command: srv, era: "2025-11-25" }\n');
    expect(error.code).toBe(AgentErrorCode.ConfigInvalid);
    expect(error.message).toMatch(/era.*one of "auto", "legacy", "2026-07-28"/);
  });

  it('refuses 2026-07-28 with the legacy sse transport, which predates it', () => {
    const error = refusal('mcp:\n  servers:\n    - { name: s, transport: sse, url: "http://127.0.0.1:3001/sse", era: "2026-07-28" }\n');
    expect(error.message).toMatch(/era.*"legacy" or "auto" with transport sse/);
  });
});
