#!/usr/bin/env node
/**
 * The measured comparison behind ADR 0012: which linear-time (RE2-semantics) engine runs JSON Schema
 * `pattern`s for our validator. Candidates are not dependencies of the repo, so install them beside it:
 *
 *   npm install --prefix /tmp/re2cmp re2js@2.10.0 re2-wasm@1.0.2 re2@1.27.1
 *   node tools/bench/regexp-engines/compare.mjs /tmp/re2cmp/node_modules
 *
 * Every figure is a ratio to V8's own RegExp measured in the same run (the machine is shared and noisy).
 * The hostile case is measured on the RE2 engines only: on V8 it is exponential (n = 30 runs for minutes).
 */
import { createRequire } from 'node:module';
import path from 'node:path';

import { smokeRan } from '../smoke.mjs';

const modules = path.resolve(process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 'node_modules');
const require = createRequire(path.join(modules, 'noop.js'));

function load(name, factory) {
  try {
    return { name, compile: factory(require(name)) };
  } catch (error) {
    return { name, missing: error.message.split('\n')[0] };
  }
}

const engines = [
  { name: 'V8 RegExp (baseline)', compile: (source) => new RegExp(source, 'u') },
  load(
    're2js',
    ({ RE2JS }) =>
      (source) =>
        RE2JS.compile(RE2JS.translateRegExp(source)),
  ),
  load(
    're2-wasm',
    ({ RE2 }) =>
      (source) =>
        new RE2(source, 'u'),
  ),
  load('re2', (RE2) => (source) => new RE2(source, 'u')),
];

// Patterns seen in tool schemas: ids, dates, emails, enumerations, free-form guards.
const typical = [
  ['^C[0-9]{4}$', ['C1001', 'C12', 'X1001']],
  ['^\\d{4}-\\d{2}-\\d{2}$', ['2026-12-01', '2026-1-1']],
  ['^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$', ['someone@example.com', 'not an email']],
  ['^(open|closed|pending)$', ['open', 'archived']],
  ['^[\\w .,-]{1,200}$', ['A plain search phrase, with punctuation.', 'x'.repeat(201)]],
];
const hostile = { source: '^(a+)+$', input: `${'a'.repeat(30)}!` };
const refused = ['(a)\\1', '(?=a)a', '(?<=a)b'];

function timeNs(fn, minMillis = 200) {
  let iterations = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0n;
  while (elapsed < BigInt(minMillis) * 1_000_000n) {
    for (let i = 0; i < 100; i++) fn();
    iterations += 100;
    elapsed = process.hrtime.bigint() - start;
  }
  return Number(elapsed) / iterations;
}

const rows = [];
let baseline;
for (const engine of engines) {
  if (engine.missing) {
    rows.push({ engine: engine.name, note: `not installed: ${engine.missing}` });
    continue;
  }
  const compileNs = timeNs(() => typical.forEach(([source]) => engine.compile(source)));
  const compiled = typical.map(([source, inputs]) => [engine.compile(source), inputs]);
  const testNs = timeNs(() => compiled.forEach(([rx, inputs]) => inputs.forEach((input) => rx.test(input))));
  const agree = typical.every(([source, inputs], i) =>
    inputs.every((input) => compiled[i][0].test(input) === new RegExp(source, 'u').test(input)),
  );
  const row = { engine: engine.name, compileNs, testNs, agree };
  if (!baseline) baseline = row;
  else {
    const rx = engine.compile(hostile.source);
    const t0 = process.hrtime.bigint();
    const matched = rx.test(hostile.input);
    row.hostileMs = Number(process.hrtime.bigint() - t0) / 1e6;
    row.hostileMatched = matched;
    row.refuses = refused.filter((source) => {
      try {
        engine.compile(source);
        return false;
      } catch {
        return true;
      }
    }).length;
  }
  rows.push(row);
}

console.log(
  `| engine | compile 5 patterns (x V8) | 11 tests (x V8) | agrees with V8 | ^(a+)+$ on 30 a + "!" | refuses ${refused.join(' ')} |`,
);
console.log('|---|---|---|---|---|---|');
for (const row of rows) {
  if (row.note) {
    console.log(`| ${row.engine} | ${row.note} | | | | |`);
    continue;
  }
  const ratio = (value, base) => `${(value / base).toFixed(1)}x (${(value / 1000).toFixed(2)} us)`;
  console.log(
    `| ${row.engine} | ${ratio(row.compileNs, baseline.compileNs)} | ${ratio(row.testNs, baseline.testNs)} | ${row.agree ? 'yes' : 'NO'} | ${
      row.hostileMs === undefined ? 'exponential (not run)' : `${row.hostileMs.toFixed(2)} ms, ${row.hostileMatched ? 'match' : 'no match'}`
    } | ${row.refuses === undefined ? '-' : `${row.refuses} of ${refused.length}`} |`,
  );
}

// What the choice costs a tools/call: one argument check of the sample's customer_lookup schema (a pattern
// and an integer), Ajv on V8's RegExp against Ajv on re2js as the validator runs it (ADR 0012).
const repoRequire = createRequire(import.meta.url);
const Ajv2020 = repoRequire('ajv/dist/2020').default;
const { RE2JS } = repoRequire('re2js');
const linear = (source) => {
  const re2 = RE2JS.compile(RE2JS.translateRegExp(source));
  return { test: (input) => re2.test(input), toString: () => source };
};
linear.code = 'linear';
const customerSchema = {
  type: 'object',
  properties: { customerId: { type: 'string', pattern: '^C[0-9]{4}$' }, limit: { type: 'integer' } },
  required: ['customerId'],
};
const onV8 = new Ajv2020({ allErrors: true, strict: false }).compile(customerSchema);
const onRe2 = new Ajv2020({ allErrors: true, strict: false, code: { regExp: linear } }).compile(customerSchema);
const args = { customerId: 'C1001', limit: 3 };
const v8Ns = timeNs(() => onV8(args));
const re2Ns = timeNs(() => onRe2(args));
console.log(
  `\none tools/call argument check (customer_lookup schema): Ajv + V8 ${(v8Ns / 1000).toFixed(2)} us, Ajv + re2js ${(re2Ns / 1000).toFixed(2)} us (${(re2Ns / v8Ns).toFixed(1)}x)`,
);
smokeRan('regexp-engines');
