#!/usr/bin/env node
/**
 * Every server scenario of the official MCP conformance suites (0.1.16; 0.2.0-alpha.12 in its default mode
 * and with --spec-version 2026-07-28) against the features peer (tools/test/peers/conformance-features-server.mjs,
 * our stand-in for the suites' everything-server, which is not published) directly, and through the built
 * gateway with that peer as its one MCP server bundle, once at era `auto` and once pinned to `2025`. Prints
 * a Markdown table: scenario | suite/mode | direct | through gateway (auto) | through gateway (2025) | note.
 * For docs/gateway.md, "Conformance across the hop" (issue 44). Needs a built gateway (nx run gateway:build).
 * Not part of npm test: it runs some 450 scenarios, minutes of CI time.
 *
 *   node tools/conformance/hop-table.mjs [--gateway <main.js>] [--help]
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');
const RUNNER = path.join(HERE, 'run-conformance.js');
const PEER = path.join(ROOT, 'tools/test/peers/conformance-features-server.mjs');
const GATEWAY_READY = /event=gateway_started mcpUrl=(\S+)/;

/** The suite runs: the runner's options, the package `list` reads, and which of its scenarios apply. */
const RUNS = [
  { label: '0.1.16', options: [], suitePackage: '@modelcontextprotocol/conformance', applies: () => true },
  { label: '0.2 default', options: ['--suite', '0.2'], suitePackage: '@modelcontextprotocol/conformance-2026', applies: () => true },
  {
    label: '0.2 2026-07-28',
    options: ['--suite', '0.2', '--spec-version', '2026-07-28'],
    suitePackage: '@modelcontextprotocol/conformance-2026',
    // The suite skips a scenario of no revision it is asked for; an extension's are offered at every one.
    applies: (tags) => tags.includes('2026-07-28') || tags.includes('extension'),
  },
];

/** Where docs/gateway.md documents these limits of the hop. */
const DOCUMENTED = '[MCP servers as a tool source](#mcp-servers-as-a-tool-source)';

/**
 * Why a scenario that passes directly cannot pass through a gateway: a documented limit of the hop, or of
 * this peer behind it (never a defect: one of those is fixed, not listed). Keyed by scenario; printed on each
 * row where direct passes and a gateway fails, and "not explained" on such a row that has no entry here.
 */
const WHY_NOT_THROUGH = {
  'resources-subscribe': `the gateway offers no subscriptions (${DOCUMENTED})`,
  'resources-unsubscribe': `the gateway offers no subscriptions (${DOCUMENTED})`,
  'input-required-result-basic-elicitation':
    "pinned to 2025: the scenario wants the server's own key (`user_name`) in `inputRequests`, and a 2025 server's request " +
    "on the call's stream carries no key, so the gateway names the keys itself (the other input-required scenarios take " +
    'any key and pass)',
  'input-required-result-capability-check':
    "pinned to 2025: a 2025 server knows one declaration per session, and the gateway's session (serving every caller) " +
    'declares all three, so the server asks for elicitation and roots too; the gateway does not ask a caller what it did ' +
    `not declare and answers -32021 (${DOCUMENTED})`,
};

const HELP = `usage: node tools/conformance/hop-table.mjs [--gateway <main.js>]

Starts ${path.relative(ROOT, PEER)} and two built gateways in front of it (era auto, era 2025),
runs every server scenario of 0.1.16 and 0.2.0-alpha.12 (default mode and --spec-version 2026-07-28)
against all three with tools/conformance/run-conformance.js, and prints a Markdown table on stdout.
--gateway: the built gateway to start (default dist/apps/gateway/main.js, from nx run gateway:build;
a copy of it keeps a rebuild during the run from pulling it away). Takes several minutes.
`;

