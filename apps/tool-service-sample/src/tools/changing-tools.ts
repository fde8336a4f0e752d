import { dataReply } from '../http/reply';
import { DEFAULT_TIMEOUT_MILLIS, defineTool, NO_ARGUMENTS, READ_ONLY, type Tool } from './define-tool';

/** The tool that `test_trigger_tool_change` adds to and removes from the manifest, in turns. */
const ADDED_TOOL_NAME = 'test_added_tool';

const addedTool = defineTool<Record<string, never>>({
  name: ADDED_TOOL_NAME,
  title: 'A tool that comes and goes',
  description: 'Present after every odd call of test_trigger_tool_change.',
  inputSchema: NO_ARGUMENTS,
  annotations: READ_ONLY,
  timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
  handle: () => dataReply('added'),
});

/** `test_change_<n>`: the tool that names the latest of the trigger's calls, a new one each call. */
function changeMark(calls: number): Tool {
  return defineTool<Record<string, never>>({
    name: `test_change_${calls}`,
    title: 'The latest change of the tool list',
    description: `Present after the call number ${calls} of test_trigger_tool_change, until the next one.`,
    inputSchema: NO_ARGUMENTS,
    annotations: READ_ONLY,
    timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
    handle: () => dataReply({ change: calls }),
  });
}

/**
 * The service's tool list, which one tool can change: `test_trigger_tool_change` (the name the conformance
 * suite calls) adds `test_added_tool`, or removes it again, so a test can make the manifest change and the
 * gateway's `notifications/tools/list_changed` fire. Each call also puts a new `test_change_<n>` in place
 * of the last, so two calls never cancel out: a gateway that reads the list once after both still sees a
 * change, as the suite's list-changed check expects. Each instance of the service has its own list.
 */
export class ChangingTools {
  private calls = 0;
  private mark: Tool | undefined;
  private readonly trigger: Tool;

  constructor(
    private readonly fixed: readonly Tool[],
    private readonly onChange: () => void,
  ) {
    this.trigger = defineTool<Record<string, never>>({
      name: 'test_trigger_tool_change',
      title: 'Conformance: change the tool list',
      description: `Adds ${ADDED_TOOL_NAME} to this service's manifest, or removes it if present. Used by the MCP conformance suite and tests.`,
      inputSchema: NO_ARGUMENTS,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
      handle: () => {
        this.calls += 1;
        this.mark = changeMark(this.calls);
        this.onChange();
        return dataReply(this.added ? `${ADDED_TOOL_NAME} added` : `${ADDED_TOOL_NAME} removed`);
      },
    });
  }

  /** After every odd call. */
  private get added(): boolean {
    return this.calls % 2 === 1;
  }

  list(): readonly Tool[] {
    return [...this.fixed, this.trigger, ...(this.added ? [addedTool] : []), ...(this.mark ? [this.mark] : [])];
  }
}
