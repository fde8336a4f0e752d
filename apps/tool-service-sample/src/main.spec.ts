import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';

const MAIN = path.join(__dirname, '../../../dist/apps/tool-service-sample/main.js');

function startProcess(env: Record<string, string>): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [MAIN], { env: { PATH: process.env.PATH, ...env } });
}

async function exitOf(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [code] = await once(child, 'exit');
  return { code, stderr };
}

describe('tool service process (built dist/apps/tool-service-sample/main.js)', () => {
  it('prints one listening line, serves tools, and exits 0 on SIGTERM even with a slow call running', async () => {
    const child = startProcess({ TOOL_SERVICE_PORT: '0' });
    const exited = exitOf(child);
    let stdout = '';
    child.stdout.setEncoding('utf8');
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: string) => {
        stdout += chunk;
        const match = /^tool service listening on (http:\/\/127\.0\.0\.1:[1-9][0-9]*)\n/.exec(stdout);
        if (match) resolve(match[1]);
      });
      void exited.then(({ code, stderr }) => reject(new Error(`tool service exited early (${code}): ${stdout}${stderr}`)));
    });

    const echo = await fetch(`${url}/tools/echo_text`, { method: 'POST', body: JSON.stringify({ text: 'from the test' }) });
    expect([echo.status, await echo.json()]).toEqual([200, { data: 'from the test' }]);

    // A one-minute call must neither delay the exit nor keep the process alive.
    const slow = fetch(`${url}/tools/slow_operation`, { method: 'POST', body: '{"delayMillis": 60000}' }).then(
      (res) => res.status,
      () => 'connection closed',
    );
    // SIGTERM once the call has reached the service (it is in the call log), not after a guessed delay.
    while (!((await (await fetch(`${url}/_calls`)).json()) as Array<{ tool: string }>).some((c) => c.tool === 'slow_operation')) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    child.kill('SIGTERM');
    expect((await exited).code).toBe(0);
    expect(await slow).toBe(503);
    expect(stdout).toBe(`tool service listening on ${url}\n`);
  });

  it.each([
    ['TOOL_SERVICE_PORT', 'eighty', 'TOOL_SERVICE_PORT must be a TCP port number'],
    ['TOOL_SERVICE_PORT', '65536', 'TOOL_SERVICE_PORT must be a TCP port number'],
    ['TOOL_SERVICE_PORT', '-1', 'TOOL_SERVICE_PORT must be a TCP port number'],
    ['TOOL_SERVICE_HOST', 'not a host!', 'TOOL_SERVICE_HOST must be an IP address or a host name'],
  ])('refuses to start with %s=%s, saying which variable is wrong', async (name, value, message) => {
    const { code, stderr } = await exitOf(startProcess({ [name]: value }));
    expect(code).toBe(1);
    expect(stderr).toContain(message);
  });
});
