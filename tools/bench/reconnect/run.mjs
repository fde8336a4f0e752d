#!/usr/bin/env node
// Builds reconnect-bench.ts (the agent's client manager, TypeScript) and runs it; see its header.
// Usage: node tools/bench/reconnect/run.mjs [rounds]
import '../usage.mjs';

import { runTypeScriptBench } from '../typescript-bench.mjs';

runTypeScriptBench('tools/bench/reconnect/reconnect-bench.ts', process.argv.slice(2));
