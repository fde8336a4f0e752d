// What other projects import from protocol, by name; everything else under lib/ is internal.
export {
  type InboundResponse,
  type JsonRpcErrorResponse,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type ParsedMessage,
  type RequestId,
} from './lib/jsonrpc/messages';
export {
  callerText,
  headerMismatch,
  internalError,
  invalidParams,
  invalidRequest,
  jsonRpcError,
  methodNotFound,
  missingRequiredClientCapability,
  registryUnavailable,
  toolNotFound,
  unsupportedProtocolVersion,
} from './lib/jsonrpc/error-responses';
export { JsonRpcErrorCode } from './lib/jsonrpc/error-codes';
export {
  DEFAULT_MAX_DEPTH,
  exceedsDepth,
  exceedsNodes,
  parseJsonRpcBatchOrMessage,
  parseJsonRpcMessage,
  type ParseResult,
} from './lib/jsonrpc/parse';
export { JsonDepthGauge } from './lib/jsonrpc/json-depth-gauge';
export {
  isModernProtocolVersion,
  LATEST_PROTOCOL_VERSION,
  McpHttpHeader,
  McpMetaKey,
  MODERN_PROTOCOL_VERSIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
} from './lib/mcp/versions';
export { isLoggingLevel, LOGGING_LEVELS, McpMethod, McpNotification } from './lib/mcp/methods';
export { decodeHeaderValue, encodeHeaderValue, MCP_NAME_SOURCE } from './lib/mcp/header-values';
export { type McpHeaderBinding, readMcpHeaderBindings } from './lib/mcp/mcp-header-bindings';
export { ANNOTATIONS_CLAIM_META_KEY, type AnnotationsClaim } from './lib/mcp/annotations-claim';
export {
  CATALOGUE_ETAG_META_KEY,
  type CanonicalDefinition,
  canonicalDefinition,
  DEFINITION_FIELDS,
  DEFINITION_HASH_META_KEY,
  definitionHash,
} from './lib/mcp/tool-definition-hash';
export { type SearchableTool, ToolSearchIndex } from './lib/mcp/tool-search-index';
export { Cancellation } from './lib/transport/cancellation';
export { type ExchangeOptions, type McpTransport, type TransportSendOptions } from './lib/transport/mcp-transport';
export { BoundedJsonBody, type JsonBodyLimit } from './lib/transport/bounded-json-body';
export { OVERSIZED_EDGE_BYTES, oversizedReply, oversizedReplyId, tooDeepReply } from './lib/transport/oversized-reply';
export { type NotificationListener, type NotificationSource, type ServerNotification } from './lib/notifications/notification-listener';
export { NotificationFanout } from './lib/notifications/notification-fanout';
export {
  RawJson,
  serializedByteLength,
  type SerializedResponse,
  serializedText,
  serializeErrorResponse,
  serializeResultResponse,
} from './lib/jsonrpc/serialize';
export { CodedError } from './lib/errors/coded-error';
export { expandAll, expandStrings, expandVariables } from './lib/config/expand-variables';
export { errorMessage } from './lib/errors/error-message';
export { type CompiledSchema, SchemaCompiler } from './lib/schema/schema-compiler';
export { compileLinearRegExp, type LinearRegExp } from './lib/schema/linear-regexp';
export { SchemaError, SchemaErrorCode } from './lib/schema/schema-errors';
export { globPattern } from './lib/text/glob';
export { escapeControlCharacters, printable, printableName } from './lib/text/printable';
