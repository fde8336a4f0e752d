import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { federatingGatewayConfig, spawnGateway } from '@toolmesh/test-peers/gateway-process';
import { type HttpPeer, startHttpPeer } from '@toolmesh/test-peers/peers/http-peer';
import type { ServerProcess } from '@toolmesh/test-peers/server-process';

import { type ScriptedLlmServer, type ScriptedReply, startScriptedLlmServer } from '../agent/test-support/scripted-llm-server';
import { runBuiltCli } from '../test-support/built-cli';

/**
 * An MCP server's `tools/list_changed` reaches the agent CLI through the front gateway (issue 28, SPEC
 * A12), in both eras: `agent-cli run` (built) is connected to a gateway that federates the SDK peer (2025,
 * its GET stream) under `sdk_`, and the peer gains a tool while the agent runs. The scripted model asks
 * for a cheap call (`sdk_echo`) each turn until it is offered the new tool, then calls it. The front's
 * catalogue TTL is an hour and the agent never reconnects: only the notification, passed on by the
 * gateway (its `subscriptions/listen` at 2026-07-28, its GET stream at 2025), can bring the tool. The
 * time from the request that makes the change to the first turn that offers the tool is written to the
 * test's output (the goal is 1 s; it bounds the notification's time from above by about one
 * turn, 100 ms); it is never asserted.
 */
const ECHO = 'mcp__gw__sdk_echo';

describe('agent-cli hears a federated server add a tool, through the gateway (issue 28)', () => {
  let peer: HttpPeer;
  let front: ServerProcess & { match: RegExpExecArray };
  let llm: ScriptedLlmServer | undefined;

  beforeAll(async () => {
    peer = await startHttpPeer();
    const file = federatingGatewayConfig(['{ name: sdk, namePrefix: sdk_, mcpServer: { url: "${SDK_URL}", era: "2025" } }']);
    front = await spawnGateway(file, { SDK_URL: peer.url });
  }, 120_000);
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
  });
  afterAll(async () => {
    await front?.stop();
    await peer?.stop();
  });

  it.each([
    ['auto', 'added_in_auto'],
    ['legacy', 'added_in_legacy'],
  ] as const)(
    'era %s: a tool the server adds during a run is offered to the model at a later turn, and called',
    async (era, tool) => {
      const added = `mcp__gw__sdk_${tool}`;
      let change: Promise<Response> | undefined;
      let changedAt: number | undefined;
      let offeredAt: number | undefined;
      const offered = (index: number) => (llm?.requests[index].body.tools ?? []).map((offer) => offer.function.name);
      const poll: ScriptedReply = { toolCalls: [{ name: ECHO, arguments: { text: 'still waiting' } }], delayMs: 100 };
      llm = await startScriptedLlmServer((index) => {
        if (index === 0) {
          // The agent is connected and listening by its first turn: the server changes now.
          changedAt = Date.now();
          change = fetch(new URL(`/__tools?name=${tool}`, peer.url), { method: 'POST' });
          return poll;
        }
        if (offeredAt !== undefined) return { text: 'done' };
        if (!offered(index).includes(added)) return poll;
        offeredAt = Date.now();
        return { toolCalls: [{ id: 'added', name: added, arguments: {} }] };
      });
      const dir = mkdtempSync(path.join(tmpdir(), 'agent-federation-changes-'));
      writeFileSync(
        path.join(dir, 'agent-cli.yaml'),
        `llm: { baseUrl: ${llm.baseUrl}, model: scripted-model }\nmcp:\n  servers:\n    - name: gw\n      url: ${front.match[1]}\n      era: "${era}"\n`,
      );

      // Up to 300 turns of about 100 ms: the notification has half a minute, whatever the machine's load.
      const run = await runBuiltCli(['run', 'use the new tool once it is there', '--yes', '--max-turns', '300'], {
        cwd: dir,
        env: { PATH: process.env.PATH },
      });

      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
      expect((await change)?.status).toBe(204);
      expect(offered(0)).toContain(ECHO);
      expect(offered(0)).not.toContain(added);
      expect(offeredAt).toBeDefined();
      const answered = llm.requests.at(-1)?.body.messages.find((message) => message.tool_call_id === 'added');
      expect(answered?.content).toBe(`${tool} called`);
      process.stdout.write(
        `era ${era}: the added tool offered to the model ${(offeredAt ?? 0) - (changedAt ?? 0)} ms after the server's change (turn ${llm.requests.length - 2})\n`,
      );
    },
    120_000,
  );
});
