import { errorMessage } from '@toolmesh/protocol';

import type { SideEffectCap } from '../agent/approval/side-effect-cap';
import type { ChatModel } from '../agent/llm/chat-model';
import { createChatModel } from '../agent/llm/create-chat-model';
import type { AgentConfig } from '../config/load-config';
import { ClientFeatures } from '../mcp/host/client-features';
import type { SamplingGate, SamplingModel } from '../mcp/host/sampling';
import { DEFAULT_SERVER_REQUEST_LIMITS } from '../mcp/host/server-request-limits';
import { BrowserLaunches } from '../mcp/oauth/user-agent';
import { PROGRAM } from '../program-name';
import { modelSettings } from './agent-session';
import type { AgentOptions, CliIo } from './command-context';

export interface ClientFeatureSettings {
  readonly config: AgentConfig;
  readonly io: CliIo;
  readonly cap: SideEffectCap;
  /** `--yes`: approves sampling requests (never elicitation forms, nor opens a page). */
  readonly yes: boolean;
  /** `--json`: a page a server asks the user to open is printed, never opened. */
  readonly json: boolean;
  readonly agent: Pick<AgentOptions, 'model' | 'env'>;
}

/**
 * The client features every server of this process gets (SPEC A16), from the command line's choices:
 * the configured LLM for sampling (made on the first request, closed with the runtime), the sampling
 * gate, the terminal for forms, the browser for pages a server asks the user to open (printed instead
 * without a terminal or with --json), and each server's configured roots (none where it names none).
 */
export function createClientFeatures(settings: ClientFeatureSettings): ClientFeatures {
  const { io } = settings;
  const terminal = io.terminal;
  return new ClientFeatures({
    rootsFor: (server) => settings.config.servers.find((s) => s.name === server)?.roots ?? [],
    model: samplingModel(settings),
    samplingGate: samplingGate(settings),
    terminal: terminal && { ask: terminal.ask, show: (text) => io.stderr(text) },
    warn: (message) => io.stderr(`warning: ${message}\n`),
    limitsFor: (server) => settings.config.servers.find((s) => s.name === server)?.serverRequests ?? DEFAULT_SERVER_REQUEST_LIMITS,
    urlElicitation: {
      print: (text) => io.stderr(text),
      browser: terminal && !settings.json ? new BrowserLaunches(settings.agent.env ?? process.env) : undefined,
    },
  });
}

function samplingModel({ config, agent }: ClientFeatureSettings): (SamplingModel & { close(): Promise<void> }) | { unavailable: string } {
  let settings;
  try {
    settings = modelSettings(config, agent);
  } catch (error) {
    return { unavailable: errorMessage(error) };
  }
  let client: ChatModel | undefined;
  return {
    model: settings.model,
    complete: async (messages, signal) => (await (client ??= createChatModel(settings)).complete({ messages, tools: [] }, { signal })).text,
    close: async () => client?.close(),
  };
}

/**
 * Sampling is decided like a mutating, non-destructive tool call: refused under --max-side-effect
 * read-only, approved by --yes, else asked at the terminal; with neither it is refused, saying how to
 * allow it. It spends the user's model and sends the server's text to the provider, hence "mutating".
 */
function samplingGate({ io, cap, yes }: ClientFeatureSettings): SamplingGate {
  return {
    decide: async (server, summary, signal) => {
      if (cap === 'read-only') return { allowed: false, reason: 'sampling counts as a mutating action and --max-side-effect is read-only' };
      if (yes) {
        io.stderr(`MCP server "${server}" asked the model (sampling); approved by --yes\n`);
        return { allowed: true };
      }
      if (!io.terminal) {
        io.stderr(`warning: MCP server "${server}" asked the model (sampling); refused: no terminal to ask on (--yes approves sampling)\n`);
        return { allowed: false, reason: `the user was not asked (no terminal); run ${PROGRAM} with --yes to allow sampling` };
      }
      let answer: string;
      try {
        answer = await io.terminal.ask(`\nMCP server "${server}" asks the model (sampling):\n${summary}\nAllow? [y/N] `, signal);
      } catch {
        return { allowed: false, reason: 'the user did not answer' };
      }
      return /^\s*y(es)?\s*$/i.test(answer) ? { allowed: true } : { allowed: false, reason: 'the user declined the sampling request' };
    },
  };
}
