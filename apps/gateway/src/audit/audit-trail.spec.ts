import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';

import { type ParsedMessage, serializeErrorResponse, serializeResultResponse } from '@toolmesh/protocol';
import { createLogger, type DispatchOutcome, type RequestContext } from '@toolmesh/transport-http/server';

import { AuditDecisions } from './audit-event';
import { auditOf } from './audit-record';
import { AuditTrail } from './audit-trail';

const KEY = 'an audit key of at least 32 characters';

function trail(): { audit: AuditTrail; events: () => Array<Record<string, unknown>> } {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'audit-trail-')), 'audit.jsonl');
  const logger = createLogger({ level: 'error', format: 'kv', stream: new Writable({ write: (_chunk, _encoding, done) => done() }) });
  const audit = AuditTrail.open(
    { enabled: true, file, subjectKey: { env: 'KEY' }, maxBufferedBytes: 65_536 },
    { endpoint: () => '/mcp', tool: (name) => (name === 'echo_text' ? { name, bundle: 'sample' } : undefined) },
    { KEY },
    logger,
  ) as AuditTrail;
  return {
    audit,
    events: () =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

const context = (headers: Record<string, string> = {}): RequestContext => ({
  guid: 'g-1',
  requestId: 'r-1',
  headers: { 'content-length': '42', ...headers },
  deadline: performance.now() + 1_000,
  receivedAt: performance.now(),
  caller: { subject: 'alice', scopes: new Set(), claims: { azp: 'agent-cli' } },
});

const request = (method: string, params: Record<string, unknown>, id: string | number = 1): ParsedMessage =>
  ({ kind: 'request', message: { jsonrpc: '2.0', id, method, params } }) as ParsedMessage;

describe('AuditTrail', () => {
  it('is off without a section, or with enabled: false', () => {
    const names = { endpoint: () => '/mcp', tool: () => undefined };
    const logger = createLogger({ level: 'error', format: 'kv' });
    expect(AuditTrail.open(undefined, names, {}, logger)).toBeUndefined();
    expect(AuditTrail.open({ enabled: false, maxBufferedBytes: 65_536 }, names, {}, logger)).toBeUndefined();
  });

  it('hands an audited request a record down the call path, and writes its event once answered', async () => {
    const { audit, events } = trail();
    const answer: DispatchOutcome = { status: 200, json: serializeResultResponse(1, { content: [], isError: true }), isError: false };
    const dispatch = audit.audited(async (_message, passed) => {
      auditOf(passed)?.decide(AuditDecisions.validArguments);
      auditOf(passed)?.ended({ kind: 'result', result: { content: [], isError: true } });
      return answer;
    });
    await dispatch(request('tools/call', { name: 'echo_text', arguments: { text: 'secret value' } }), context());
    await audit.close(); // writes what is gathered, and resolves once the file has it
    expect(events()).toEqual([
      {
        type: 'request',
        time: expect.any(String),
        guid: 'g-1',
        requestId: 'r-1',
        endpoint: '/mcp',
        method: 'tools/call',
        bundle: 'sample',
        tool: 'echo_text',
        caller: expect.stringMatching(/^[0-9a-f]{64}$/),
        clientId: 'agent-cli',
        decisions: [{ stage: 'validation', outcome: 'allow' }],
        outcome: { kind: 'toolError', status: 200 },
        durationMs: expect.any(Number),
        bytesIn: 42,
        bytesOut: expect.any(Number),
      },
    ]);
    expect(JSON.stringify(events())).not.toContain('secret value');
    expect(JSON.stringify(events())).not.toContain('alice');
  });

  it('passes requests it does not audit untouched, with no record', async () => {
    const { audit, events } = trail();
    let recorded: unknown = 'not called';
    const dispatch = audit.audited(async (_message, passed) => {
      recorded = auditOf(passed);
      return undefined;
    });
    await dispatch(request('tools/list', {}), context());
    await audit.close(); // writes what is gathered, and resolves once the file has it
    expect(recorded).toBeUndefined();
    expect(events()).toEqual([]);
  });

  it("takes a JSON-RPC error's code from the answer, which an id the caller chose cannot fake", async () => {
    const { audit, events } = trail();
    const id = '"error":{"code":7}';
    const error = serializeErrorResponse({ jsonrpc: '2.0', id, error: { code: -32602, message: 'no' } });
    await audit.audited(async () => ({ status: 200, json: error, isError: true }))(request('prompts/get', { name: 'x' }, id), context());
    await audit.close(); // writes what is gathered, and resolves once the file has it
    expect(events()[0]).toMatchObject({ method: 'prompts/get', decisions: [], outcome: { kind: 'error', status: 200, code: -32602 } });
    expect(events()[0]).not.toHaveProperty('prompt'); // no bundle served it
  });

  it("names a resource by its URI's scheme only, and a failed dispatch as -32603", async () => {
    const { audit, events } = trail();
    const failing = audit.audited(() => Promise.reject(new Error('bug')));
    await expect(failing(request('resources/read', { uri: 'users://4411/profile?ssn=123' }), context())).rejects.toThrow('bug');
    await audit.close(); // writes what is gathered, and resolves once the file has it
    expect(events()[0]).toMatchObject({ resource: 'users:', outcome: { kind: 'error', status: 500, code: -32603 } });
    expect(JSON.stringify(events())).not.toContain('4411');
  });

  it('writes a notice of its own', async () => {
    const { audit, events } = trail();
    audit.notice({
      bundle: 'weather',
      tool: 'forecast',
      decision: { stage: 'definition', outcome: 'modified', reason: 'description_changed' },
    });
    await audit.close(); // writes what is gathered, and resolves once the file has it
    expect(events()).toEqual([
      {
        type: 'notice',
        time: expect.any(String),
        bundle: 'weather',
        tool: 'forecast',
        decision: { stage: 'definition', outcome: 'modified', reason: 'description_changed' },
      },
    ]);
  });
});
