/** The environment a configuration is expanded from (`process.env`, or a test's own). */
export type VariableEnvironment = Readonly<Record<string, string | undefined>>;

/**
 * What a caller throws for a `${NAME}` whose variable is unset: its own coded error (the agent CLI's
 * `config.missing_variable`, the gateway's `gateway.config_invalid`) around the message given.
 */
export type MissingVariableError = (message: string) => Error;

/**
 * Replaces `${NAME}` in a configured value with the variable from our environment, so addresses and
 * secrets such as tokens stay out of configuration files; `${NAME:-default}` uses the default when the
 * variable is unset or empty (as the shell does), and so does Spring's `${NAME:default}`, the original
 * design's form (so a default that starts with `-` needs the shell's form: `${N:--1}`). `$${` writes a
 * literal `${`. A missing variable without
 * a default is an error that names the variable and where it is used, never a value.
 */
export function expandVariables(text: string, env: VariableEnvironment, where: string, missing: MissingVariableError): string {
  return text.replace(/\$?\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-?([^}]*))?\}/g, (match, name: string, fallback: string | undefined) => {
    if (match.startsWith('$$')) return match.slice(1);
    const value = env[name];
    if (fallback !== undefined) return value === undefined || value === '' ? fallback : value;
    if (value === undefined) {
      throw missing(
        `${where} uses \${${name}}, but the environment variable ${name} is not set; set it, or give a default: \${${name}:-value}`,
      );
    }
    return value;
  });
}

/**
 * Every string of a parsed configuration, expanded (SPEC A20, N7: `${VAR}` in every string field, not
 * only `env` and `headers`); map keys stay as they are. `where` is the path shown in errors (`mcp.servers[0].url`).
 */
export function expandStrings(value: unknown, env: VariableEnvironment, where: string, missing: MissingVariableError): unknown {
  if (typeof value === 'string') return expandVariables(value, env, where || 'the configuration', missing);
  if (Array.isArray(value)) return value.map((item, i) => expandStrings(item, env, `${where}[${i}]`, missing));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, expandStrings(item, env, where ? `${where}.${key}` : key, missing)]),
    );
  }
  return value;
}

export function expandAll(
  values: Readonly<Record<string, string>>,
  env: VariableEnvironment,
  where: string,
  missing: MissingVariableError,
): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, expandVariables(value, env, `${where}.${key}`, missing)]));
}
