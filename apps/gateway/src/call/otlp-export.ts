import { type Resource, resourceFromAttributes } from '@opentelemetry/resources';

/** An OpenTelemetry signal the gateway exports: its spans (ADR 0015) and the audit trail's events (ADR 0030). */
type OtlpSignal = 'traces' | 'logs';

/**
 * Where the gateway exports OpenTelemetry signals, and as which service, as the OpenTelemetry environment
 * variables say it: shared by the traces and the audit trail's logs, so both land at one collector under
 * one resource and a log record joins its trace there.
 */
export interface OtlpExport {
  /** `OTEL_EXPORTER_OTLP_<SIGNAL>_ENDPOINT` as it is, else `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/<signal>`. */
  url(signal: OtlpSignal): string;
  /** `service.name` (`OTEL_SERVICE_NAME`, else `toolmesh-gateway`) and `service.version`. */
  readonly resource: Resource;
  /** The gateway's version, which the resource names and each signal's instrumentation scope too. */
  readonly serviceVersion: string;
}

/** The export `env` configures, or undefined (no OpenTelemetry) without `OTEL_EXPORTER_OTLP_ENDPOINT`. */
export function otlpExportOf(env: NodeJS.ProcessEnv, serviceVersion: string): OtlpExport | undefined {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (endpoint === undefined || endpoint === '') return undefined;
  const base = endpoint.replace(/\/$/, '');
  return {
    url: (signal) => env[`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_ENDPOINT`] || `${base}/v1/${signal}`,
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME ?? 'toolmesh-gateway', 'service.version': serviceVersion }),
    serviceVersion,
  };
}
