import { RegistryErrorCode } from '../errors';
import type { CredentialPlacement, HttpBinding } from '../model/http-binding';
import { readTaskDeclaration, type TaskDeclaration } from '../model/tool-definition';
import { remoteRefIn, toJsonSchema } from './json-schema-dialect';

/** One operation of a dereferenced document, with what the conversion needs around it. */
export interface OperationContext {
  readonly method: string;
  readonly pathTemplate: string;
  readonly operation: Readonly<Record<string, unknown>>;
  /** The path item's own parameters, which the operation's override by name and location. */
  readonly pathParameters: readonly unknown[];
  readonly openapiVersion: string;
  readonly securitySchemes: Readonly<Record<string, unknown>>;
  readonly defaultSecurity: ReadonlyArray<Readonly<Record<string, unknown>>>;
  /** The service domain's own path (no trailing slash): every outbound path starts with it. */
  readonly basePath: string;
}

/**
 * What an operation becomes: a manifest tool entry (for the manifest's own rules) and how its call is made;
 * or why not, under `registry.operation_refused` unless `code` names a more telling one.
 */
export type OperationTool =
  { ok: true; tool: Record<string, unknown>; binding: HttpBinding } | { ok: false; code?: RegistryErrorCode; reason: string };

/** The body's argument; a parameter of this name would collide with it. */
const BODY_ARGUMENT = 'body';
/** Headers OpenAPI says a parameter does not set (the gateway sets them). */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);
/**
 * Headers that say where a request goes, how it is framed or how a proxy handles it (RFC 9110 §7.2, §7.6.1,
 * §8.6, §10.1.1, RFC 9112 §6.1, RFC 7239): the gateway's and the HTTP client's to set, never an
 * argument's. A caller's value there could send the call to another virtual host behind the service's
 * address, smuggle a second request or cut the body. An operation declaring one is refused as it loads, and
 * a bundle's own `openapi.headers` may not name one (the gateway's load-config.ts).
 */
export const CONTROLLED_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'upgrade',
  'te',
  'trailer',
  'transfer-encoding',
  'content-length',
  'content-encoding',
  'expect',
  'cookie',
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
]);
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Text a path template may hold between its parameters: path characters only, and never `?`, `#` or a raw `%`. */
const PATH_LITERAL = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Record<string, unknown>;
  style?: string;
  explode?: boolean;
  content?: unknown;
}

/**
 * Turns one OpenAPI operation into a tool: `inputSchema` from its path, query and header parameters and its
 * JSON request body (as the `body` argument), `outputSchema` from its JSON success response where that is
 * an object, annotations from its method (overridable by `x-toolmesh-tool`), and the binding that places
 * each argument in the request. Anything the gateway cannot place safely refuses the operation, with why.
 */
export function operationTool(
  context: OperationContext,
  { name, timeoutMillis, outputSchema: advertised }: { name: string; timeoutMillis?: number; outputSchema: boolean },
): OperationTool {
  const { operation, openapiVersion } = context;
  const literals = context.pathTemplate.split(/\{[^}]*\}/);
  const bad = literals.find((literal) => !PATH_LITERAL.test(literal) || literal.split('/').some((s) => s === '.' || s === '..'));
  if (bad !== undefined) return { ok: false, reason: `path ${context.pathTemplate} has text the gateway does not send as a path` };

  // Checked first: an unresolved parameter or body is only its `$ref`.
  const remoteRef = remoteRefIn([context.pathParameters, operation]);
  if (remoteRef !== undefined)
    return { ok: false, code: RegistryErrorCode.RemoteRefRefused, reason: `$ref ${remoteRef} is outside the document and never fetched` };

  const parameters = mergedParameters(context.pathParameters, (operation['parameters'] as unknown[] | undefined) ?? []);
  const controlled = parameters.find(
    (parameter) => parameter.in === 'header' && typeof parameter.name === 'string' && CONTROLLED_HEADERS.has(parameter.name.toLowerCase()),
  );
  if (controlled !== undefined)
    return {
      ok: false,
      code: RegistryErrorCode.OpenApiHeaderRefused,
      reason: `header parameter ${controlled.name} would set a header only the gateway sets (where the request goes or how it is framed)`,
    };
  const placed = placedArguments(parameters, openapiVersion);
  if (typeof placed === 'string') return { ok: false, reason: placed };
  const { properties, required, query, headers, pathArguments } = placed;

  const path = pathParts(context.basePath, context.pathTemplate, pathArguments);
  if (typeof path === 'string') return { ok: false, reason: path };

  const requestBody = operation['requestBody'] as { required?: boolean; content?: Record<string, { schema?: unknown }> } | undefined;
  const bodySchema = requestBody && jsonSchemaOf(requestBody.content);
  if (requestBody !== undefined && bodySchema === undefined && requestBody.required) {
    return { ok: false, reason: 'its request body is not JSON' };
  }
  if (bodySchema !== undefined) {
    properties.set(BODY_ARGUMENT, toJsonSchema(bodySchema, openapiVersion));
    if (requestBody?.required) required.push(BODY_ARGUMENT);
  }
  const inputSchema = {
    type: 'object',
    properties: Object.fromEntries(properties),
    ...(required.length > 0 && { required }),
    additionalProperties: false,
  };
  // Without one (the bundle's `outputSchemas: none`), a reply is passed on as text and never checked.
  const outputSchema = advertised ? successSchema(operation['responses'], openapiVersion) : undefined;

  const credentials = credentialPlacements(context);
  if (typeof credentials === 'string') return { ok: false, reason: credentials };

  const extension = toolExtension(operation);
  const description = [operation['summary'], operation['description']]
    .filter((text) => typeof text === 'string' && text !== '')
    .join('\n\n');
  const timeout = extension.timeoutMillis ?? timeoutMillis;
  return {
    ok: true,
    tool: {
      name,
      ...(description !== '' && { description }),
      inputSchema,
      ...(outputSchema !== undefined && { outputSchema }),
      annotations: { ...methodAnnotations(context.method), ...extension.annotations },
      endpoint: context.pathTemplate.split('{')[0],
      ...(timeout !== undefined && { timeoutMillis: timeout }),
      ...(extension.task !== undefined && { task: extension.task }),
    },
    binding: {
      method: context.method.toUpperCase(),
      path,
      query,
      headers,
      ...(bodySchema !== undefined && { body: BODY_ARGUMENT }),
      credentials,
    },
  };
}

