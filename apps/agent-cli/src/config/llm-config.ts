import type { ConfigReader } from './config-reader';

/** The `llm:` section: which OpenAI-compatible server and model the agent plans with. */
export interface LlmConfig {
  /** The server's OpenAI-compatible base URL; `/chat/completions` is appended. */
  readonly baseUrl: string;
  /** Required by `run` and `chat` (or `--model`); other commands do without. */
  readonly model?: string;
  /** The NAME of the environment variable holding the API key; none for servers without keys (Ollama, llama.cpp). */
  readonly apiKeyEnv?: string;
  /** The most model turns one task may take before the guard stops it. */
  readonly maxTurns: number;
  /** The longest wait for a reply to start, and between two pieces of a streamed reply. */
  readonly requestTimeoutMs: number;
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
  baseUrl: 'http://127.0.0.1:11434/v1',
  maxTurns: 20,
  requestTimeoutMs: 120_000,
  maxToolResultChars: 100_000,
  audioInput: false,
  // About a tenth of a 100k-token context: 60 to 100 typical MCP tools are sent whole, more are deferred.
  toolDefinitionBudget: 10_000,
};

export const LLM_KEYS = [
  'baseUrl',
  'model',
  'apiKeyEnv',
  'maxTurns',
  'requestTimeoutMs',
  'systemPrompt',
  'maxToolResultChars',
  'audioInput',
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
  return {
    baseUrl: httpUrl(llm.at('baseUrl')) ?? DEFAULT_LLM_CONFIG.baseUrl,
    model: llm.at('model').optionalString(),
    apiKeyEnv,
    maxTurns: llm.at('maxTurns').positiveInteger(DEFAULT_LLM_CONFIG.maxTurns),
    requestTimeoutMs: llm.at('requestTimeoutMs').positiveInteger(DEFAULT_LLM_CONFIG.requestTimeoutMs),
    systemPrompt: llm.at('systemPrompt').optionalString(),
    maxToolResultChars: llm.at('maxToolResultChars').positiveInteger(DEFAULT_LLM_CONFIG.maxToolResultChars),
    audioInput: llm.at('audioInput').boolean(DEFAULT_LLM_CONFIG.audioInput),
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
