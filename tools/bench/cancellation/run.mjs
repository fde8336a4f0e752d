#!/usr/bin/env node
// Builds cancellation-bench.ts (a forwarded call's cancellation: Node's AbortController against our
// Cancellation, ns per call and the collections each causes) and runs it; see its header.
// Usage: node tools/bench/cancellation/run.mjs
import '../usage.mjs';

import { runTypeScriptBench } from '../typescript-bench.mjs';

runTypeScriptBench('tools/bench/cancellation/cancellation-bench.ts', process.argv.slice(2));
