import { loadConfig } from '../../config/load-config';
import { AgentError, AgentErrorCode } from '../../errors/agent-errors';
import { TransportClientFactory } from '../../mcp/client-factory';
import { cliOAuthHost } from '../../mcp/oauth/cli-oauth-host';
import { CredentialStore, userConfigDirectory } from '../../mcp/oauth/credential-store';
import { ServerOAuth } from '../../mcp/oauth/server-oauth';
import type { HttpServerConfig } from '../../mcp/server-config';
import { PROGRAM } from '../../program-name';
import type { CliIo } from '../command-context';
import { ExitCode } from '../exit-codes';

/** What `mcp login` and `mcp logout` need besides the server's name. */
export interface LoginContext {
  readonly io: CliIo;
  readonly file: string;
  readonly env: NodeJS.ProcessEnv;
  readonly version: string;
  readonly json: boolean;
}

/** Five minutes for the browser, on top of the server's own request timeout. */
const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

/**
 * `agent-cli mcp login <server>`: signs in now. The stored tokens are forgotten (the registration is
 * kept) and the server is connected and its tools listed, so its own 401 starts the flow exactly as
 * in any command, with the browser allowed. A server that never asks is reported as such.
 */
export async function mcpLogin(name: string, context: LoginContext): Promise<number> {
  const server = oauthServer(name, context);
  const oauth = new ServerOAuth(server.name, server.url, server.oauth ?? {}, {
    ...cliOAuthHost(context.env, true, context.io.stderr),
    signInTimeoutMs: SIGN_IN_TIMEOUT_MS,
  });
  oauth.forgetTokens();
  // The one factory, as the other commands connect, so the sign-in starts from the same first request.
  const factory = new TransportClientFactory(
    { name: 'agent-cli', version: context.version },
    { authorization: () => oauth, listen: false },
  );
  // Whichever request the server refuses first waits for the browser.
  const timeoutMs = server.requestTimeoutMs + SIGN_IN_TIMEOUT_MS;
  const client = factory.create({ ...server, requestTimeoutMs: timeoutMs, startupTimeoutMs: timeoutMs }, () => undefined);
  try {
    await client.connect();
    await client.listTools();
  } finally {
    await client.close().catch(() => undefined);
    await factory.close();
  }
  const credentials = new CredentialStore(userConfigDirectory(context.env)).fileFor(server.name, server.url);
  if (context.json) {
    context.io.stdout(
      `${JSON.stringify({ server: server.name, signedIn: oauth.authorized, credentials: oauth.authorized ? credentials : null }, null, 2)}\n`,
    );
  } else {
    context.io.stdout(
      oauth.authorized
        ? `signed in to MCP server "${server.name}"; the credentials are in ${credentials}\n`
        : `MCP server "${server.name}" did not ask for a sign-in\n`,
    );
  }
  return ExitCode.Ok;
}

/** `agent-cli mcp logout <server>`: deletes the server's stored tokens and registration. */
export function mcpLogout(name: string, context: LoginContext): number {
  const server = httpServer(name, context);
  const store = new CredentialStore(userConfigDirectory(context.env));
  const file = store.fileFor(server.name, server.url);
  const removed = store.remove(server.name, server.url);
  if (context.json) context.io.stdout(`${JSON.stringify({ server: server.name, removed, credentials: file }, null, 2)}\n`);
  else
    context.io.stdout(
      removed
        ? `removed the stored credentials of MCP server "${server.name}" (${file})\n`
        : `no credentials were stored for MCP server "${server.name}"\n`,
    );
  return ExitCode.Ok;
}

function oauthServer(name: string, context: LoginContext): HttpServerConfig {
  const server = httpServer(name, context);
  if (server.transport !== 'streamable-http' || !server.oauth) {
    throw new AgentError(
      AgentErrorCode.OAuthNotConfigured,
      `MCP server "${name}" does not use OAuth: it is ${server.transport === 'sse' ? 'a legacy SSE server' : 'configured with an Authorization header or oauth: false'}`,
    );
  }
  return server;
}

function httpServer(name: string, context: LoginContext): HttpServerConfig {
  const server = loadConfig(context.file, context.env).servers.find((s) => s.name === name);
  if (!server)
    throw new AgentError(
      AgentErrorCode.ServerNotFound,
      `${context.file} has no server named "${name}"; ${PROGRAM} mcp list shows the configured ones`,
    );
  if (server.transport === 'stdio')
    throw new AgentError(AgentErrorCode.OAuthNotConfigured, `MCP server "${name}" is a stdio server; OAuth is for http servers`);
  return server;
}
