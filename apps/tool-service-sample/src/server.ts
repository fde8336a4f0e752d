import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { errorMessage } from '@toolmesh/protocol';

import { CallLog } from './call-log';
import { GUARDRAIL_PATH, guardrailVerdict } from './guardrail';
import { parseArguments } from './http/parse-arguments';
import { MAX_BODY_BYTES, readBody } from './http/read-body';
import { errorReply, jsonReply, noContentReply, type Reply, textReply } from './http/reply';
import { buildManifest, buildServiceManifest, MANIFEST_PATH, SERVICE_MANIFEST_PATH, TOOL_PATH_PREFIX, type ToolManifest } from './manifest';
import { SAMPLE_SKILLS, SKILLS_PATH } from './sample-skills';
import { type Tool, TOOLS } from './tools';
import { ChangingTools } from './tools/changing-tools';
import type { CallInput } from './tools/define-tool';
import { JOBS, JOBS_PATH_PREFIX } from './tools/jobs';

export interface ToolServiceOptions {
  /** 0 lets the OS pick a free port; `url` then tells which. */
  readonly port: number;
  readonly host: string;
  /** How many recent calls GET /_calls keeps. */
  readonly callLogCapacity?: number;
}

export interface ToolService {
  readonly url: string;
  /** Stops listening and aborts calls still running (their timers are cleared), then resolves. */
  close(): Promise<void>;
}

type Method = 'GET' | 'POST' | 'DELETE';
type Handler = (req: IncomingMessage, signal: AbortSignal) => Reply | Promise<Reply>;
type Endpoint = Partial<Record<Method, Handler>>;

const DEFAULT_CALL_LOG_CAPACITY = 100;

/**
 * The sample tool service: the manifest, one POST endpoint per tool, and the diagnostic endpoints
 * /_calls and /_stats that let tests running it as a separate process see what reached it.
 */
export async function startToolService(options: ToolServiceOptions): Promise<ToolService> {
  let manifest: ToolManifest;
  let serviceManifest: ReturnType<typeof buildServiceManifest>;
  let toolsByName: ReadonlyMap<string, Tool>;
  const tools = new ChangingTools(TOOLS, () => publish());
  const publish = () => {
    manifest = buildManifest(tools.list());
    serviceManifest = buildServiceManifest(manifest);
    toolsByName = new Map(tools.list().map((tool) => [tool.name, tool]));
  };
  publish();
  const callLog = new CallLog(options.callLogCapacity ?? DEFAULT_CALL_LOG_CAPACITY);
  const stats = { manifestFetches: 0, calls: 0 };
  const running = new Set<AbortController>();
  let closing = false;

  const fixedEndpoints = new Map<string, Endpoint>([
    [
      MANIFEST_PATH,
      {
        GET: () => {
          stats.manifestFetches += 1;
          return jsonReply(200, manifest);
        },
      },
    ],
    [
      '/_calls',
      {
        GET: () => jsonReply(200, callLog.list()),
        DELETE: () => {
          callLog.clear();
          return noContentReply;
        },
      },
    ],
    [SERVICE_MANIFEST_PATH, { GET: () => jsonReply(200, serviceManifest) }],
    ['/_stats', { GET: () => jsonReply(200, stats) }],
    [GUARDRAIL_PATH, { POST: (req) => guardrailVerdict(req) }],
    ...SAMPLE_SKILLS.flatMap(({ name, files }) =>
      Object.entries(files).map(([file, text]): [string, Endpoint] => [
        `${SKILLS_PATH}/${name}/${file}`,
        { GET: () => textReply(200, 'text/markdown; charset=utf-8', text) },
      ]),
    ),
  ]);

  async function callTool(tool: Tool, req: IncomingMessage, signal: AbortSignal): Promise<Reply> {
    const body = await readBody(req);
    if (!body.ok) {
      return body.reason === 'too_large'
        ? errorReply(413, `the body exceeds ${MAX_BODY_BYTES} bytes`)
        : errorReply(400, 'the request body was cut off');
    }
    const args = parseArguments(body.text);
    if (!args.ok) return errorReply(400, args.error);
    stats.calls += 1;
    callLog.record(tool.name, req.headers, args.value);
    return tool.call(args.value, signal, readCallInput(req));
  }

  function endpointAt(pathname: string): Endpoint | undefined {
    if (pathname.startsWith(JOBS_PATH_PREFIX)) {
      const id = pathname.slice(JOBS_PATH_PREFIX.length);
      return { GET: () => JOBS.status(id), DELETE: () => JOBS.cancel(id) };
    }
    if (!pathname.startsWith(TOOL_PATH_PREFIX)) return fixedEndpoints.get(pathname);
    const tool = toolsByName.get(pathname.slice(TOOL_PATH_PREFIX.length));
    return tool && { POST: (req, signal) => callTool(tool, req, signal) };
  }

  function route(req: IncomingMessage, signal: AbortSignal): Reply | Promise<Reply> {
    const target = req.url ?? '/';
    const endpoint = URL.canParse(target, 'http://tool-service') ? endpointAt(new URL(target, 'http://tool-service').pathname) : undefined;
    if (!endpoint) return errorReply(404, `nothing at ${req.method} ${target}`);
    const handler = Object.hasOwn(endpoint, req.method ?? '') ? endpoint[req.method as Method] : undefined;
    if (handler) return handler(req, signal);
    const allowed = Object.keys(endpoint).join(', ');
    const refusal = errorReply(405, `${req.method} is not allowed on ${target}; use ${allowed}`);
    return { ...refusal, headers: { ...refusal.headers, allow: allowed } };
  }

  async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const call = new AbortController();
    running.add(call);
    // A caller that hangs up before its answer (for example a gateway whose deadline passed) aborts the call.
    res.once('close', () => {
      running.delete(call);
      if (!res.writableFinished) call.abort();
    });
    let reply: Reply;
    try {
      reply = await route(req, call.signal);
    } catch (error) {
      reply = call.signal.aborted
        ? errorReply(503, 'the service is shutting down')
        : errorReply(500, `internal error: ${errorMessage(error)}`);
    }
    if (res.destroyed) return; // the caller is gone; nobody to answer
    res
      .writeHead(reply.status, {
        ...reply.headers,
        'content-length': Buffer.byteLength(reply.body),
        ...(closing ? { connection: 'close' } : {}),
      })
      .end(reply.body);
  }

  // handleRequest answers every failure itself; this catch only guards against a write that throws.
  const server = createServer((req, res) => void handleRequest(req, res).catch(() => res.destroy()));
  await listen(server, options.port, options.host);
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        server.close(() => resolve());
        for (const call of running) call.abort();
      }),
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The MRTR headers a gateway sends (Base64url, bar the capability list); one that does not decode is left out. */
function readCallInput(req: IncomingMessage): CallInput {
  const responses = decodeHeader(req.headers['mcp-input-responses']);
  const requestState = decodeHeader(req.headers['mcp-request-state']);
  const capabilities = req.headers['mcp-client-capabilities'];
  let inputResponses: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = responses === undefined ? undefined : JSON.parse(responses);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) inputResponses = parsed as Record<string, unknown>;
  } catch {
    // not JSON: as if no answers came
  }
  return {
    ...(inputResponses !== undefined && { inputResponses }),
    ...(requestState !== undefined && { requestState }),
    ...(typeof capabilities === 'string' && {
      clientCapabilities: capabilities
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== ''),
    }),
  };
}

function decodeHeader(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? Buffer.from(value, 'base64url').toString('utf8') : undefined;
}
