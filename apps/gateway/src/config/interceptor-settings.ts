import { SchemaCompiler } from '@toolmesh/protocol';
import { CONTROLLED_HEADERS } from '@toolmesh/registry';

import { GatewayError, GatewayErrorCode } from '../errors/gateway-errors';
import { credentialSource, headerName } from './config-schema';
import type { CredentialSource, GatewayConfig } from './gateway-config';

/** A guardrail's answer is read up to this size by default (`webhook.maxReplyBytes`): a modified result fits. */
export const DEFAULT_MAX_REPLY_BYTES = 1024 * 1024;
/** How long a webhook may take by default (`timeoutMs`), before `failOpen` decides. */
export const DEFAULT_TIMEOUT_MS = 2000;

/** The personal data kinds a redact interceptor can remove (`@redactpii/node`'s rules, ADR 0027). */
export const PERSONAL_DATA_KINDS = ['EMAIL', 'PHONE', 'CREDIT_CARD', 'SSN', 'NAME'] as const;
export type PersonalDataKind = (typeof PERSONAL_DATA_KINDS)[number];

/** One rule of a refuse interceptor: a call whose argument at `path` (or any string below it) matches `pattern` is refused. */
export interface RefuseRule {
  readonly path: string;
  readonly pattern: string;
  readonly ignoreCase?: boolean;
}

/**
 * One entry of `interceptors` (docs/configuration.md; docs/gateway.md "Interceptors"). Field names follow
 * SEP-2624 where it has them (`name`, `mode`, `failOpen`, `timeoutMs`, `phase`); `kind`, the selectors and
 * the kinds' own blocks are the gateway's.
 */
export interface InterceptorSettings {
  name: string;
  kind: 'refuse' | 'redact' | 'webhook';
  /** Which side of the call it sees: `refuse` only the request, `redact` only the response, a webhook either or both. */
  phase?: 'request' | 'response' | 'both';
  mode?: 'enforce' | 'audit';
  failOpen?: boolean;
  timeoutMs?: number;
  /** Curated endpoints by name; unset, every endpoint (the default one too). */
  endpoints?: string[];
  /** Bundles by name; unset, every bundle. */
  bundles?: string[];
  /** Tool-name patterns (`*` any characters, as `auth.toolScopes`); unset, every tool. */
  tools?: string[];
  refuse?: RefuseRule[];
  redact?: { secrets?: boolean; personalData?: PersonalDataKind[] };
  webhook?: WebhookEntry;
}

/** A webhook interceptor's guardrail service: where it is, how much of its answer is read, how the gateway authenticates to it. */
export interface WebhookEntry {
  url: string;
  maxReplyBytes?: number;
  /** Sent with every request to it, by header name: each value from an environment variable or a mounted file, never the YAML. */
  headers?: Record<string, CredentialSource>;
}

/** Headers a webhook's `headers` may not name: the gateway's own on that request (its JSON) and those that say where it goes or how it is framed. */
const WEBHOOK_OWN_HEADERS: ReadonlySet<string> = new Set(['content-type', 'accept']);

const names = { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } };
const interceptorSchema = {
  type: 'array',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'kind'],
    properties: {
      name: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,64}$' },
      kind: { enum: ['refuse', 'redact', 'webhook'] },
      phase: { enum: ['request', 'response', 'both'] },
      mode: { enum: ['enforce', 'audit'] },
      failOpen: { type: 'boolean' },
      timeoutMs: { type: 'integer', minimum: 1, maximum: 60_000 },
      endpoints: names,
      bundles: names,
      tools: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^[A-Za-z0-9_.*-]{1,128}$' } },
      refuse: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['path', 'pattern'],
          properties: {
            path: { type: 'string', minLength: 1 },
            pattern: { type: 'string', minLength: 1 },
            ignoreCase: { type: 'boolean' },
          },
        },
      },
      redact: {
        type: 'object',
        additionalProperties: false,
        properties: { secrets: { type: 'boolean' }, personalData: { type: 'array', items: { enum: [...PERSONAL_DATA_KINDS] } } },
      },
      webhook: {
        type: 'object',
        additionalProperties: false,
        required: ['url'],
        properties: {
          url: { type: 'string', pattern: '^https?://[^#]+$' },
          maxReplyBytes: { type: 'integer', minimum: 1024 },
          headers: { type: 'object', propertyNames: { pattern: headerName }, additionalProperties: credentialSource },
        },
      },
    },
  },
};

