/** One call of a tool as the agent loop (or `agent-cli call`) asks for it: the model's id, the registry name, the arguments. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
}
