#!/usr/bin/env node
// CPU per federated tools/call (issue 28's goal: at most 1.25x the bare MCP-to-MCP forwarder): the built
// gateway whose one bundle is an MCP server (bench-mcp-server.mjs, both eras on one endpoint, the bundle
// pinned to each in turn) against mcp-forwarder.mjs in front of the same server, the minimal proxy's MCP
// twin, paired in the same rounds by the method of cpu-per-call.mjs (the CPU of each process from /proc
// under the same fixed rate, fresh processes every round, the order rotating). It is cpu-per-call.mjs
// --federation; every option of that script applies. Usage (after `npx nx run gateway:build`):
//   node tools/bench/gateway-federation/run.mjs [--rate 2000 --duration 5 --rounds 15 --pin --profile]
import '../usage.mjs';

import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const cpuPerCall = path.join(path.dirname(fileURLToPath(import.meta.url)), '../gateway/cpu-per-call.mjs');
execFileSync(process.execPath, [cpuPerCall, '--federation', ...process.argv.slice(2)], { stdio: 'inherit' });
