import path from 'node:path';

import { REPO_ROOT } from '@toolmesh/test-peers/server-process';
import { writeSyntheticToolFiles } from '@toolmesh/test-peers/synthetic-tool-catalogue';

import type { StdioServerConfig } from '../mcp/server-config';

const PEER = path.join(REPO_ROOT, 'tools/test/peers/stdio-peer.mjs');

/**
 * `servers` local stdio MCP servers (tools/test/peers/stdio-peer.mjs) of `toolsEach` tools each, the
 * synthetic catalogue's first tools in order: server `catalogue-<i>` holds tools i*toolsEach onwards.
 * Each tool answers "<name> ran with <arguments>". Their annotations are trusted.
 */
export function syntheticServers(servers: number, toolsEach: number): StdioServerConfig[] {
  return writeSyntheticToolFiles(servers, toolsEach).map((file, i) => ({
    name: `catalogue-${i}`,
    transport: 'stdio',
    command: process.execPath,
    args: [PEER, `--name=catalogue-${i}`, `--tools-file=${file}`],
    env: {},
    requestTimeoutMs: 30_000,
    annotationTrust: 'trust',
  }));
}
