import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';

import { createLogger } from '@toolmesh/transport-http/server';

import { GatewayErrorCode } from '../errors/gateway-errors';
import { AuditFile } from './audit-file';

function logged(): { logger: ReturnType<typeof createLogger>; lines: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  const logger = createLogger({ level: 'info', format: 'kv', stream });
  return {
    logger,
    lines: () => {
      logger.flush();
      return text;
    },
  };
}

const folder = () => mkdtempSync(path.join(tmpdir(), 'audit-file-'));

describe('AuditFile', () => {
  it('appends each line, gathered and written together', async () => {
    const file = path.join(folder(), 'audit.jsonl');
    const audit = AuditFile.open(file, 65_536, logged().logger);
    audit.write('{"n":1}');
    audit.write('{"n":2}');
    await audit.close();
    expect(readFileSync(file, 'utf8')).toBe('{"n":1}\n{"n":2}\n');
    expect(audit.dropped).toBe(0);
  });

  it('refuses a path it cannot append to at start, naming it and the reason', () => {
    const file = path.join(folder(), 'missing-folder', 'audit.jsonl');
    const open = () => AuditFile.open(file, 65_536, logged().logger);
    expect(open).toThrow(expect.objectContaining({ code: GatewayErrorCode.AuditUnavailable }));
    expect(open).toThrow(`audit.file: cannot append to ${file} (ENOENT)`);
  });

  it('drops and counts what does not fit in maxBufferedBytes, and says so naming the setting', async () => {
    const { logger, lines } = logged();
    const audit = AuditFile.open(path.join(folder(), 'audit.jsonl'), 100, logger);
    audit.write('x'.repeat(60));
    audit.write('y'.repeat(60));
    expect(audit.dropped).toBe(1);
    expect(lines()).toContain('event=audit_events_dropped dropped=1 total=1 reason=buffer_full setting=audit.maxBufferedBytes');
    await audit.close();
  });

  it('a write that fails (a full disk) drops later lines and counts them; the process goes on', async () => {
    const { logger, lines } = logged();
    const audit = AuditFile.open('/dev/full', 65_536, logger);
    audit.write('{"n":1}');
    // The gathered line is written within 20 ms, and fails: waited for, as a loaded machine may take longer.
    for (let waited = 0; !lines().includes('audit_write_failed') && waited < 5_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines()).toContain('event=audit_write_failed file=/dev/full error=ENOSPC');
    audit.write('{"n":2}');
    expect(audit.dropped).toBe(1);
    expect(lines()).toContain('reason=ENOSPC');
  });
});
