import { dataReply } from '../http/reply';
import { SERVICE_IDENTITY } from '../service-identity';
import { DEFAULT_TIMEOUT_MILLIS, defineTool, NO_ARGUMENTS, READ_ONLY, type Tool } from './define-tool';

/** get_service_info reports the size of the tool list it is part of, so the list is passed in. */
export function serviceInfoTool(toolCount: () => number): Tool {
  return defineTool<Record<string, never>>({
    name: 'get_service_info',
    title: 'Describe this service',
    description:
      'Returns the name, title and version of this tool service and how many tools it always offers (test_trigger_tool_change and what it adds are not counted).',
    inputSchema: NO_ARGUMENTS,
    annotations: READ_ONLY,
    timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
    handle: () => dataReply({ ...SERVICE_IDENTITY, toolCount: toolCount() }),
  });
}
