import type { ConfigReader } from './config-reader';

/** The model APIs the agent speaks natively (`llm.provider`). */
export const LLM_PROVIDERS = ['openai-chat', 'anthropic', 'openai-responses', 'gemini'] as const;
export type LlmProvider = (typeof LLM_PROVIDERS)[number];

interface ProviderDefaults {
  /** Where the provider's API is when `llm.baseUrl` is not given. */
  readonly baseUrl: string;
  /** The environment variables its key is read from when `llm.apiKeyEnv` is not given, the first one set; none: no key. */
  readonly keyVariables: readonly string[];
}

/**
 * Each provider's usual place and key variables. Chat completions default to Ollama on its default port and
 * to no key: a key is sent to an OpenAI-compatible server only when the configuration names its variable.
 */
export const PROVIDER_DEFAULTS: Readonly<Record<LlmProvider, ProviderDefaults>> = {
  'openai-chat': { baseUrl: 'http://127.0.0.1:11434/v1', keyVariables: [] },
  anthropic: { baseUrl: 'https://api.anthropic.com', keyVariables: ['ANTHROPIC_API_KEY'] },
  'openai-responses': { baseUrl: 'https://api.openai.com/v1', keyVariables: ['OPENAI_API_KEY'] },
  gemini: { baseUrl: 'https://generativelanguage.googleapis.com', keyVariables: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'] },
};

/** The `llm:` section: which model API, server and model the agent plans with. */
export interface LlmConfig {
  /** Which API the server speaks (default `openai-chat`: OpenAI-compatible chat completions, as Ollama's). */
  readonly provider: LlmProvider;
  /** The API's base URL; absent in the file: the provider's own (for `openai-chat`, Ollama on its default port). */
  readonly baseUrl: string;
  /** Required by `run` and `chat` (or `--model`); other commands do without. */
  readonly model?: string;
  /**
   * The NAME of the environment variable holding the API key; absent: the provider's usual one
   * (ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY or GOOGLE_API_KEY), and no key for `openai-chat`.
   */
  readonly apiKeyEnv?: string;
  /** The most tokens one answer may take; absent: the provider's default (8192 for Anthropic, which requires one). */
  readonly maxOutputTokens?: number;
  /** The most model turns one task may take before the guard stops it. */
  readonly maxTurns: number;
  /** The longest wait for a reply to start, and between two pieces of a streamed reply. */
  readonly requestTimeoutMs: number;
  /**
   * The longest one reply may take, start to end, however it streams: a server that sends only SSE
   * keep-alive comments (or a byte at a time) keeps `requestTimeoutMs` from ever firing.
   */
  readonly maxReplyMs: number;
  readonly systemPrompt?: string;
  /** Characters of a tool result's text the model gets; the rest is cut with a note. */
  readonly maxToolResultChars: number;
  /** Whether audio results are passed to the model (`input_audio`, wav and mp3); most models refuse them. */
  readonly audioInput: boolean;
  /**
   * Estimated tokens (characters / 4) the MCP tools' definitions may take in each request; over it they are
   * deferred and found with `ToolSearch` (SPEC A21).
   */
  readonly toolDefinitionBudget: number;
}

/** Ollama's OpenAI-compatible endpoint on its default port: a local model works with no `llm:` section at all. */
export const DEFAULT_LLM_CONFIG: LlmConfig = {
  provider: 'openai-chat',
  baseUrl: PROVIDER_DEFAULTS['openai-chat'].baseUrl,
  maxTurns: 20,
  requestTimeoutMs: 120_000,
  // A long answer of a slow local model: 8,192 tokens at 10 tokens a second is under 14 minutes.
  maxReplyMs: 900_000,
  maxToolResultChars: 100_000,
  audioInput: false,
  // About a tenth of a 100k-token context: 60 to 100 typical MCP tools are sent whole, more are deferred.
  toolDefinitionBudget: 10_000,
};

/** Audio goes only to the APIs that take it in a request. */
const AUDIO_PROVIDERS: readonly LlmProvider[] = ['openai-chat', 'gemini'];

export const LLM_KEYS = [
  'provider',
  'baseUrl',
  'model',
  'apiKeyEnv',
  'maxTurns',
  'requestTimeoutMs',
  'maxReplyMs',
  'systemPrompt',
  'maxToolResultChars',
  'audioInput',
  'maxOutputTokens',
  'toolDefinitionBudget',
];

export function readLlmConfig(llm: ConfigReader): LlmConfig {
  if (!llm.present) return DEFAULT_LLM_CONFIG;
  llm.onlyKeys(LLM_KEYS);
  const apiKeyEnv = llm.at('apiKeyEnv').optionalString();
  // The setting names a variable; a key pasted here by mistake must not sit in the file (or an error message).
  if (apiKeyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(apiKeyEnv)) {
    throw llm.at('apiKeyEnv').fail('must be the name of an environment variable (e.g. OPENAI_API_KEY), not the key itself');
  }
  const provider = llm.at('provider').oneOf(LLM_PROVIDERS, DEFAULT_LLM_CONFIG.provider);
  const audioInput = llm.at('audioInput').boolean(DEFAULT_LLM_CONFIG.audioInput);
  if (audioInput && !AUDIO_PROVIDERS.includes(provider)) {
    throw llm.at('audioInput').fail(`is for the providers that take audio (${AUDIO_PROVIDERS.join(', ')}), not ${provider}`);
  }
  return {
    provider,
    baseUrl: httpUrl(llm.at('baseUrl')) ?? PROVIDER_DEFAULTS[provider].baseUrl,
    model: llm.at('model').optionalString(),
    apiKeyEnv,
    ...(llm.at('maxOutputTokens').present ? { maxOutputTokens: llm.at('maxOutputTokens').positiveInteger(0) } : {}),
    maxTurns: llm.at('maxTurns').positiveInteger(DEFAULT_LLM_CONFIG.maxTurns),
    requestTimeoutMs: llm.at('requestTimeoutMs').positiveInteger(DEFAULT_LLM_CONFIG.requestTimeoutMs),
    maxReplyMs: llm.at('maxReplyMs').positiveInteger(DEFAULT_LLM_CONFIG.maxReplyMs),
    systemPrompt: llm.at('systemPrompt').optionalString(),
    maxToolResultChars: llm.at('maxToolResultChars').positiveInteger(DEFAULT_LLM_CONFIG.maxToolResultChars),
    audioInput,
    toolDefinitionBudget: llm.at('toolDefinitionBudget').positiveInteger(DEFAULT_LLM_CONFIG.toolDefinitionBudget),
  };
}

function httpUrl(reader: ConfigReader): string | undefined {
  const text = reader.optionalString();
  if (text === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw reader.error('an http:// or https:// URL, e.g. http://127.0.0.1:11434/v1');
  return text;
}
