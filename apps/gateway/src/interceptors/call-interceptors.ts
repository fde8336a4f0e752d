import { DEFAULT_MAX_DEPTH, errorMessage } from '@toolmesh/protocol';
import type { ToolDefinition } from '@toolmesh/registry';

import { toolPattern } from '../auth/tool-pattern';
import {
  DEFAULT_MAX_REPLY_BYTES,
  DEFAULT_TIMEOUT_MS,
  interceptorConfigInvalid,
  type InterceptorSettings,
  PERSONAL_DATA_KINDS,
  type RefuseRule,
} from '../config/interceptor-settings';
import { UndiciToolClient } from '../tool-client/undici-tool-client';
import type { InterceptedCall, Interceptor, Verdict } from './interceptor';
import { InterceptorChain } from './interceptor-chain';
import { parseJsonPath } from './json-path';
import { redactJudge } from './redact-interceptor';
import { refuseJudge } from './refuse-interceptor';
import { type SecretReader, webhookJudge } from './webhook-interceptor';

/** Keep-alive connections to one guardrail: as many calls can wait on it at once before more queue. */
const WEBHOOK_CONNECTIONS = 128;

/** An interceptor and what it selects. */
interface Selecting {
  readonly interceptor: Interceptor;
  readonly endpoints?: ReadonlySet<string>;
  readonly bundles?: ReadonlySet<string>;
  readonly tools?: readonly RegExp[];
}

/**
 * The configured interceptors, each with what it selects, and per endpoint and tool the chain that applies:
 * found once per tool object (a catalogue generation's), then a map lookup per call. A tool no interceptor
 * selects has no chain, and its calls go on as they would without any interceptor configured.
 */
export class CallInterceptors {
  private readonly chains = new Map<string, WeakMap<ToolDefinition, InterceptorChain | null>>();

  constructor(private readonly selecting: readonly Selecting[]) {}

  /** The chain of `tool`'s calls on the endpoint `endpoint` (a curated endpoint's name; undefined, the default endpoint). */
  chainFor(tool: ToolDefinition, endpoint?: string): InterceptorChain | undefined {
    const key = endpoint ?? '';
    let byTool = this.chains.get(key);
    if (byTool === undefined) this.chains.set(key, (byTool = new WeakMap()));
    let chain = byTool.get(tool);
    if (chain === undefined) {
      const applying = this.selecting.filter((entry) => selects(entry, tool, endpoint)).map((entry) => entry.interceptor);
      chain = applying.length === 0 ? null : new InterceptorChain(applying);
      byTool.set(tool, chain);
    }
    return chain ?? undefined;
  }
}

function selects(entry: Selecting, tool: ToolDefinition, endpoint: string | undefined): boolean {
  if (entry.endpoints && (endpoint === undefined || !entry.endpoints.has(endpoint))) return false;
  if (entry.bundles && !entry.bundles.has(tool.routeToken)) return false;
  return entry.tools === undefined || entry.tools.some((pattern) => pattern.test(tool.name));
}

/**
 * The configuration's `interceptors` built, or undefined when there are none: then no call meets a chain, a
 * lookup or a promise of them (issue 46: nothing is paid when none is configured). Their settings were
 * checked when the configuration loaded (checkInterceptorSettings); what only building can find, a refuse
 * rule's path or pattern, is refused here.
 */
export function buildCallInterceptors(
  entries: readonly InterceptorSettings[] | undefined,
  secrets: SecretReader,
): CallInterceptors | undefined {
  if (entries === undefined || entries.length === 0) return undefined;
  return new CallInterceptors(
    entries.map((entry, i) => ({
      interceptor: interceptorOf(entry, `interceptors[${i}] (${entry.name})`, secrets),
      ...(entry.endpoints && { endpoints: new Set(entry.endpoints) }),
      ...(entry.bundles && { bundles: new Set(entry.bundles) }),
      ...(entry.tools && { tools: entry.tools.map(toolPattern) }),
    })),
  );
}

function interceptorOf(entry: InterceptorSettings, at: string, secrets: SecretReader): Interceptor {
  const common = {
    name: entry.name,
    mode: entry.mode ?? 'enforce',
    failOpen: entry.failOpen ?? false,
    timeoutMs: entry.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  };
  switch (entry.kind) {
    case 'refuse':
      return { ...common, request: checkedRefuseJudge(entry.refuse ?? [], at) };
    case 'redact':
      return {
        ...common,
        response: redactJudge({
          secrets: entry.redact?.secrets ?? true,
          personalData: entry.redact?.personalData ?? PERSONAL_DATA_KINDS.filter((kind) => kind !== 'NAME'),
        }),
      };
    case 'webhook': {
      const webhook = entry.webhook as NonNullable<InterceptorSettings['webhook']>;
      // Its own keep-alive pool, as a tool service has: a guardrail is asked on each call it selects.
      const client = new UndiciToolClient({
        connectionsPerOrigin: WEBHOOK_CONNECTIONS,
        maxReplyBytes: webhook.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES,
        maxReplyDepth: DEFAULT_MAX_DEPTH,
      });
      const judge = webhookJudge(
        entry.name,
        { url: webhook.url, timeoutMs: common.timeoutMs, ...(webhook.headers && { headers: webhook.headers }) },
        client,
        secrets,
      );
      const phase = entry.phase ?? 'request';
      return {
        ...common,
        ...(phase !== 'response' && { request: judge.request }),
        ...(phase !== 'request' && { response: judge.response }),
      };
    }
  }
}

/** The refuse rules compiled, each path and pattern checked first: a configuration error names the rule. */
function checkedRefuseJudge(rules: readonly RefuseRule[], at: string): (call: InterceptedCall) => Verdict {
  rules.forEach((rule, r) => {
    try {
      parseJsonPath(rule.path);
    } catch (error) {
      throw interceptorConfigInvalid(`${at}.refuse[${r}].path "${rule.path}": ${errorMessage(error)}`);
    }
    try {
      refuseJudge([rule]);
    } catch (error) {
      throw interceptorConfigInvalid(
        `${at}.refuse[${r}].pattern: ${errorMessage(error)}; rewrite it without back-references or lookarounds`,
      );
    }
  });
  return refuseJudge(rules);
}
