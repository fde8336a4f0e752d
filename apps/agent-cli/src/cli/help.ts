import { DEFAULT_CONFIG_FILE } from '../config/load-config';
import { PROGRAM } from '../program-name';
import { EXIT_CODES_HELP } from './exit-codes';

const CONFIG_OPTION = `  -c, --config <file>   Configuration file (default: ./${DEFAULT_CONFIG_FILE}). YAML with mcp.servers, or a
                        JSON file with "mcpServers" as Claude Desktop / Claude Code keep it;
                        its "hooks" list the hook files (docs/agent-cli.md#hooks). It is read over
                        the user's, $XDG_CONFIG_HOME/toolmesh-agent/${DEFAULT_CONFIG_FILE}, if any
`;
const MCP_SERVER_OPTION = `      --mcp-server <name>=<command line | http(s) URL>
                        A server for this run alone (repeatable), besides the configured ones (it
                        replaces one of the same name); the command line is split at spaces
`;
const WORKSPACE_OPTION = `  -w, --workspace <folder>
                        Work as if started in this folder: the built-in file tools keep to it (and to
                        the configuration's workspaceRoots), Bash starts in it, ./${DEFAULT_CONFIG_FILE} is read from it
`;
const JSON_OPTION = `      --json            Print machine-readable JSON on stdout (progress stays on stderr)
`;
const APPROVAL_OPTIONS = `  -y, --yes             Approve every tool call that needs approval (mutating or destructive) and every
                        sampling request of a server without asking (never an elicitation form)
      --max-side-effect <read-only|mutating|destructive>
                        Refuse, without asking, any tool call whose side effects are above this level
                        (default: destructive, i.e. nothing is refused for its side effects alone)
      --approve-changed-tools
                        Approve every MCP tool whose definition changed since it was approved (--yes
                        never does; without it such a tool is withheld, see "${PROGRAM} tools --help")
`;
const HELP_OPTION = `  -h, --help            Show help (also: ${PROGRAM} <command> --help)
`;

/** The options a command's help lists: only those that do something there. */
function commandOptions(has: { readonly json: boolean; readonly approval: boolean }): string {
  return `Options:\n${CONFIG_OPTION}${MCP_SERVER_OPTION}${WORKSPACE_OPTION}${has.json ? JSON_OPTION : ''}${has.approval ? APPROVAL_OPTIONS : ''}${HELP_OPTION}`;
}

const GLOBAL_OPTIONS = `Options:
${CONFIG_OPTION}${MCP_SERVER_OPTION}${WORKSPACE_OPTION}${JSON_OPTION}${APPROVAL_OPTIONS}${HELP_OPTION}  -V, --version         Print the version and exit
`;
const LISTING_OPTIONS = commandOptions({ json: true, approval: false });

export const HELP = `${PROGRAM} - an agent runtime whose MCP client makes any MCP server's tools feel built in

Usage:
  ${PROGRAM} <command> [options]

Commands:
  servers               Connect to every configured MCP server; show status, tool count and timing
  tools                 List the built-in tools and those of the connected servers, with side effects
  call <tool> [json]    Call one tool with a JSON object of arguments (default {})
  run "<task>"          Let the agent do one task with the configured LLM and the tools, then exit
  chat                  Talk with the agent: one message per line, /exit or Ctrl-D to leave
  watch                 Print the events the servers' notifications become, one JSON line each
  resources [list|templates|read]
                        List the connected servers' resources and templates, or read one
  prompts [list|get]    List the connected servers' prompts, or get one with its arguments
  skills                List the skills of the connected servers and of skills.folders
  tasks [list|cancel]   List the tasks the connected servers hold (MCP Tasks), or cancel one
  mcp add|remove|enable|disable|list|get|login|logout
                        Edit the configuration's server list (like claude mcp); starts no server;
                        login / logout: sign in to an http server with OAuth, or forget it
  serve                 Serve the built-in tools as an MCP server on stdio, for another MCP host
  help [command]        Show help for a command

${GLOBAL_OPTIONS}
Approval: read-only tools run without asking; mutating and destructive ones are asked about on the
terminal (stdin and stderr must be a TTY). Without a terminal and without --yes they are refused.
"call" is your own explicit action and runs without asking; --max-side-effect still applies.
Servers may ask the client back: sampling (the configured model answers a server's request) is
decided like a mutating call: asked at the terminal, approved by --yes, refused without either or
under --max-side-effect read-only; elicitation (a server asks you for information) is a form on the
terminal, declined without one; the roots offered are the server's "roots" (default: none, so a
server keeps the folders its own arguments give).
An MCP server's read-only / destructive annotations count only under annotationTrust: trust (and its
read-only claims alone under annotationTrust: read-only), and are shown as the server's claims. A
toolmesh gateway's tools federated from other MCP servers carry those servers' claims: read-only
ignores them, read-only-federated believes their read-only claims too.
Hooks: the hook files the configuration lists under "hooks" may allow, deny or defer a call before
the gate asks (a hook that cannot answer is a warning, never a failure); see docs/agent-cli.md#hooks.

Progress while connecting goes to stderr. Documentation: docs/agent-cli.md

${EXIT_CODES_HELP}`;

