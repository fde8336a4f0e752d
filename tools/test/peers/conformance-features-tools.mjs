/**
 * The tools of the features peer (conformance-features-server.mjs): exactly the names, arguments and results
 * the conformance suites' tools-call-*, json-schema-2020-12, elicitation-sep*, http-custom-header-server-validation
 * and input-required-result-* scenarios ask their reference server for (read from the suites' scenario source).
 * A tool that needs the client (sampling, elicitation, roots) returns `input_required` in both eras: at
 * 2026-07-28 that is the wire answer; at 2025 the SDK's legacy shim turns it into requests on the call's own
 * stream, which is why 2025 is served with sessions (the answers come back on POSTs of the session).
 */
import { createRequestStateCodec, fromJsonSchema, inputRequired, inputResponse } from '@modelcontextprotocol/server';
import * as z from 'zod';

import { PNG } from './conformance-features-catalogue.mjs';

/**
 * Seals every `requestState` the tools return (input-required-result-tampered-state: an altered one is refused
 * with -32602 before a tool sees it). One key per process: one process serves every round of a flow.
 */
export const REQUEST_STATES = createRequestStateCodec({ key: crypto.getRandomValues(new Uint8Array(32)) });

/** A 1 ms, 8 kHz, 8-bit mono WAV: the smallest audio the audio scenario can check the type of. */
function wav() {
  const samples = Buffer.alloc(8, 0x80);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]).toString('base64');
}

const text = (value) => ({ content: [{ type: 'text', text: value }] });
const pause = (millis) => new Promise((resolve) => setTimeout(resolve, millis));

/** The tool inputSchema of json-schema-2020-12 (SEP-1613, SEP-2106): every keyword it checks is kept as written. */
const SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
  },
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
};

/** The content tools: fixed results. */
function registerContentTools(server) {
  server.registerTool('test_simple_text', { description: 'Returns simple text' }, async () =>
    text('This is a simple text response for testing.'),
  );
  server.registerTool('test_image_content', { description: 'Returns an image' }, async () => ({
    content: [{ type: 'image', data: PNG, mimeType: 'image/png' }],
  }));
  server.registerTool('test_audio_content', { description: 'Returns audio' }, async () => ({
    content: [{ type: 'audio', data: wav(), mimeType: 'audio/wav' }],
  }));
  server.registerTool('test_embedded_resource', { description: 'Returns an embedded resource' }, async () => ({
    content: [
      {
        type: 'resource',
        resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' },
      },
    ],
  }));
  server.registerTool('test_multiple_content_types', { description: 'Returns text, an image and a resource' }, async () => ({
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: {
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: JSON.stringify({ test: 'data', value: 123 }),
        },
      },
    ],
  }));
  server.registerTool('test_error_handling', { description: 'Always fails, as a tool error' }, async () => ({
    isError: true,
    content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }],
  }));
  server.registerTool(
    'json_schema_2020_12_tool',
    { description: 'Tool with JSON Schema 2020-12 features', inputSchema: fromJsonSchema(SCHEMA_2020_12) },
    async (args) => text(`Received: ${JSON.stringify(args)}`),
  );
  // http-custom-header-server-validation (SEP-2243): an argument mirrored in an Mcp-Param-Region header, which the
  // SDK's 2026-07-28 entry checks against the body before the tool runs.
  server.registerTool(
    'test_header_param',
    {
      description: 'Echoes a region that travels in an Mcp-Param-Region header too',
      inputSchema: fromJsonSchema({
        type: 'object',
        properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
        required: ['region'],
      }),
    },
    async ({ region }) => text(`region: ${region}`),
  );
}

/** tools-call-with-progress and tools-call-with-logging: notifications on the call's stream, then the result. */
function registerStreamingTools(server) {
  server.registerTool('test_tool_with_progress', { description: 'A tool that reports its progress' }, async (ctx) => {
    const progressToken = ctx.mcpReq._meta?.progressToken;
    for (const progress of [0, 50, 100]) {
      if (progressToken !== undefined)
        await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, total: 100 } });
      await pause(20);
    }
    return text('Progress test completed');
  });
  server.registerTool('test_tool_with_logging', { description: 'A tool that logs while it runs' }, async (ctx) => {
    for (const [index, data] of ['Tool execution started', 'Tool processing data', 'Tool execution completed'].entries()) {
      if (index > 0) await pause(50);
      await ctx.mcpReq.log('info', data);
    }
    return text('Logging test completed');
  });
}

/** How an elicitation ended, as the elicitation scenarios' results describe it. */
function elicitationOutcome(ctx, key) {
  const answer = inputResponse(ctx.mcpReq.inputResponses, key);
  return answer.kind === 'elicit' ? `action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}` : undefined;
}

