import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';

const MAIN = path.join(__dirname, '../../../dist/apps/gateway/main.js');

describe('gateway process (built dist/apps/gateway/main.js)', () => {
  it('serves health on the management port and exits cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH, MANAGEMENT_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8');
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: string) => {
        output += chunk;
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`gateway exited early (${code}): ${output}`)));
    });

    const res = await fetch(`${url}/actuator/health/liveness`);
    expect(res.status).toBe(200);

    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });

  it('refuses to start on an invalid port, saying which variable is wrong', async () => {
    const child = spawn(process.execPath, [MAIN], { env: { PATH: process.env.PATH, MANAGEMENT_PORT: 'ninety' } });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(stderr).toContain('MANAGEMENT_PORT must be a TCP port number');
  });
});
