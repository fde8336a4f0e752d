/**
 * The tools the input-required-result-* scenarios (SEP-2322, multi-round-trip requests) call, as their
 * scenario source describes them: each asks for input with an `input_required` result and completes once the
 * retry brings the answers back. Every `requestState` is sealed with REQUEST_STATES, so an altered one is
 * refused before a tool runs (input-required-result-tampered-state).
 */
import { acceptedContent, CLIENT_CAPABILITIES_META_KEY, inputRequired, inputResponse } from '@modelcontextprotocol/server';

import { REQUEST_STATES } from './conformance-features-tools.mjs';

const text = (value) => ({ content: [{ type: 'text', text: value }] });

const elicit = (message, properties) =>
  inputRequired.elicit({ message, requestedSchema: { type: 'object', properties, required: Object.keys(properties) } });
const sample = (prompt, maxTokens) =>
  inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens });
const ASK_NAME = () => elicit('What is your name?', { name: { type: 'string' } });
const CONFIRM = () => elicit('Please confirm', { ok: { type: 'boolean' } });

/** The text of a sampling answer under `key`, or undefined. */
function sampled(ctx, key) {
  const answer = inputResponse(ctx.mcpReq.inputResponses, key);
  return answer.kind === 'sampling' && typeof answer.result.content?.text === 'string' ? answer.result.content.text : undefined;
}

/** The root URIs of a roots/list answer under `key`, or undefined. */
function roots(ctx, key) {
  const answer = inputResponse(ctx.mcpReq.inputResponses, key);
  return answer.kind === 'roots' ? answer.roots.map((root) => root.uri) : undefined;
}

/** The client capabilities the request declares (2026-07-28), else those its session's initialize did (2025). */
const declaredCapabilities = (server, ctx) =>
  ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? server.server.getClientCapabilities() ?? {};

/** `input_required` with `inputRequests` and, when given, a sealed state carrying `state`. */
async function ask(inputRequests, state) {
  return inputRequired({ inputRequests, ...(state === undefined ? {} : { requestState: await REQUEST_STATES.mint(state) }) });
}

const TOOLS = {
  // A missing, declined or malformed answer asks again (input-required-result-missing-input-response,
  // -validate-input: a SHOULD, not an error).
  test_input_required_result_elicitation: async (ctx) => {
    const name = acceptedContent(ctx.mcpReq.inputResponses, 'user_name')?.name;
    return typeof name === 'string' ? text(`Hello, ${name}!`) : ask({ user_name: ASK_NAME() });
  },
  test_input_required_result_sampling: async (ctx) => {
    const reply = sampled(ctx, 'capital_question');
    return reply !== undefined
      ? text(`The model said: ${reply}`)
      : ask({ capital_question: sample('What is the capital of France?', 100) });
  },
  test_input_required_result_list_roots: async (ctx) => {
    const uris = roots(ctx, 'client_roots');
    return uris !== undefined ? text(`Roots: ${uris.join(', ')}`) : ask({ client_roots: inputRequired.listRoots() });
  },
  test_input_required_result_request_state: async (ctx) =>
    ctx.mcpReq.requestState()?.step === 'confirm' && acceptedContent(ctx.mcpReq.inputResponses, 'confirm')
      ? text('state-ok: confirmed')
      : ask({ confirm: CONFIRM() }, { step: 'confirm' }),
  test_input_required_result_multiple_inputs: async (ctx) => {
    const name = acceptedContent(ctx.mcpReq.inputResponses, 'user_name')?.name;
    const greeting = sampled(ctx, 'greeting');
    const uris = roots(ctx, 'client_roots');
    if (ctx.mcpReq.requestState()?.step === 'three' && typeof name === 'string' && greeting !== undefined && uris !== undefined)
      return text(`${greeting} ${name}, your roots: ${uris.join(', ')}`);
    return ask(
      { user_name: ASK_NAME(), greeting: sample('Generate a greeting', 50), client_roots: inputRequired.listRoots() },
      { step: 'three' },
    );
  },
  // Two rounds; the name given in the first travels to the second in the sealed state.
  test_input_required_result_multi_round: async (ctx) => {
    const state = ctx.mcpReq.requestState();
    const name = acceptedContent(ctx.mcpReq.inputResponses, 'step1')?.name;
    if (state?.round === 1 && typeof name === 'string')
      return ask({ step2: elicit('Step 2: What is your favorite color?', { color: { type: 'string' } }) }, { round: 2, name });
    const color = acceptedContent(ctx.mcpReq.inputResponses, 'step2')?.color;
    if (state?.round === 2 && typeof color === 'string') return text(`${state.name} likes ${color}`);
    return ask({ step1: elicit('Step 1: What is your name?', { name: { type: 'string' } }) }, { round: 1 });
  },
  test_input_required_result_tampered_state: async (ctx) =>
    ctx.mcpReq.requestState()?.step === 'confirm' ? text('state intact') : ask({ confirm: CONFIRM() }, { step: 'confirm' }),
  // Asks only for what the client declared it can give.
  test_input_required_result_capabilities: async (ctx, server) => {
    if (ctx.mcpReq.inputResponses !== undefined) return text(`answered: ${Object.keys(ctx.mcpReq.inputResponses).join(', ')}`);
    const declared = declaredCapabilities(server, ctx);
    const requests = {
      ...(declared.elicitation ? { user_name: ASK_NAME() } : {}),
      ...(declared.sampling ? { summary: sample('Summarise the day in one line', 50) } : {}),
      ...(declared.roots ? { client_roots: inputRequired.listRoots() } : {}),
    };
    return Object.keys(requests).length > 0 ? ask(requests) : text('nothing asked: the client declared no input capabilities');
  },
};

export function registerInputRequiredTools(server) {
  for (const [name, handle] of Object.entries(TOOLS)) {
    server.registerTool(
      name,
      { description: `Conformance: ${name.replace('test_input_required_result_', '').replace(/_/g, ' ')}` },
      (ctx) => handle(ctx, server),
    );
  }
}