/**
 * A tool that asks the user once with the elicitation `request` makes of its arguments, under `key`, then
 * answers with what `done` makes of how that ended. (The SDK calls a tool without an input schema with the
 * context alone, and one with a schema with its arguments and the context: the context is the last.)
 */
function registerElicitingTool(server, name, config, key, request, done) {
  server.registerTool(name, config, async (...args) => {
    const ctx = args.at(-1);
    const outcome = elicitationOutcome(ctx, key);
    if (outcome !== undefined) return text(done(outcome));
    return inputRequired({ inputRequests: { [key]: request(args[0]) } });
  });
}

/** tools-call-sampling, tools-call-elicitation, elicitation-sep1034-defaults, elicitation-sep1330-enums (2025 scenarios). */
function registerClientRequestTools(server) {
  server.registerTool(
    'test_sampling',
    { description: "Asks the client's model", inputSchema: z.object({ prompt: z.string() }) },
    async ({ prompt }, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, 'sample');
      if (answer.kind === 'sampling') return text(`LLM response: ${answer.result.content?.text ?? JSON.stringify(answer.result.content)}`);
      return inputRequired({
        inputRequests: {
          sample: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 }),
        },
      });
    },
  );
  registerElicitingTool(
    server,
    'test_elicitation',
    { description: 'Asks the user', inputSchema: z.object({ message: z.string() }) },
    'user_input',
    ({ message }) =>
      inputRequired.elicit({
        message,
        requestedSchema: {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        },
      }),
    (outcome) => `User response: ${outcome}`,
  );
  registerElicitingTool(
    server,
    'test_elicitation_sep1034_defaults',
    { description: 'Asks the user with a default for every primitive type' },
    'defaults',
    () =>
      inputRequired.elicit({
        message: 'Please review the defaults',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', default: 'John Doe' },
            age: { type: 'integer', default: 30 },
            score: { type: 'number', default: 95.5 },
            status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
            verified: { type: 'boolean', default: true },
          },
        },
      }),
    (outcome) => `Elicitation completed: ${outcome}`,
  );
  const titled = (title) => ['1', '2', '3'].map((n) => ({ const: `value${n}`, title: `${['First', 'Second', 'Third'][n - 1]} ${title}` }));
  registerElicitingTool(
    server,
    'test_elicitation_sep1330_enums',
    { description: 'Asks the user with every kind of enum' },
    'enums',
    () =>
      inputRequired.elicit({
        message: 'Please choose',
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            titledSingle: { type: 'string', oneOf: titled('Option') },
            legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
            untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
            titledMulti: { type: 'array', items: { anyOf: titled('Choice') } },
          },
        },
      }),
    (outcome) => `Elicitation completed: ${outcome}`,
  );
}

/**
 * The diagnostic tools of server-stateless (SEP-2575, 2026-07-28; served in both eras, so that a gateway pinned
 * to 2025 in front lists them too): one that needs sampling (the SDK refuses it
 * with -32021 to a client that did not declare it), one that asks on its stream, one that logs (nothing may
 * reach a request that named no log level), and two that change the lists, which `notify` tells the open
 * subscriptions/listen streams.
 */
function registerStatelessProbes(server, notify) {
  server.registerTool('test_missing_capability', { description: "Needs the client's sampling" }, async () =>
    inputRequired({
      inputRequests: {
        sample: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 10 }),
      },
    }),
  );
  server.registerTool('test_streaming_elicitation', { description: 'Asks the user, as an input_required result' }, async (ctx) =>
    elicitationOutcome(ctx, 'confirm') !== undefined
      ? text('confirmed')
      : inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({
              message: 'Continue?',
              requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
            }),
          },
        }),
  );
  server.registerTool('test_logging_tool', { description: 'Logs at every level it may' }, async (ctx) => {
    await ctx.mcpReq.log('info', 'Logging tool ran');
    return text('Logged');
  });
  server.registerTool('test_trigger_tool_change', { description: 'Tells listeners the tool list changed' }, async () => {
    notify.toolsChanged();
    return text('tools changed');
  });
  server.registerTool('test_trigger_prompt_change', { description: 'Tells listeners the prompt list changed' }, async () => {
    notify.promptsChanged();
    return text('prompts changed');
  });
}

/** Every tool; `notify` tells every listener, in both eras, that the tool or prompt list changed. */
export function registerTools(server, notify) {
  registerContentTools(server);
  registerStreamingTools(server);
  registerClientRequestTools(server);
  registerStatelessProbes(server, notify);
}
