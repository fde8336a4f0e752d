import { startToolService, type ToolService } from './server';

describe('POST /guardrail (the sample guardrail for webhook interceptors)', () => {
  let service: ToolService;
  beforeAll(async () => {
    service = await startToolService({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => service.close());

  const ask = async (body: string) => {
    const res = await fetch(`${service.url}/guardrail`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    return { status: res.status, reply: (await res.json()) as unknown };
  };
  const asked = (args: Record<string, unknown>) =>
    JSON.stringify({
      event: 'tools/call',
      phase: 'request',
      payload: { name: 'customer_lookup', arguments: args },
      context: { principal: null },
    });

  it('denies a call naming a customer under legal hold, with the reason, and allows any other', async () => {
    expect(await ask(asked({ customerId: 'C1003' }))).toEqual({
      status: 200,
      reply: { type: 'validation', valid: false, messages: [{ message: 'customer C1003 is under legal hold' }] },
    });
    expect(await ask(asked({ customerId: 'C1001' }))).toEqual({ status: 200, reply: { type: 'validation', valid: true } });
  });

  it('refuses a body that is not JSON', async () => {
    expect((await ask('{')).status).toBe(400);
  });
});
