import { dataReply, inputRequiredReply } from '../http/reply';
import { DEFAULT_TIMEOUT_MILLIS, defineTool, NO_ARGUMENTS, READ_ONLY } from './define-tool';

/**
 * Tools the 2026-07-28 scenarios of the MCP conformance suite look for by name (0.2.0-alpha.12); their
 * schemas are the suite's, so that the gateway is seen to pass them through and enforce them.
 */
export const jsonSchema2020Tool = defineTool<Record<string, unknown>>({
  name: 'json_schema_2020_12_tool',
  title: 'Conformance: JSON Schema 2020-12',
  description: 'Takes a contact whose schema uses $defs, $anchor, $ref, allOf/anyOf and if/then/else. Used by the MCP conformance suite.',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
    properties: {
      name: { type: 'string' },
      address: { $ref: '#/$defs/address' },
      contactMethod: { type: 'string', enum: ['phone', 'email'] },
      phone: { type: 'string' },
      email: { type: 'string' },
    },
    allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
    if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
    then: { required: ['phone'] },
    else: { required: ['email'] },
    additionalProperties: false,
  },
  annotations: READ_ONLY,
  timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
  handle: () => dataReply('ok'),
});

interface CustomHeaderArgs {
  region: string;
  priority: number;
  verbose?: boolean;
  query: string;
}

/** Arguments that 2026 clients repeat as `Mcp-Param-*` headers, for the gateway to check. */
export const customHeadersTool = defineTool<CustomHeaderArgs>({
  name: 'test_custom_headers',
  title: 'Conformance: custom headers',
  description: 'Echoes a query; region, priority and verbose travel as Mcp-Param-* headers too. Used by the MCP conformance suite.',
  inputSchema: {
    type: 'object',
    properties: {
      region: { type: 'string', description: 'Routed on: sent as Mcp-Param-Region', 'x-mcp-header': 'Region' },
      priority: { type: 'integer', description: 'Sent as Mcp-Param-Priority', 'x-mcp-header': 'Priority' },
      verbose: { type: 'boolean', description: 'Sent as Mcp-Param-Verbose', 'x-mcp-header': 'Verbose' },
      query: { type: 'string', description: 'No header' },
    },
    required: ['region', 'priority', 'query'],
    additionalProperties: false,
  },
  annotations: READ_ONLY,
  timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
  handle: (args) => dataReply(`${args.query} in ${args.region} at priority ${args.priority}`),
});

/** The suite checks that no log message comes back for a request that asked for none. */
export const loggingTool = defineTool<Record<string, never>>({
  name: 'test_logging_tool',
  title: 'Conformance: logging',
  description: 'Returns a text; the gateway sends no log notifications. Used by the MCP conformance suite.',
  inputSchema: NO_ARGUMENTS,
  annotations: READ_ONLY,
  timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
  handle: () => dataReply('logged nothing'),
});

/** Needs the client to sample: a client that did not declare `sampling` gets -32021 from the gateway. */
export const missingCapabilityTool = defineTool<Record<string, never>>({
  name: 'test_missing_capability',
  title: 'Conformance: needs sampling',
  description: 'Asks the client for an LLM sample (MRTR). Used by the MCP conformance suite.',
  inputSchema: NO_ARGUMENTS,
  annotations: READ_ONLY,
  timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
  handle: (_args, _signal, { inputResponses }) =>
    inputResponses
      ? dataReply(`sampled: ${JSON.stringify(inputResponses)}`)
      : inputRequiredReply({
          sample: {
            method: 'sampling/createMessage',
            params: { messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 16 },
          },
        }),
});

/** Asks the user a question, then answers with what they said: one MRTR round through the gateway. */
export const elicitationTool = defineTool<Record<string, never>>({
  name: 'test_streaming_elicitation',
  title: 'Conformance: asks the user',
  description: 'Asks the user for a name (MRTR elicitation), then greets them. Used by the MCP conformance suite and tests.',
  inputSchema: NO_ARGUMENTS,
  annotations: READ_ONLY,
  timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
  handle: (_args, _signal, { inputResponses }) =>
    inputResponses
      ? dataReply(`hello ${JSON.stringify(inputResponses)}`)
      : inputRequiredReply(
          {
            name: {
              method: 'elicitation/create',
              params: {
                message: 'Your name?',
                requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
              },
            },
          },
          'asked-for-name',
        ),
});
