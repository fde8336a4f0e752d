import type { LlmProvider } from '../../config/llm-config';

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
  /** The longest one reply may take, start to end, however it streams (`llm.maxReplyMs`); absent: no ceiling. */
  readonly maxReplyMs?: number;
  /** The most tokens one answer may take; absent: the provider's default (Anthropic requires one: 8192). */
  readonly maxOutputTokens?: number;
}
