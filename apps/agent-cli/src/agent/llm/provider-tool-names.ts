import { createHash } from 'node:crypto';

/** OpenAI's rule for function names; Ollama, vLLM and llama.cpp accept every name that follows it. */
const PROVIDER_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_LENGTH = 64;
const HASH_LENGTH = 8;
const MAX_HASH_LENGTH = 32;

/**
 * The names the model sees for the registry's tools (SPEC A15). A name that already follows the provider
 * rule is sent as it is; any other is sanitised (every other character becomes `_`) and, when that is too
 * long or collides with a name already taken, shortened and given a hash of the original name. The table
 * is built from the sorted names, so the same set of tools always gives the same names, whatever order they
 * were registered in. Mapping back is a lookup in this table: a provider name is never parsed.
 */
export class ProviderToolNames {
  private readonly toProviderName = new Map<string, string>();
  private readonly toRegistryName = new Map<string, string>();

  constructor(registryNames: Iterable<string>) {
    const names = [...new Set(registryNames)].sort();
    // Valid names are taken first, so a sanitised name can never push a valid one off its own name.
    for (const name of names.filter(isProviderSafe)) this.assign(name, name);
    for (const name of names.filter((n) => !isProviderSafe(n))) this.assign(name, this.freeNameFor(name));
  }

  /** The name to send to the provider for a registry name, or undefined for a tool not in the table. */
  providerName(registryName: string): string | undefined {
    return this.toProviderName.get(registryName);
  }

  /** The registry name behind a name the model used, or undefined when the model made it up. */
  registryName(providerName: string): string | undefined {
    return this.toRegistryName.get(providerName);
  }

  private assign(registryName: string, providerName: string): void {
    this.toProviderName.set(registryName, providerName);
    this.toRegistryName.set(providerName, registryName);
  }

  private freeNameFor(name: string): string {
    const sanitised = name.replace(/[^a-zA-Z0-9_-]/g, '_');
    if (sanitised.length > 0 && sanitised.length <= MAX_LENGTH && !this.toRegistryName.has(sanitised)) return sanitised;
    const hash = createHash('sha256').update(name).digest('hex');
    // A longer slice of the hash on the (astronomically rare) collision of two short ones keeps it deterministic.
    for (let length = HASH_LENGTH; length <= MAX_HASH_LENGTH; length += HASH_LENGTH) {
      const suffix = `_${hash.slice(0, length)}`;
      const candidate = sanitised.slice(0, MAX_LENGTH - suffix.length) + suffix;
      if (!this.toRegistryName.has(candidate)) return candidate;
    }
    throw new Error(`no free provider name for tool "${name}"`); // unreachable: 32 hex digits of sha256 do not collide
  }
}

export function isProviderSafe(name: string): boolean {
  return PROVIDER_NAME_PATTERN.test(name);
}
