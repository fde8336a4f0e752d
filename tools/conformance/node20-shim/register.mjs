// The conformance suite's bundle imports fs.globSync (Node >= 22; only its `tier-check` command uses it).
// On Node 20 this loader hook gives the suite an `fs` with a stub globSync, and leaves everyone else alone.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