const AGENT_OPTIONS = `Agent options (run, chat):
      --model <name>    The model to use (overrides llm.model; one of the two is required)
      --max-turns <n>   Stop after this many model turns per message (default: llm.maxTurns, 20)
      --transcript <file>
                        Write the JSONL transcript here (default: .agent-cli/transcripts/<time>-<pid>.jsonl)
`;

const LLM_NOTE = `The model is set in the configuration's llm section: provider (openai-chat, the default: any
OpenAI-compatible chat-completions server such as Ollama, vLLM, llama.cpp server, OpenAI; anthropic;
openai-responses; gemini), baseUrl (default: the provider's; for openai-chat http://127.0.0.1:11434/v1, a
local Ollama), model, apiKeyEnv (the NAME of the environment variable holding the key; default
ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY or GOOGLE_API_KEY), maxTurns, requestTimeoutMs,
maxReplyMs (the longest one reply may take, however it streams; default 15 min), systemPrompt. Every tool call goes through the approval gate (see ${PROGRAM} --help). The transcript
records every step: the task, the model's answers, each tool call, its approval and its result.`;

export const COMMAND_HELP: Readonly<Record<string, string>> = {
  servers: `Usage: ${PROGRAM} servers [--config <file>] [--json]

Connects to every configured MCP server at once (one startup deadline for all) and shows, per server,
whether it connected, the protocol version it speaks (2026-07-28, or the 2025 one initialize agreed; the
server's "era" setting: auto, 2026-07-28 or legacy), how long it took, how many tools it offers, and why
it failed if it did.
Exits with 4 when any server failed.

${LISTING_OPTIONS}
${EXIT_CODES_HELP}`,
  tools: `Usage: ${PROGRAM} tools [--config <file>] [--json] [--approve <server>[/<tool>]]

Lists the agent's built-in tools (Read, Write, Edit, Glob, Grep, Bash, WaitForEvent) and the tools of every connected
server as the agent sees them (mcp__<server>__<tool>), with the side effects the agent assumes (read-only
or mutating, destructive or not; see annotationTrust for server tools) and the description.
--json adds each tool's input schema and each server tool's pin. Exits with 4 when any server failed
(its tools are missing).

Pinned definitions: the first time a server's tool is seen, its definition (name, title, description,
schemas, annotations) is pinned in $XDG_CONFIG_HOME/toolmesh-agent/tool-pins (default ~/.config), mode
0600. A tool whose definition later differs is withheld: never offered to the model, its calls refused,
until approved. "run" and "chat" at a terminal ask once per changed tool, showing a diff; elsewhere a
warning names the server and tool. "pin" in --json: "new" (pinned now), "pinned", or "changed" (with
"pinnedHash" and "hash").
      --approve <server>[/<tool>]
                        Approve the changed definitions of the server's tools (or of one), pinning
                        them as they are now (repeatable); one that names no tool exits with 2

${LISTING_OPTIONS}
${EXIT_CODES_HELP}`,
  call: `Usage: ${PROGRAM} call <tool> [json] [--config <file>] [--json]

Calls one tool. <tool> is the name "${PROGRAM} tools" shows (Read, ..., mcp__<server>__<tool>); [json] is a JSON object
of arguments, checked against the tool's input schema first (default: {}). Prints the result's text, or
with --json the whole result ({"isError", "content", "structuredContent"}).
The call is your own explicit action: it runs without asking and needs no --yes, whatever its side
effects; --max-side-effect still refuses what is above it, and a hook that defers asks you.
Only the servers the call needs are started: the tool's own and those the configured hooks call.
Exits with 1 when the tool returned an error result.

Example:
  ${PROGRAM} call mcp__everything__echo '{"message":"hello"}'

${commandOptions({ json: true, approval: true })}
${EXIT_CODES_HELP}`,
  run: `Usage: ${PROGRAM} run "<task>" [--model <name>] [--max-turns <n>] [--transcript <file>] [--yes] [--json] [--leave-tasks]

Gives the task to the agent: the model plans, calls built-in and MCP tools through the approval gate,
and answers when done. The model's text streams to stdout; tool progress and questions go to stderr.
With --json, stdout is one JSON object at the end: {"outcome", "text", "transcript"}.
Exits with 0 when the model finished, 5 when it finished but every tool call it asked for was
refused, 6 when the max-turns guard stopped it, 1 when the LLM request failed (stderr says what to
fix), 3 without a model.

A call of a tool its server runs as a task (MCP Tasks) gives the model the task's handle at once; the
result comes to the model when the task ends. run does not end while such a task still runs: it waits,
saying so on stderr. --leave-tasks ends when the model answers and leaves them running at their servers.

${LLM_NOTE}

Example:
  ${PROGRAM} run --model llama3.1 "Read package.json and tell me the project's name"

${AGENT_OPTIONS}
${commandOptions({ json: true, approval: true })}
${EXIT_CODES_HELP}`,
  chat: `Usage: ${PROGRAM} chat [--model <name>] [--max-turns <n>] [--transcript <file>] [--yes]

An interactive conversation: type a message at the "> " prompt; the agent answers, calling tools as
it needs them, and the conversation goes on until /exit or the end of input (Ctrl-D). Approval
questions are asked at the same prompt: answer y or n. Without a terminal, chat reads its messages
from stdin, one per line, and refuses calls that need approval unless --yes is given.

Slash commands:
  /prompt <server> <name> [key=value ...]
                        Send a server's prompt (see ${PROGRAM} prompts) as your message
  /roots <server> [<directory> ...]
                        Offer the server these directories as its roots from now on (it is told at
                        once); without directories, show its roots
  /tasks                List the tasks the agent's calls became that still run (MCP Tasks); one that
                        ends while the chat waits for your line wakes the agent with its result
  /tasks cancel <id>    Cancel one at its server (tasks/cancel)
  /exit                 Leave the chat

${LLM_NOTE}

${AGENT_OPTIONS}
${commandOptions({ json: false, approval: true })}
${EXIT_CODES_HELP}`,
  resources: `Usage: ${PROGRAM} resources [list [<server>]] [--json]
       ${PROGRAM} resources templates [<server>] [--json]
       ${PROGRAM} resources read <server> <uri> [--json]

Connects to the configured MCP servers and works with the resources of those that offer them:
  list        one row per resource (all servers, or <server> only): server, URI, name, MIME type, description
  templates   the resource templates: URIs with {placeholders} to fill in and read
  read        prints the resource's text (a binary part is named with its type and size);
              --json prints the whole result ({"contents": [{"uri", "mimeType", "text" | "blob"}]})
Names and descriptions from servers are shown escaped and cut. The model reads resources through
the built-in tools ListMcpResources and ReadMcpResource (read-only), offered when a server has some.
Exits with 4 when a server could not be connected or listed, 2 for an unknown server, 1 when the
server refused the read (an unknown URI).

Example:
  ${PROGRAM} resources read everything demo://resource/static/document/architecture.md

${LISTING_OPTIONS}
${EXIT_CODES_HELP}`,
  skills: `Usage: ${PROGRAM} skills [--json]

Lists the Agent Skills the model is offered: those of the connected MCP servers that declare the skills
extension (io.modelcontextprotocol/skills), and the subfolders with a SKILL.md of the folders under
"skills: { folders: [...] }" in the configuration. One row per skill: name, origin (mcp:<server> or
folder:<path>), description and SKILL.md's URI; --json prints {"skills": [...], "problems": [...]}.
Only the listings are read. The model sees the same names and descriptions, and loads a skill's
instructions with the built-in tool LoadSkill and its files with ReadSkillFile, a server's checked
against its listing (size, sha256 digest, front matter) and refused if they differ.
Exits with 4 when a server could not be connected or could not list its skills.

${LISTING_OPTIONS}
${EXIT_CODES_HELP}`,
  prompts: `Usage: ${PROGRAM} prompts [list [<server>]] [--json]
       ${PROGRAM} prompts get <server> <name> [key=value ...] [--json]

Connects to the configured MCP servers and works with the prompts of those that offer them:
  list        one row per prompt: server, name, arguments (required ones marked *), description
  get         prints the prompt's messages as text (headed by their role when not all are the user's);
              the arguments are checked against the prompt's own list first. --json prints the whole result.
In chat, /prompt <server> <name> [key=value ...] sends the prompt as your message.
Exits with 2 for an unknown server or prompt or wrong arguments, 4 when a server could not be connected.

Example:
  ${PROGRAM} prompts get everything args-prompt city=Paris state=France

${LISTING_OPTIONS}
${EXIT_CODES_HELP}`,
  tasks: `Usage: ${PROGRAM} tasks [list] [--json]
       ${PROGRAM} tasks cancel <id>

Connects to the configured MCP servers and works with the tasks (MCP Tasks) of those that take them:
  list        one row per task a server holds for this client: server, id, status, creation, message;
              a 2025-11-25 server lists them with tasks/list where it offers it, a 2026-07-28 one has
              no list (each is named on stderr as not listed). --json: {"tasks", "unlisted"}.
  cancel      sends tasks/cancel for the id to each server that takes tasks until one knows it.
A stdio server's tasks live and die with the process a run or chat started, so this command sees those
of servers it reaches over HTTP. In chat, /tasks and /tasks cancel <id> work on the session's own tasks.
Exits with 1 when no server cancelled the task, 4 when a server could not be connected.

${LISTING_OPTIONS}
${EXIT_CODES_HELP}`,
  mcp: `Usage: ${PROGRAM} mcp add [options] <name> <command> [args...]     a stdio server
       ${PROGRAM} mcp add [options] <name> <url>                      an http server (or --transport sse)
       ${PROGRAM} mcp remove <name>
       ${PROGRAM} mcp disable <name>                                  turn it off, kept in the file
       ${PROGRAM} mcp enable <name>                                   turn it on again
       ${PROGRAM} mcp list
       ${PROGRAM} mcp get <name>
       ${PROGRAM} mcp login <name>                                    sign in to an http server (OAuth)
       ${PROGRAM} mcp logout <name>                                   delete its stored credentials

Edits the server list of the configuration file (--config, default ./${DEFAULT_CONFIG_FILE}) as claude mcp
does, without starting any server: YAML keeps its comments and other settings, an mcpServers JSON file
keeps its other keys. "add" creates the file when there is none, refuses a name that is taken, and
checks the entry as the CLI will read it before writing. Put -- before a command whose arguments start
with "-". Values are written as given: "\${TOKEN}" stays a reference, expanded when the CLI reads the file.
"list" and "get" show the entries as written, with the protocol era each is spoken to with (auto unless
set); "${PROGRAM} servers" connects them and shows the version each speaks. "disable" turns a server
off without deleting it (enabled: false; "disabled": true in an mcpServers file), "enable" turns it on.
An entry's "tools: { allow: [...], deny: [...] }" (names or patterns with *, of the server's own tool
names) limits the tools the agent sees and may call (docs/agent-cli.md#configuration).

"login" signs in to an http server that uses OAuth (any http server without an Authorization header
or "oauth: false"): it connects the server, and when the server asks (HTTP 401) opens the
authorization page in the browser ($BROWSER, open or xdg-open; the address is also printed) and
waits up to five minutes for its redirect to http://127.0.0.1:<port>/callback. Tokens and the client
registration are kept per server in $XDG_CONFIG_HOME/toolmesh-agent/oauth (default ~/.config), mode
0600; other commands use and refresh them, and fail with oauth.login_required when a new sign-in is
needed. "logout" deletes them. Neither prints a token.

Options:
  -t, --transport <stdio|http|sse>  Default: http when the target is an http(s):// URL, else stdio
  -e, --env KEY=value               An environment variable of a stdio server (repeatable)
  -H, --header "Name: value"        A header of an http or sse server (repeatable; also Name=value)
      --era <auto|2026-07-28|legacy>
                                    The protocol era to speak (default auto); legacy for a server
                                    whose 2026-07-28 support fails
      --timeout <30s|2m|1500ms>     Timeout of each request to it (default 30s)
      --roots <folder>              Offer it this folder as an MCP root (repeatable; "." is this one).
                                    Default none: it keeps the folders its own arguments give
                                    (a filesystem server serves the roots instead, when given)
      --annotation-trust <ignore|read-only|read-only-federated|trust>
                                    How far its tool annotations are believed (default ignore);
                                    read-only for a toolmesh gateway (docs/agent-cli.md#trust)
  -c, --config <file>               The configuration file to edit
  -s, --scope <project|user>        project (default): that file; user: the user's configuration,
                                    $XDG_CONFIG_HOME/toolmesh-agent/${DEFAULT_CONFIG_FILE} (default ~/.config/...),
                                    read under every project's file
      --json                        Print the result as JSON

Examples:
  ${PROGRAM} mcp add memory -e MEMORY_FILE_PATH=/tmp/memory.jsonl -- npx -y @modelcontextprotocol/server-memory
  ${PROGRAM} mcp add docs https://docs.example.com/mcp -H "Authorization: Bearer \${DOCS_TOKEN}"
  ${PROGRAM} mcp add gateway --annotation-trust read-only http://127.0.0.1:8080/mcp   (a toolmesh gateway)
  ${PROGRAM} mcp add fs --roots . -- npx -y @modelcontextprotocol/server-filesystem   (serves this folder)
  ${PROGRAM} mcp add --scope user memory -- npx -y @modelcontextprotocol/server-memory   (every project)
  ${PROGRAM} mcp remove docs
  ${PROGRAM} mcp login linear

Exit codes: 0 done; 1 the sign-in failed; 2 usage error, an unknown or taken name, a server without
OAuth; 3 the file or the entry is invalid.
`,
  serve: `Usage: ${PROGRAM} serve --workspace <folder> [--yes] [--max-side-effect <level>] [--config <file>]

Serves the agent's built-in tools (Read, Write, Edit, Glob, Grep, Bash) as an MCP server on stdin and
stdout, for another MCP host to start as a stdio server, e.g. in its mcpServers:
  "agent-cli": { "command": "toolmesh-agent",
                 "args": ["serve", "--workspace", "/path/to/project", "--yes", "--max-side-effect", "mutating"] }
(toolmesh-agent: the installed package @toolmesh/agent-cli; see docs/agent-cli.md#installing-the-packages)
It speaks both protocol eras: 2026-07-28 to a host that opens with server/discover, 2025 to one that
opens with initialize.
The file tools keep to the workspace (--workspace, default the folder the host starts it in, and the
configuration's workspaceRoots): a path outside it is refused whatever the flags. A workspace that is
the file system's root or the home directory is refused at start: a host may start servers there.
Each call takes the same path as the agent's own: the configured hooks, --max-side-effect, and approval.
There is no terminal to ask on (stdin is the protocol), so mutating calls are refused unless --yes;
each tool's side effects are sent as annotations (readOnlyHint, destructiveHint, openWorldHint) for
the host to ask its user; --max-side-effect mutating keeps Bash, which reaches past the workspace, off.
The configured servers are connected for the hooks; their tools are not served.
Progress and warnings go to stderr. Ends when the host closes stdin, or at Ctrl-C / SIGTERM.

${commandOptions({ json: false, approval: true })}
${EXIT_CODES_HELP}`,
  watch: `Usage: ${PROGRAM} watch [--timeout <ms>] [--count <n>] [--config <file>]

Connects to every configured MCP server and prints each event its notifications become (the events the
WaitForEvent tool wakes on: resource updates, log messages, and the custom notifications mapped under
rewake.rules) as one JSON object per line on stdout, with or without --json:
  {"id","server","type","method","summary":{"uri","level","logger","data"},"receivedAt"}
Runs until Ctrl-C or SIGTERM (every server is stopped first), or until:
      --timeout <ms>    this many milliseconds have passed (exit 0)
      --count <n>       this many events have been printed (exit 0)
Exits with 4 when a server could not be connected (the others are watched), at once when none could.

Example:
  ${PROGRAM} watch --count 1 | jq .summary

${commandOptions({ json: false, approval: true })}
${EXIT_CODES_HELP}`,
};
