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

/** Everything a model adapter needs: where, which model, the key, and the limits. */
export interface ModelSettings {
  readonly provider: LlmProvider;
  /** The API's base URL (the provider's own, or a proxy's, or a test's loopback fake). */
  readonly baseUrl: string;
  readonly model: string;
  /** The key, read from the environment variable `apiKeyEnv` names; absent for servers that need none. */
  readonly apiKey?: string;
  /** Named in error messages (never the key itself). */
  readonly apiKeyEnv?: string;
  /** Whether `apiKeyEnv` came from `llm.apiKeyEnv` (else it is the provider's usual variable). */
  readonly apiKeyEnvConfigured?: boolean;
  /** The longest wait for the reply to start, and between two pieces of a streamed reply. */
  readonly requestTimeoutMs: number;
  /** The most tokens one answer may take; absent: the provider's default (Anthropic requires one: 8192). */
  readonly maxOutputTokens?: number;
}
