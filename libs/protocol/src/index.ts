// What other projects import from protocol, by name; everything else under lib/ is internal.
export { type JsonRpcErrorResponse, type JSONRPCMessage, type ParsedMessage, type RequestId } from './lib/jsonrpc/messages';
export { internalError, invalidParams, invalidRequest, methodNotFound, registryUnavailable, toolNotFound } from './lib/jsonrpc/error-responses';
export { parseJsonRpcMessage } from './lib/jsonrpc/parse';
export { LATEST_PROTOCOL_VERSION, McpHttpHeader, SUPPORTED_PROTOCOL_VERSIONS } from './lib/mcp/versions';
export { McpMethod, McpNotification } from './lib/mcp/methods';
export { type McpTransport } from './lib/transport/mcp-transport';
export { type NotificationListener, type NotificationSource, type ServerNotification } from './lib/notifications/notification-listener';
export { NotificationFanout } from './lib/notifications/notification-fanout';
export { RawJson, serializedByteLength, type SerializedResponse, serializedText, serializeErrorResponse, serializeResultResponse } from './lib/jsonrpc/serialize';
export { type CallToolResult, type Implementation, McpClient, type Tool, type ToolAnnotations } from './lib/client/mcp-client';
export { CodedError } from './lib/errors/coded-error';
export { errorMessage } from './lib/errors/error-message';
export { type CompiledSchema, SchemaCompiler } from './lib/schema/schema-compiler';
export { compileLinearRegExp, type LinearRegExp } from './lib/schema/linear-regexp';
export { SchemaError, SchemaErrorCode } from './lib/schema/schema-errors';
export { escapeControlCharacters, printable, printableName } from './lib/text/printable';
