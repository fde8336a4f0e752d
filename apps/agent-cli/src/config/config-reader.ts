import { AgentError, AgentErrorCode } from '../errors/agent-errors';

/**
 * Typed reads out of an untyped configuration tree. Every failure names the file and the exact path
 * (`mcp.servers[1].command`) and says what was expected, so a user can fix it without reading code.
 * Failures carry `code`: `config.invalid` for the configuration, `hooks.file_invalid` for a hook file.
 */
export class ConfigReader {
  constructor(
    private readonly file: string,
    readonly value: unknown,
    readonly path: string,
    private readonly code: AgentErrorCode = AgentErrorCode.ConfigInvalid,
  ) {}

  at(key: string | number): ConfigReader {
    const child = typeof key === 'number' ? `${this.path}[${key}]` : this.path ? `${this.path}.${key}` : key;
    const value = this.isObject() || Array.isArray(this.value) ? (this.value as Record<string | number, unknown>)[key] : undefined;
    return new ConfigReader(this.file, value, child, this.code);
  }

  get present(): boolean {
    return this.value !== undefined && this.value !== null;
  }

  string(): string {
    if (typeof this.value !== 'string' || this.value.length === 0) throw this.error('a non-empty string');
    return this.value;
  }

  optionalString(): string | undefined {
    return this.present ? this.string() : undefined;
  }

  positiveInteger(fallback: number): number {
    if (!this.present) return fallback;
    if (!Number.isSafeInteger(this.value) || (this.value as number) <= 0) throw this.error('a positive whole number');
    return this.value as number;
  }

  boolean(fallback: boolean): boolean {
    if (!this.present) return fallback;
    if (typeof this.value !== 'boolean') throw this.error('true or false');
    return this.value;
  }

  oneOf<T extends string>(allowed: readonly T[], fallback: T): T {
    if (!this.present) return fallback;
    if (!allowed.includes(this.value as T)) throw this.error(`one of ${allowed.map((a) => `"${a}"`).join(', ')}`);
    return this.value as T;
  }

  stringList(): string[] {
    if (!this.present) return [];
    if (!Array.isArray(this.value)) throw this.error('a list of strings');
    return this.value.map((_, i) => {
      const item = this.at(i);
      if (typeof item.value !== 'string') throw item.error('a string');
      return item.value;
    });
  }

  /** A map of string values (env, headers); numbers and booleans are accepted as their text. */
  stringMap(): Record<string, string> {
    if (!this.present) return {};
    if (!this.isObject()) throw this.error('a map of names to values');
    return Object.fromEntries(
      Object.entries(this.value as Record<string, unknown>).map(([key, value]) => {
        if (!['string', 'number', 'boolean'].includes(typeof value)) throw this.at(key).error('a string');
        return [key, String(value)];
      }),
    );
  }

  list(): ConfigReader[] {
    if (!this.present) return [];
    if (!Array.isArray(this.value)) throw this.error('a list');
    return this.value.map((_, i) => this.at(i));
  }

  entries(): Array<[string, ConfigReader]> {
    if (!this.present) return [];
    if (!this.isObject()) throw this.error('a map');
    return Object.keys(this.value as object).map((key) => [key, this.at(key)]);
  }

  isObject(): boolean {
    return typeof this.value === 'object' && this.value !== null && !Array.isArray(this.value);
  }

  /** Refuses keys the format does not know, which are almost always typos. */
  onlyKeys(allowed: readonly string[]): void {
    if (!this.isObject()) throw this.error('a map');
    const unknown = Object.keys(this.value as object).find((key) => !allowed.includes(key));
    if (unknown !== undefined) throw this.at(unknown).fail(`is not a known setting (known: ${allowed.join(', ')})`);
  }

  error(expected: string): AgentError {
    return this.fail(`must be ${expected}`);
  }

  fail(problem: string): AgentError {
    return new AgentError(this.code, `${this.location} ${problem}`);
  }

  /** `file: path`, for messages about this value. */
  get location(): string {
    return `${this.file}: ${this.path || 'the file'}`;
  }
}
