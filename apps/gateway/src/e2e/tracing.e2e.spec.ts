import { gatewayConfigFile, spawnGateway } from '@toolmesh/test-peers/gateway-process';
import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';
import type { ServerProcess } from '@toolmesh/test-peers/server-process';

import { type OtlpReceiver, startOtlpReceiver } from '../test-support/otlp-receiver';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = 'b7ad6b7169203331';

describe('OpenTelemetry traces (SPEC G23), with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  let tools: SampleToolService;
  let receiver: OtlpReceiver;
  // The built gateway as its own process: the OTLP exporter loads node:http with a dynamic import, which
  // Jest's module sandbox cannot run.
  let gateway: ServerProcess & { match: RegExpExecArray };
  beforeAll(async () => {
    tools = await startSampleToolService();
    receiver = await startOtlpReceiver();
    gateway = await spawnGateway(gatewayConfigFile(tools.url), { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
  });
  afterAll(async () => {
    await gateway?.stop();
    await tools?.stop();
    await receiver?.close();
  });

  it("continues the caller's trace into the tool call: the tool service gets the tool-call span as its parent, and both spans are exported", async () => {
    await tools.clearCalls();
    const res = await fetch(gateway.match[1], {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'mcp-protocol-version': '2025-11-25',
        traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01`,
        tracestate: 'vendor=1',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo_text', arguments: { text: 'traced' } } }),
    });
    expect(((await res.json()) as { result?: { isError: boolean } }).result?.isError).toBe(false);
    const [call] = await tools.calls();
    const [, traceId, parentId] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(call.headers.traceparent ?? '') ?? [];
    expect(traceId).toBe(TRACE_ID);
    expect(parentId).not.toBe(CALLER_SPAN); // the gateway's own span, not the caller's
    expect(call.headers.tracestate).toBe('vendor=1');

    expect(await gateway.stop()).toBe(0); // SIGTERM: the shutdown exports what is still batched
    const toolCallSpan = receiver.spans.find((span) => span.spanId === parentId);
    expect(toolCallSpan).toMatchObject({ traceId: TRACE_ID, name: 'POST tool echo_text', kind: 3 }); // CLIENT
    const requestSpan = receiver.spans.find((span) => span.spanId === toolCallSpan?.parentSpanId);
    expect(requestSpan).toMatchObject({ traceId: TRACE_ID, name: 'tools/call', kind: 2, parentSpanId: CALLER_SPAN }); // SERVER, under the caller's span
  });
});
