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

/**
 * The service's tool list, which one tool can change: `test_trigger_tool_change` (the name the conformance
 * suite calls) adds `test_added_tool`, or removes it again, so a test can make the manifest change and the
 * gateway's `notifications/tools/list_changed` fire. Each instance of the service has its own list.
 */
export class ChangingTools {
  private added = false;
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
        this.added = !this.added;
        this.onChange();
        return dataReply(this.added ? `${ADDED_TOOL_NAME} added` : `${ADDED_TOOL_NAME} removed`);
      },
    });
  }

  list(): readonly Tool[] {
    return this.added ? [...this.fixed, this.trigger, addedTool] : [...this.fixed, this.trigger];
  }
}
