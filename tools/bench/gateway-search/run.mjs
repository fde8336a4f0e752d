#!/usr/bin/env node
// Builds search-bench.ts (search_tools against tools/list of the same 10,000-tool catalogue) and runs it;
// see its header. Needs the built gateway (npx nx build gateway). Usage: node tools/bench/gateway-search/run.mjs (ROUNDS to vary)
import '../usage.mjs';

import { runTypeScriptBench } from '../typescript-bench.mjs';

runTypeScriptBench('tools/bench/gateway-search/search-bench.ts', process.argv.slice(2));
