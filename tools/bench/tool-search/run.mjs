#!/usr/bin/env node
// Builds deferral-bench.ts (tokens of tool definitions per turn with deferred tools against without) and
// runs it; see its header. Usage: node tools/bench/tool-search/run.mjs
import '../usage.mjs';

import { runTypeScriptBench } from '../typescript-bench.mjs';

runTypeScriptBench('tools/bench/tool-search/deferral-bench.ts', process.argv.slice(2));
