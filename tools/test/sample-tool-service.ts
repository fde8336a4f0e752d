import { spawnServerProcess } from './server-process';

export interface RecordedCall {
  tool: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface SampleToolService {
  readonly url: string;
  calls(): Promise<RecordedCall[]>;
  clearCalls(): Promise<void>;
  stats(): Promise<{ manifestFetches: number; calls: number }>;
  stop(): Promise<number | null>;
}

/** The sample tool service (apps/tool-service-sample), built, as its own process on a free port. */
export async function startSampleToolService(): Promise<SampleToolService> {
  const service = await spawnServerProcess('tool-service-sample', { TOOL_SERVICE_PORT: '0' }, /tool service listening on (http:\/\/\S+)/);
  const url = service.match[1];
  const json = async <T>(path: string): Promise<T> => (await (await fetch(`${url}${path}`)).json()) as T;
  return {
    url,
    calls: () => json('/_calls'),
    clearCalls: async () => {
      await fetch(`${url}/_calls`, { method: 'DELETE' });
    },
    stats: () => json('/_stats'),
    stop: service.stop,
  };
}
