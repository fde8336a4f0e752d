import { CodedError } from '@toolmesh/protocol';
/**
 * Local errors of the agent CLI. Stable string codes, listed in docs/errors.md ("agent-cli"); a test
 * keeps the two in agreement. Messages say what to do; they never contain a header or env value.
 */
export const AgentErrorCode = {
  /** The configuration file does not exist or cannot be read. */
  ConfigNotFound: 'config.not_found',
  /** The configuration file is not valid YAML/JSON, or not shaped like an agent configuration. */
  ConfigInvalid: 'config.invalid',
  /** A `${VAR}` (without `:-default`) in the configuration names a variable that is not set. */
  ConfigMissingVariable: 'config.missing_variable',
  /** Two servers in the configuration have the same name. */
  ConfigDuplicateServer: 'config.duplicate_server',
  /** `mcp add` / `mcp remove` waited too long for another agent-cli editing the same configuration file. */
  ConfigLocked: 'config.locked',
  /** A server name does not match ^[a-z0-9]([a-z0-9-]*[a-z0-9])?$. */
  InvalidServerName: 'server.invalid_name',
  /** A server could not be connected at startup, or missed the startup deadline. */
  ServerUnavailable: 'server.unavailable',
  /** A second server with an already connected name was refused at startup. */
  DuplicateServer: 'server.duplicate',
  /** Registering a tool whose name the registry already holds. */
  DuplicateTool: 'tool.duplicate',
  /** `call` named a tool the registry does not hold. */
  ToolNotFound: 'tool.not_found',
  /** Tool arguments are not a JSON object or do not satisfy the tool's input schema. */
  InvalidArguments: 'tool.invalid_arguments',
  /** A built-in file tool named a path outside the workspace (the working directory and `workspaceRoots`): refused. */
  OutsideWorkspace: 'tool.outside_workspace',
  /** `serve` would have the file system's root or the home directory as its workspace: pass `--workspace <folder>`. */
  ServeWorkspaceTooWide: 'serve.workspace_too_wide',
  /** A folder of the CLI's own files under the working directory (`.agent-cli`, a folder in it) is a symbolic link: nothing is written through it. */
  PlantedLink: 'files.planted_link',
  /** `run` / `chat` without a model: neither `llm.model` in the configuration nor `--model`. */
  LlmModelNotConfigured: 'llm.model_not_configured',
  /** The LLM server could not be reached (connection refused, unknown host, ...) at `llm.baseUrl`. */
  LlmUnreachable: 'llm.unreachable',
  /** The LLM server refused the key (HTTP 401 / 403). */
  LlmUnauthorized: 'llm.unauthorized',
  /** The LLM server does not know the model or the path (HTTP 404). */
  LlmModelNotFound: 'llm.model_not_found',
  /** The LLM server answered with another error status (429, 5xx, ...) or an error object in its stream. */
  LlmRequestFailed: 'llm.request_failed',
  /** The LLM server did not start answering, or stopped streaming, within `llm.requestTimeoutMs`. */
  LlmTimeout: 'llm.timeout',
  /** The LLM server's reply is not a chat completion: a broken SSE stream, bad JSON, or missing fields. */
  LlmMalformedResponse: 'llm.malformed_response',
  /** A hook file listed under `hooks` does not exist or cannot be read. */
  HookFileNotFound: 'hooks.file_not_found',
  /** A hook file is not valid YAML, or its hooks are not shaped as docs/agent-cli.md describes. */
  HookFileInvalid: 'hooks.file_invalid',
  /** LoadSkill, ReadSkillFile or `skills` named a skill that no server and no folder offers, or a name several offer without its origin. */
  SkillUnknown: 'skills.unknown',
  /** ReadSkillFile named a file that the skill's listing does not list, or a path out of a local skill's folder. */
  SkillFileUnknown: 'skills.file_unknown',
  /** A server's skill file does not match the listing (size, sha256 digest, front matter): the skill is not used. */
  SkillRefused: 'skills.refused',
  /** A command or built-in tool named an MCP server that is not in the configuration. */
  ServerNotFound: 'server.not_found',
  /** The named server is connected but did not declare the feature asked for (resources, prompts) at initialize. */
  FeatureNotOffered: 'server.feature_not_offered',
  /** `prompts get` / `/prompt` arguments are not `key=value`, or a required prompt argument is missing. */
  InvalidPromptArguments: 'prompt.invalid_arguments',
  /** `prompts get` / `/prompt` named a prompt the server does not list. */
  PromptNotFound: 'prompt.not_found',
  /** An HTTP server needs an OAuth sign-in and this command cannot ask for one (no terminal): run `agent-cli mcp login <server>`. */
  OAuthLoginRequired: 'oauth.login_required',
  /** An OAuth sign-in failed: discovery, registration, the browser's answer, the token exchange, or an issuer or resource check. */
  OAuthFailed: 'oauth.failed',
  /** The server asked again for scope it was just granted (403 insufficient_scope): no sign-in will satisfy it. */
  OAuthInsufficientScope: 'oauth.insufficient_scope',
  /** `mcp login` / `mcp logout` named a server that does not use OAuth (stdio, legacy SSE, or static credentials). */
  OAuthNotConfigured: 'oauth.not_configured',
  /** A server asked the user to open a URL that is not https (plain http only to this machine) or not a URL at all: not shown as a link, not opened. */
  UrlElicitationRefused: 'elicitation.url_refused',
  /** A URL a server asked the user to open was not finished: declined, not done within `serverRequests.urlWaitMs`, or no terminal to say when it was. */
  UrlElicitationUnfinished: 'elicitation.url_unfinished',
} as const;

export type AgentErrorCode = (typeof AgentErrorCode)[keyof typeof AgentErrorCode];

export class AgentError extends CodedError<AgentErrorCode> {
  override readonly name = 'AgentError';
}

/** A `${VAR}` without a default whose variable is unset, as the shared expansion (`@toolmesh/protocol`) reports it. */
export const missingConfigVariable = (message: string): AgentError => new AgentError(AgentErrorCode.ConfigMissingVariable, message);
