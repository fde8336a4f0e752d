import { EVERYTHING_BIN } from '@toolmesh/test-peers/mcp-servers';

/** An agent-cli.yaml with server-everything over stdio as the one server and, given, a (scripted) model. */
export function everythingConfigYaml(llmBaseUrl?: string): string {
  const llm = llmBaseUrl === undefined ? '' : `llm:\n  baseUrl: ${llmBaseUrl}\n  model: scripted-model\n`;
  return `${llm}mcp:\n  servers:\n    - name: everything\n      command: ${JSON.stringify(EVERYTHING_BIN)}\n      args: [stdio]\n`;
}
