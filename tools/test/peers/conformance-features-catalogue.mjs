/**
 * The resources, prompts and completions of the features peer (conformance-features-server.mjs): exactly the
 * URIs, names, arguments and texts the conformance suites' resources-*, prompts-*, completion-complete and
 * input-required-result-non-tool-request scenarios ask their reference server for (read from the suites'
 * scenario source, not from that server).
 */
import { acceptedContent, completable, inputRequired, ResourceTemplate } from '@modelcontextprotocol/server';
import * as z from 'zod';

/** A 1x1 transparent PNG. */
export const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** What completion/complete offers for test_prompt_with_arguments' arg1: the values that start with what was typed. */
const ARG1_VALUES = ['test-value-1', 'test-value-2', 'other-value'];

/** The resource resources-subscribe and resources-unsubscribe watch. */
const WATCHED = 'test://watched-resource';

export function registerResources(server) {
  server.registerResource(
    'static-text',
    'test://static-text',
    { description: 'A static text resource', mimeType: 'text/plain' },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
    }),
  );
  server.registerResource(
    'static-binary',
    'test://static-binary',
    { description: 'A static binary resource', mimeType: 'image/png' },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'image/png', blob: PNG }],
    }),
  );
  server.registerResource(
    'template',
    new ResourceTemplate('test://template/{id}/data', { list: undefined }),
    { description: 'A resource template with one parameter', mimeType: 'application/json' },
    async (uri, { id }) => ({
      contents: [
        { uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) },
      ],
    }),
  );
  server.registerResource(
    'watched',
    WATCHED,
    { description: 'A resource a 2025 client may subscribe to', mimeType: 'text/plain' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Watched resource content.' }] }),
  );
}

/**
 * resources/subscribe and resources/unsubscribe, 2025 only (the 2026-07-28 revision removed them): the URIs a
 * session watches. Nothing here changes, so no notifications/resources/updated is ever due.
 */
export function registerSubscriptions(server) {
  const watched = new Set();
  server.server.registerCapabilities({ resources: { subscribe: true } });
  server.server.setRequestHandler('resources/subscribe', async (request) => {
    watched.add(request.params.uri);
    return {};
  });
  server.server.setRequestHandler('resources/unsubscribe', async (request) => {
    watched.delete(request.params.uri);
    return {};
  });
}

export function registerPrompts(server) {
  server.registerPrompt('test_simple_prompt', { description: 'A simple prompt without arguments' }, async () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  }));
  server.registerPrompt(
    'test_prompt_with_arguments',
    {
      description: 'A prompt with arguments',
      argsSchema: z.object({
        arg1: completable(z.string(), (value) => ARG1_VALUES.filter((candidate) => candidate.startsWith(value ?? ''))),
        arg2: z.string(),
      }),
    },
    async ({ arg1, arg2 }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } }],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_embedded_resource',
    { description: 'A prompt with an embedded resource', argsSchema: z.object({ resourceUri: z.string() }) },
    async ({ resourceUri }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
          },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
  );
  // input-required-result-non-tool-request (issue 44): a prompt that asks for the context first (an input_required
  // round at 2026-07-28; at 2025 the SDK's legacy shim asks on the get's own stream), then is given.
  server.registerPrompt('test_input_required_result_prompt', { description: 'A prompt that asks for its context first' }, async (ctx) => {
    const context = acceptedContent(ctx.mcpReq.inputResponses, 'user_context')?.context;
    if (typeof context === 'string')
      return { messages: [{ role: 'user', content: { type: 'text', text: `Use this context: ${context}` } }] };
    return inputRequired({
      inputRequests: {
        user_context: inputRequired.elicit({
          message: 'What context should the prompt use?',
          requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
        }),
      },
    });
  });
  server.registerPrompt('test_prompt_with_image', { description: 'A prompt with image content' }, async () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  }));
}
