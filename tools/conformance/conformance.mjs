#!/usr/bin/env node
/**
 * Runs the locally installed official MCP conformance suite (node_modules/@modelcontextprotocol/conformance)
 * with the arguments given, e.g.
 *   node tools/conformance/conformance.mjs client --command "node dist/apps/agent-cli/conformance-client.js" --scenario initialize
 *
 * On Node < 22 it first installs a loader hook: the suite's bundle imports `globSync` from 'fs', which
 * Node 20 lacks (only its `tier-check` command uses it), so its 'fs' import is redirected to a module
 * that adds a stub. Nothing else changes.
 */
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';

if (Number(process.versions.node.split('.')[0]) < 22) register('./node20-fs-hooks.mjs', import.meta.url);

const require = createRequire(import.meta.url);
// CONFORMANCE_PACKAGE picks the 0.2 alpha, installed under an alias beside 0.1.16.
const suitePackage = process.env.CONFORMANCE_PACKAGE ?? '@modelcontextprotocol/conformance';
const suite = require.resolve(`${suitePackage}/package.json`).replace(/package\.json$/, 'dist/index.js');
await import(pathToFileURL(suite).href);
