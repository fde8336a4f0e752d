import { AgentError, AgentErrorCode } from '../errors/agent-errors';

/**
 * Replaces `${NAME}` in a configured value with the variable from our environment, so secrets such as
 * tokens stay out of configuration files. `$${` writes a literal `${`. A missing variable is an error
 * that names the variable and where it is used, never a value.
 */
export function expandVariables(text: string, env: NodeJS.ProcessEnv, where: string): string {
  return text.replace(/\$?\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (match, name: string) => {
    if (match.startsWith('$$')) return match.slice(1);
    const value = env[name];
    if (value === undefined) {
      throw new AgentError(AgentErrorCode.ConfigMissingVariable, `${where} uses \${${name}}, but the environment variable ${name} is not set`);
    }
    return value;
  });
}

export function expandAll(values: Readonly<Record<string, string>>, env: NodeJS.ProcessEnv, where: string): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, expandVariables(value, env, `${where}.${key}`)]));
}
