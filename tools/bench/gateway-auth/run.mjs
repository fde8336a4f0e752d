#!/usr/bin/env node
// CPU per call of the gateway with OAuth (`auth`) and rate limits on, against the same build with them off
// and the minimal proxy, paired in the same rounds (issue 26's goal: at most 1.15x the gateway without
// them, at most 1.25x the minimal proxy). It is cpu-per-call.mjs --compare-auth; every option of that
// script applies. Usage (after `npx nx run gateway:build`):
//   node tools/bench/gateway-auth/run.mjs [--rate 2000 --duration 5 --rounds 15]
import '../usage.mjs';

import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const cpuPerCall = path.join(path.dirname(fileURLToPath(import.meta.url)), '../gateway/cpu-per-call.mjs');
execFileSync(process.execPath, [cpuPerCall, '--compare-auth', ...process.argv.slice(2)], { stdio: 'inherit' });
