#!/usr/bin/env node
// Builds client-bench.ts (the agent's MCP layer against the SDK's client) and runs it; see its header.
// --no-warnings: the SDK's fetch transport, one of the baselines, trips Node's abort-listener warning
// thousands of times. Usage: node tools/bench/agent-cli-client/run.mjs (BENCH_SECONDS, BENCH_ROUNDS to vary)
import '../usage.mjs';

import { runTypeScriptBench } from '../typescript-bench.mjs';

runTypeScriptBench('tools/bench/agent-cli-client/client-bench.ts', process.argv.slice(2), ['--no-warnings']);
