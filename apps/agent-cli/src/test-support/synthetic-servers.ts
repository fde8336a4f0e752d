import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { syntheticTools } from '../../../../tools/test/synthetic-tool-catalogue';
import type { StdioServerConfig } from '../mcp/server-config';

const PEER = path.join(__dirname, '../../../../tools/test/peers/stdio-peer.mjs');

/**
 * `servers` local stdio MCP servers (tools/test/peers/stdio-peer.mjs) of `toolsEach` tools each, the
 * synthetic catalogue's first tools in order: server `catalogue-<i>` holds tools i*toolsEach onwards.
 * Each tool answers "<name> ran with <arguments>". Read-only claims are trusted, so no call needs a question.
 */
export function syntheticServers(servers: number, toolsEach: number): StdioServerConfig[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'synthetic-servers-'));
  const tools = syntheticTools(servers * toolsEach);
  return Array.from({ length: servers }, (_, i) => {
    const file = path.join(dir, `tools-${i}.json`);
    writeFileSync(file, JSON.stringify(tools.slice(i * toolsEach, (i + 1) * toolsEach)));
    return {
      name: `catalogue-${i}`,
      transport: 'stdio',
      command: process.execPath,
      args: [PEER, `--name=catalogue-${i}`, `--tools-file=${file}`],
      env: {},
      requestTimeoutMs: 30_000,
      annotationTrust: 'trust',
    };
  });
}
