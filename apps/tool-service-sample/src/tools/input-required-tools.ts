import { dataReply, inputRequiredReply, type Reply } from '../http/reply';
import { type CallInput, DEFAULT_TIMEOUT_MILLIS, defineTool, NO_ARGUMENTS, READ_ONLY, type Tool } from './define-tool';

/**
 * The tools the `input-required-result-*` scenarios of the MCP conformance suite call (0.2.0-alpha.12,
 * SEP-2322 MRTR), each asking for input as its scenario describes and completing once the retry brings the
 * answers (and the state) back. The gateway relays them: it seals each `requestState` and refuses one the
 * client altered, so no tool here checks integrity itself.
 */
type InputRequest = { method: string; params: object };

const elicit = (message: string, properties: Record<string, object>): InputRequest => ({
  method: 'elicitation/create',
  params: { message, requestedSchema: { type: 'object', properties, required: Object.keys(properties) } },
});
const sample = (text: string, maxTokens: number): InputRequest => ({
  method: 'sampling/createMessage',
  params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens },
});
const LIST_ROOTS: InputRequest = { method: 'roots/list', params: {} };

/** The fields a user gave in an accepted elicitation; undefined for a decline, a cancel or a malformed answer. */
function accepted(input: CallInput, key: string): Record<string, unknown> | undefined {
  const answer = input.inputResponses?.[key] as { action?: unknown; content?: unknown } | undefined;
  return answer?.action === 'accept' && typeof answer.content === 'object' && answer.content !== null
    ? (answer.content as Record<string, unknown>)
    : undefined;
}

/** The text of a sampling answer. */
function sampledText(input: CallInput, key: string): string | undefined {
  const text = (input.inputResponses?.[key] as { content?: { text?: unknown } } | undefined)?.content?.text;
  return typeof text === 'string' ? text : undefined;
}

/** The root URIs of a roots/list answer. */
function rootUris(input: CallInput, key: string): string[] | undefined {
  const roots = (input.inputResponses?.[key] as { roots?: unknown } | undefined)?.roots;
  return Array.isArray(roots) ? roots.map((root) => String((root as { uri?: unknown }).uri)) : undefined;
}

function mrtrTool(name: string, description: string, handle: (input: CallInput) => Reply): Tool {
  return defineTool<Record<string, never>>({
    name,
    title: `Conformance: ${name.replace('test_input_required_result_', '').replace(/_/g, ' ')}`,
    description: `${description} Used by the MCP conformance suite (input-required-result scenarios).`,
    inputSchema: NO_ARGUMENTS,
    annotations: READ_ONLY,
    timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
    handle: (_args, _signal, input) => handle(input),
  });
}

const ASK_NAME = elicit('What is your name?', { name: { type: 'string' } });
const CONFIRM = elicit('Please confirm', { ok: { type: 'boolean' } });

/** Re-asks while the answer is missing, declined or malformed (the scenario's SHOULD: not an error). */
const elicitation = mrtrTool('test_input_required_result_elicitation', 'Asks the user for a name, then greets them.', (input) => {
  const name = accepted(input, 'user_name')?.name;
  return typeof name === 'string' ? dataReply(`Hello, ${name}!`) : inputRequiredReply({ user_name: ASK_NAME });
});

const sampling = mrtrTool(
  'test_input_required_result_sampling',
  "Asks the client's model a question, then answers with its reply.",
  (input) => {
    const text = sampledText(input, 'capital_question');
    return text !== undefined
      ? dataReply(`The model said: ${text}`)
      : inputRequiredReply({ capital_question: sample('What is the capital of France?', 100) });
  },
);

const listRoots = mrtrTool('test_input_required_result_list_roots', 'Asks the client for its roots, then lists them.', (input) => {
  const uris = rootUris(input, 'client_roots');
  return uris !== undefined ? dataReply(`Roots: ${uris.join(', ')}`) : inputRequiredReply({ client_roots: LIST_ROOTS });
});

const requestState = mrtrTool(
  'test_input_required_result_request_state',
  'Asks for a confirmation with a requestState, and checks the state comes back.',
  (input) =>
    input.requestState === 'confirmation-asked' && accepted(input, 'confirm')
      ? dataReply('state-ok: confirmed')
      : inputRequiredReply({ confirm: CONFIRM }, 'confirmation-asked'),
);

const multipleInputs = mrtrTool(
  'test_input_required_result_multiple_inputs',
  'Asks for a name, a sample and the roots at once.',
  (input) => {
    const name = accepted(input, 'user_name')?.name;
    const greeting = sampledText(input, 'greeting');
    const uris = rootUris(input, 'client_roots');
    if (input.requestState === 'three-inputs' && typeof name === 'string' && greeting !== undefined && uris !== undefined) {
      return dataReply(`${greeting} ${name}, your roots: ${uris.join(', ')}`);
    }
    return inputRequiredReply(
      { user_name: ASK_NAME, greeting: sample('Generate a greeting', 50), client_roots: LIST_ROOTS },
      'three-inputs',
    );
  },
);

/** Three rounds; the name given in the first travels to the third in the (sealed) state. */
const multiRound = mrtrTool('test_input_required_result_multi_round', 'Asks for a name, then a colour, over two rounds.', (input) => {
  const name = accepted(input, 'step1')?.name;
  if (input.requestState === 'round-1' && typeof name === 'string') {
    return inputRequiredReply({ step2: elicit('Step 2: What is your favorite color?', { color: { type: 'string' } }) }, `round-2:${name}`);
  }
  const color = accepted(input, 'step2')?.color;
  if (input.requestState?.startsWith('round-2:') && typeof color === 'string')
    return dataReply(`${input.requestState.slice('round-2:'.length)} likes ${color}`);
  return inputRequiredReply({ step1: elicit('Step 1: What is your name?', { name: { type: 'string' } }) }, 'round-1');
});

const tamperedState = mrtrTool(
  'test_input_required_result_tampered_state',
  'Asks for a confirmation with a requestState that the gateway seals.',
  (input) =>
    input.requestState === 'confirmation-asked'
      ? dataReply('state intact')
      : inputRequiredReply({ confirm: CONFIRM }, 'confirmation-asked'),
);

/** Asks only for what the client declared it can give (the gateway passes the declaration on). */
const capabilities = mrtrTool(
  'test_input_required_result_capabilities',
  'Asks for input only of the kinds the client declared.',
  (input) => {
    if (input.inputResponses !== undefined) return dataReply(`answered: ${Object.keys(input.inputResponses).join(', ')}`);
    const declared = new Set(input.clientCapabilities);
    const requests: Record<string, InputRequest> = {};
    if (declared.has('elicitation')) requests.user_name = ASK_NAME;
    if (declared.has('sampling')) requests.summary = sample('Summarise the day in one line', 50);
    if (declared.has('roots')) requests.client_roots = LIST_ROOTS;
    return Object.keys(requests).length > 0
      ? inputRequiredReply(requests)
      : dataReply('nothing asked: the client declared no input capabilities');
  },
);

export const INPUT_REQUIRED_TOOLS: readonly Tool[] = [
  elicitation,
  sampling,
  listRoots,
  requestState,
  multipleInputs,
  multiRound,
  tamperedState,
  capabilities,
];