/** Starts `script` with `args`, resolving with the child and the first match of `ready` on its stdout. */
function start(script, args, ready, env = {}) {
  const child = spawn(process.execPath, [script, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => (errors += chunk));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${path.basename(script)} exited with ${code} before it was ready: ${output}${errors}`)));
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
      const match = ready.exec(output);
      if (match) {
        child.removeAllListeners('exit');
        // Drained from here on, so a chatty log never fills the pipe and stalls the process.
        child.stdout.removeAllListeners('data').resume();
        child.stderr.removeAllListeners('data').resume();
        resolve({ child, url: match[1] });
      }
    });
  });
}

/** A gateway whose one bundle is the peer, without a prefix, at `era`. */
function startGateway(gateway, peerUrl, era) {
  const dir = mkdtempSync(path.join(tmpdir(), 'hop-table-'));
  const file = path.join(dir, 'gateway.yaml');
  writeFileSync(
    file,
    `server: { port: 0, managementPort: 0 }
mcp:
  shutdownDrainMillis: 1000
  bundles:
    - { name: conformance, mcpServer: { url: "${peerUrl}", era: "${era}" } }
`,
  );
  return start(gateway, ['--config', file], GATEWAY_READY);
}

/** The suite's server scenarios and their revision tags, from its own `list --server`. */
async function scenarios(suitePackage) {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(HERE, 'conformance.mjs'), 'list', '--server'], {
    env: { ...process.env, CONFORMANCE_PACKAGE: suitePackage },
  });
  return [...stdout.matchAll(/^\s+- (\S+) \[([^\]]*)\]/gm)].map(([, name, tags]) => ({ name, tags: tags.split(',') }));
}

/** One call of the runner: every scenario at once (one process), each one's verdict. */
async function runSuite(url, names, options) {
  const { stdout } = await promisify(execFile)(process.execPath, [RUNNER, 'server', url, ...names, '--json', ...options], {
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error) => ({ stdout: error.stdout }));
  return JSON.parse(stdout);
}

const cell = (result) => (!result ? 'not run' : !result.passed ? 'FAIL' : result.warnings.length > 0 ? 'pass (warn)' : 'pass');

async function main() {
  const { values } = parseArgs({
    options: {
      help: { type: 'boolean', default: false },
      gateway: { type: 'string', default: path.join(ROOT, 'dist/apps/gateway/main.js') },
    },
  });
  if (values.help) return process.stdout.write(HELP);
  const peer = await start(PEER, [], /LISTENING (\S+)/);
  const gateways = [];
  const stop = () => {
    for (const { child } of [...gateways, peer]) child.kill('SIGTERM');
  };
  // Interrupted, it stops what it started before it goes.
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => (stop(), process.exit(1)));
  try {
    gateways.push(await startGateway(values.gateway, peer.url, 'auto'), await startGateway(values.gateway, peer.url, '2025'));
    const targets = [peer.url, ...gateways.map((gateway) => gateway.url)];
    const rows = [];
    const counts = [0, 0, 0];
    for (const run of RUNS) {
      const names = (await scenarios(run.suitePackage)).filter(({ tags }) => run.applies(tags)).map(({ name }) => name);
      process.stderr.write(`${run.label}: ${names.length} scenarios against ${targets.length} targets\n`);
      // The three targets at once: the scenarios mostly wait on the network, and the run takes a third of the time.
      const results = await Promise.all(targets.map((url) => runSuite(url, names, run.options)));
      for (const name of names) {
        const verdicts = results.map((result) => result[name]);
        verdicts.forEach((verdict, i) => (counts[i] += verdict?.passed ? 1 : 0));
        const differs = verdicts[0]?.passed && verdicts.slice(1).some((verdict) => !verdict?.passed);
        const note = differs ? (WHY_NOT_THROUGH[name] ?? 'not explained') : '';
        rows.push(`| ${name} | ${run.label} | ${verdicts.map(cell).join(' | ')} | ${note} |`);
      }
    }
    process.stdout.write(
      [
        '| scenario | suite/mode | direct | through gateway (auto) | through gateway (2025) | note |',
        '| --- | --- | --- | --- | --- | --- |',
        ...rows,
        '',
        `${rows.length} scenario runs; passed: direct ${counts[0]}, through gateway (auto) ${counts[1]}, through gateway (2025) ${counts[2]}`,
        '',
      ].join('\n'),
    );
  } finally {
    stop();
  }
}

await main();
