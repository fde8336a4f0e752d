import type { SideEffects } from './tool';

const BASIS_NOTE: Readonly<Record<SideEffects['basis'], string>> = {
  declared: '',
  'server-claim': " (the server's claim)",
  assumed: ' (assumed: server claims ignored)',
  'upstream-claim': " (the upstream MCP server's claim, via the gateway)",
  'upstream-claim-ignored': " (assumed: the upstream MCP server's claim, via the gateway, ignored)",
};

/**
 * How a person sees a tool's side effects, in `tools` and in approval prompts. An MCP server's annotations
 * are shown as what they are, the server's claims, never as facts the agent established.
 */
export function describeSideEffects({ level, destructive, basis }: SideEffects): string {
  const what = level === 'read-only' ? 'read-only' : destructive ? 'mutating, destructive' : 'mutating';
  return what + BASIS_NOTE[basis];
}
