import { ROOT_CONTEXT, type Span, type SpanContext, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';

import type { OtlpExport } from '../call/otlp-export';
import type { TraceHeaders } from '../call/trace-context';

/** One traced `tools/call`: its request span, and the tool-call span whose context goes to the tool service. */
export interface CallTrace {
  /** The headers to send the tool service: the tool-call span as the parent, the caller's tracestate and baggage kept. */
  readonly outbound: TraceHeaders;
  /** The request span's ids: the audit trail's record of the call carries them (ADR 0030). */
  readonly spanContext: SpanContext;
  /** Ends both spans; `failed` marks them as errors (an `isError` result or a failed call). */
  end(failed: boolean): void;
}

/**
 * OpenTelemetry tracing (SPEC G23), off unless `OTEL_EXPORTER_OTLP_ENDPOINT` is set: then each `tools/call`
 * is a server span continuing the caller's trace (its `traceparent`, from the header or the 2026 `_meta`)
 * with a client span for the POST to the tool service, whose context the tool service receives. Parents are
 * passed explicitly, not through a global context manager, so tracing adds no async-hook work per request.
 */
export class GatewayTracing {
  private readonly propagator = new W3CTraceContextPropagator();

  private constructor(
    private readonly provider: BasicTracerProvider,
    private readonly tracer: Tracer,
  ) {}

  /** Tracing exported as `otlp` says, or undefined when OpenTelemetry is not configured. */
  static over(otlp: OtlpExport | undefined): GatewayTracing | undefined {
    if (otlp === undefined) return undefined;
    const exporter = new OTLPTraceExporter({ url: otlp.url('traces') });
    const provider = new BasicTracerProvider({ resource: otlp.resource, spanProcessors: [new BatchSpanProcessor(exporter)] });
    return new GatewayTracing(provider, provider.getTracer('toolmesh-gateway', otlp.serviceVersion));
  }

  /** Starts the request and tool-call spans of one call of `tool`, under the caller's trace when it sent one. */
  startCall(tool: string, caller: TraceHeaders): CallTrace {
    const parent = caller.traceparent === undefined ? ROOT_CONTEXT : this.propagator.extract(ROOT_CONTEXT, caller, headerGetter);
    const request = this.tracer.startSpan(
      'tools/call',
      { kind: SpanKind.SERVER, attributes: { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': tool } },
      parent,
    );
    const toolCall = this.tracer.startSpan(
      `POST tool ${tool}`,
      { kind: SpanKind.CLIENT, attributes: { 'gen_ai.tool.name': tool } },
      trace.setSpan(parent, request),
    );
    const outbound: Record<string, string> = {};
    this.propagator.inject(trace.setSpan(ROOT_CONTEXT, toolCall), outbound, headerSetter);
    if (caller.baggage !== undefined) outbound.baggage = caller.baggage;
    return {
      outbound,
      spanContext: request.spanContext(),
      end: (failed) => {
        for (const span of [toolCall, request]) endSpan(span, failed);
      },
    };
  }

  /** Exports what is still batched; called once at shutdown. */
  shutdown(): Promise<void> {
    return this.provider.shutdown();
  }
}

function endSpan(span: Span, failed: boolean): void {
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

const headerGetter = {
  get: (carrier: TraceHeaders, key: string) => carrier[key as keyof TraceHeaders],
  keys: (carrier: TraceHeaders) => Object.keys(carrier),
};

const headerSetter = {
  set: (carrier: Record<string, string>, key: string, value: string) => {
    carrier[key] = value;
  },
};