/** The gateway refuses to start on interceptors it cannot use, and says which entry and field to fix. */
export function interceptorConfigInvalid(message: string): GatewayError {
  return new GatewayError(GatewayErrorCode.ConfigInvalid, `invalid configuration: ${message}`);
}

/** What the configuration names, for the selectors to be checked against; `bundles` undefined when a portal registry lists them. */
export interface KnownNames {
  readonly endpoints: readonly string[];
  readonly bundles?: readonly string[];
}

export function knownNames({ mcp }: GatewayConfig): KnownNames {
  return {
    endpoints: (mcp.endpoints ?? []).map((endpoint) => endpoint.name),
    ...(mcp.portal.registryUrl === undefined && { bundles: mcp.bundles.map((bundle) => bundle.name) }),
  };
}

/**
 * `interceptors` checked: its shape (compiled here, only when the section is given, so a gateway without
 * interceptors compiles and carries nothing of it), then what a schema cannot say: names unique, each kind's
 * block present and only its own, the phase its kind can take, the endpoints and bundles it selects
 * configured (`known`). Each error names the entry and the field to fix. A refuse rule's path and pattern are
 * checked where they are compiled, when the gateway builds its interceptors (interceptors/call-interceptors.ts).
 */
export function checkInterceptorSettings(settings: unknown, known: KnownNames): InterceptorSettings[] {
  const shape = new SchemaCompiler({ strict: true, maxProblems: 10 }).compile(interceptorSchema).check(settings, 'interceptors');
  if (!shape.ok) throw interceptorConfigInvalid(`\n  ${shape.problems.join('\n  ')}`);
  const entries = settings as InterceptorSettings[];
  const seen = new Set<string>();
  entries.forEach((entry, i) => {
    const at = `interceptors[${i}] (${entry.name})`;
    if (seen.has(entry.name))
      throw interceptorConfigInvalid(
        `${at}: the name ${entry.name} is used twice; each interceptor needs its own (decisions are recorded by it)`,
      );
    seen.add(entry.name);
    for (const kind of ['refuse', 'redact', 'webhook'] as const) {
      if (kind !== entry.kind && entry[kind] !== undefined)
        throw interceptorConfigInvalid(`${at}: a ${entry.kind} interceptor takes no "${kind}" block; remove it or set kind: ${kind}`);
    }
    checkNames(entry.endpoints, known.endpoints, `${at}.endpoints`, 'curated endpoint (mcp.endpoints)');
    checkNames(entry.bundles, known.bundles, `${at}.bundles`, 'bundle (mcp.bundles)');
    const phase = entry.phase;
    if (entry.kind === 'refuse') {
      if (entry.refuse === undefined)
        throw interceptorConfigInvalid(`${at}: kind refuse needs "refuse": a list of { path, pattern } rules`);
      if (phase !== undefined && phase !== 'request')
        throw interceptorConfigInvalid(`${at}: a refuse interceptor checks arguments, so its phase is request`);
    }
    if (entry.kind === 'redact' && phase !== undefined && phase !== 'response')
      throw interceptorConfigInvalid(`${at}: a redact interceptor cleans results, so its phase is response`);
    if (entry.kind === 'webhook' && entry.webhook === undefined)
      throw interceptorConfigInvalid(`${at}: kind webhook needs "webhook": { url }`);
    const controlled = Object.keys(entry.webhook?.headers ?? {}).find(
      (header) => CONTROLLED_HEADERS.has(header.toLowerCase()) || WEBHOOK_OWN_HEADERS.has(header.toLowerCase()),
    );
    if (controlled !== undefined)
      throw interceptorConfigInvalid(
        `${at}.webhook.headers: ${controlled} is a header only the gateway sets (its JSON, where the request goes or how it is framed); send credentials in Authorization or a header of the guardrail's own`,
      );
  });
  return entries;
}

function checkNames(names: readonly string[] | undefined, known: readonly string[] | undefined, at: string, what: string): void {
  const unknown = known && names?.find((name) => !known.includes(name));
  if (unknown !== undefined) throw interceptorConfigInvalid(`${at}: there is no ${what} named ${unknown}; name one that is configured`);
}