interface PlacedArguments {
  /** A Map, made an object at the end: a parameter named `__proto__` or `constructor` is just a name. */
  readonly properties: Map<string, unknown>;
  readonly required: string[];
  readonly query: string[];
  readonly headers: Array<{ argument: string; header: string }>;
  readonly pathArguments: Set<string>;
}

/** The parameters as arguments (schema, where each goes), or why one cannot be placed. */
function placedArguments(parameters: readonly Parameter[], openapiVersion: string): PlacedArguments | string {
  const placed: PlacedArguments = { properties: new Map(), required: [], query: [], headers: [], pathArguments: new Set() };
  for (const parameter of parameters) {
    if (parameter.in === 'cookie' || (parameter.in === 'header' && IGNORED_HEADERS.has(parameter.name.toLowerCase()))) {
      if (parameter.required) return `${parameter.in} parameter ${parameter.name} is not one the gateway sends`;
      continue;
    }
    const problem = placementProblem(parameter);
    if (problem !== undefined) return `parameter ${parameter.name}: ${problem}`;
    if (parameter.name === BODY_ARGUMENT || placed.properties.has(parameter.name)) return `two arguments would be named ${parameter.name}`;
    const schema = toJsonSchema(parameter.schema, openapiVersion) as Record<string, unknown>;
    const described = parameter.description !== undefined && schema['description'] === undefined;
    placed.properties.set(parameter.name, described ? { ...schema, description: parameter.description } : schema);
    if (parameter.required || parameter.in === 'path') placed.required.push(parameter.name);
    if (parameter.in === 'query') placed.query.push(parameter.name);
    else if (parameter.in === 'header') placed.headers.push({ argument: parameter.name, header: parameter.name.toLowerCase() });
    else placed.pathArguments.add(parameter.name);
  }
  return placed;
}

/** The path item's parameters, overridden by the operation's of the same name and location. */
function mergedParameters(pathLevel: readonly unknown[], operationLevel: readonly unknown[]): Parameter[] {
  const byKey = new Map<string, Parameter>();
  for (const parameter of [...pathLevel, ...operationLevel] as Parameter[]) byKey.set(`${parameter.in}:${parameter.name}`, parameter);
  return [...byKey.values()];
}

/** Only what can be placed as one encoded value: primitives (and, in the query, arrays of them) in the default style. */
function placementProblem(parameter: Parameter): string | undefined {
  if (parameter.in === 'header' && !HEADER_NAME.test(parameter.name)) return 'not a valid header name';
  if (parameter.schema === undefined) return 'a parameter described by "content" is not supported';
  const defaultStyle = parameter.in === 'query' ? 'form' : 'simple';
  if (parameter.style !== undefined && parameter.style !== defaultStyle) return `style ${parameter.style} is not supported`;
  const type = parameter.schema['type'];
  const types = Array.isArray(type) ? type : [type];
  if (types.includes('object')) return 'an object is not placed in a request';
  if (types.includes('array')) {
    if (parameter.in !== 'query') return `an array is not placed in the ${parameter.in}`;
    if (parameter.explode === false) return 'an unexploded array is not supported';
  }
  return undefined;
}

/** The outbound path in pieces; every `{name}` of the template must be a declared path parameter, and each one used. */
function pathParts(basePath: string, template: string, declared: ReadonlySet<string>): HttpBinding['path'] | string {
  const parts: Array<string | { argument: string }> = [];
  const used = new Set<string>();
  let literal = basePath;
  for (const piece of template.split(/(\{[^}]*\})/)) {
    if (!piece.startsWith('{')) {
      literal += piece;
      continue;
    }
    const argument = piece.slice(1, -1);
    if (!declared.has(argument)) return `path ${template} names {${argument}}, which is not a declared path parameter`;
    if (literal !== '') parts.push(literal);
    parts.push({ argument });
    used.add(argument);
    literal = '';
  }
  if (literal !== '') parts.push(literal);
  const unused = [...declared].find((name) => !used.has(name));
  return unused === undefined ? parts : `path parameter ${unused} is not in the path ${template}`;
}

/** The schema of a JSON media type (`application/json` or `+json`), if the content offers one. */
function jsonSchemaOf(content: Record<string, { schema?: unknown }> | undefined): unknown {
  if (content === undefined) return undefined;
  const type = Object.keys(content).find((media) => /^application\/([\w.-]+\+)?json\b/i.test(media));
  return type === undefined ? undefined : (content[type]?.schema ?? {});
}

/** The JSON schema of the first 2xx response, when it describes an object (MCP's `outputSchema` must). */
function successSchema(responses: unknown, openapiVersion: string): Record<string, unknown> | undefined {
  if (typeof responses !== 'object' || responses === null) return undefined;
  const status = Object.keys(responses)
    .filter((code) => /^2(\d\d|XX)$/i.test(code))
    .sort()[0];
  if (status === undefined) return undefined;
  const schema = jsonSchemaOf((responses as Record<string, { content?: Record<string, { schema?: unknown }> }>)[status]?.content);
  if (typeof schema !== 'object' || schema === null || (schema as { type?: unknown }).type !== 'object') return undefined;
  return toJsonSchema(schema, openapiVersion) as Record<string, unknown>;
}

/** MCP's hints from the HTTP method's own semantics (RFC 9110: GET safe, PUT and DELETE idempotent). */
function methodAnnotations(method: string): Record<string, boolean> {
  switch (method) {
    case 'get':
      return { readOnlyHint: true, idempotentHint: true };
    case 'delete':
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: true };
    case 'put':
      return { readOnlyHint: false, destructiveHint: false, idempotentHint: true };
    default:
      return { readOnlyHint: false, destructiveHint: false, idempotentHint: false };
  }
}

/**
 * The operation's `x-toolmesh-tool` object, if it is one: its annotations and timeout win over the derived
 * ones; its `task` declares a long-running operation (issue 47), as a manifest tool's `task` member does.
 */
function toolExtension(operation: Readonly<Record<string, unknown>>): {
  annotations?: object;
  timeoutMillis?: number;
  task?: TaskDeclaration;
} {
  const extension = operation['x-toolmesh-tool'];
  if (typeof extension !== 'object' || extension === null) return {};
  const { annotations, timeoutMillis, task } = extension as { annotations?: unknown; timeoutMillis?: unknown; task?: unknown };
  const declared = readTaskDeclaration(task);
  return {
    ...(typeof annotations === 'object' && annotations !== null && { annotations }),
    ...(Number.isInteger(timeoutMillis) && (timeoutMillis as number) > 0 && { timeoutMillis: timeoutMillis as number }),
    ...(declared && { task: declared }),
  };
}

/**
 * The credentials of the operation's first security alternative the gateway can supply (apiKey in a header
 * or the query, HTTP bearer or basic); none when an alternative needs nothing. Refused when no alternative fits.
 */
function credentialPlacements(context: OperationContext): CredentialPlacement[] | string {
  const alternatives = (context.operation['security'] as OperationContext['defaultSecurity'] | undefined) ?? context.defaultSecurity;
  if (alternatives.length === 0) return [];
  const unsupported: string[] = [];
  for (const alternative of alternatives) {
    const placements: CredentialPlacement[] = [];
    for (const scheme of Object.keys(alternative)) {
      const placement = placementOf(scheme, context.securitySchemes[scheme]);
      if (placement === undefined) unsupported.push(scheme);
      else placements.push(placement);
    }
    if (placements.length === Object.keys(alternative).length) return placements;
  }
  return `security scheme ${unsupported.join(', ')} is not one the gateway supplies (apiKey, HTTP bearer or basic)`;
}

function placementOf(scheme: string, definition: unknown): CredentialPlacement | undefined {
  const { type, in: location, name, scheme: httpScheme } = (definition ?? {}) as Record<string, unknown>;
  if (
    type === 'apiKey' &&
    (location === 'query' || location === 'header') &&
    typeof name === 'string' &&
    (location === 'query' || HEADER_NAME.test(name))
  ) {
    return { scheme, kind: location, name: location === 'header' ? name.toLowerCase() : name };
  }
  if (type === 'http' && typeof httpScheme === 'string' && /^(bearer|basic)$/i.test(httpScheme)) {
    return { scheme, kind: httpScheme.toLowerCase() as 'bearer' | 'basic' };
  }
  return undefined;
}
