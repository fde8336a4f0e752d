import { McpMethod } from '@toolmesh/protocol';

import { SKILLS_EXTENSION, SkillsMethod } from '../skills/skills-protocol';
import { TASKS_EXTENSION, TasksMethod } from '../task-state/task-wire';

/**
 * Each server capability, the methods a client may call once it is declared, and what is declared for it.
 * `tools` says `listChanged` because both eras deliver `notifications/tools/list_changed` (SPEC G21).
 */
const CAPABILITIES: ReadonlyArray<{ readonly name: string; readonly methods: readonly string[]; readonly value: object }> = [
  { name: 'tools', methods: [McpMethod.ToolsList, McpMethod.ToolsCall], value: { listChanged: true } },
  { name: 'prompts', methods: [McpMethod.PromptsList, McpMethod.PromptsGet], value: {} },
  { name: 'resources', methods: [McpMethod.ResourcesList, McpMethod.ResourcesRead, McpMethod.ResourceTemplatesList], value: {} },
  { name: 'logging', methods: [McpMethod.LoggingSetLevel], value: {} },
  { name: 'completions', methods: [McpMethod.CompletionComplete], value: {} },
];

/**
 * The capabilities an era declares (`initialize`, `server/discover`), read from the methods it actually
 * serves: a capability is declared only when every one of its methods answers, so a client is never offered
 * what would then fail with -32601 (SPEC N7). A method served without the rest of its capability does not
 * make the capability declared.
 */
export function declaredCapabilities(
  served: { has(method: string): boolean },
  /** What is declared for what the gateway relays without a method of its own: `logging` at 2026-07-28, which has no setLevel. */
  relayed: Readonly<Record<string, object>> = {},
  /** Whether both eras deliver `notifications/resources/list_changed` (the gateway's own skills, an MCP server's resources: issue 49). */
  resourcesListChanged = false,
): Record<string, object> {
  const declared: Record<string, object> = { ...relayed };
  for (const { name, methods, value } of CAPABILITIES) if (methods.every((method) => served.has(method))) declared[name] = value;
  if (resourcesListChanged && declared.resources !== undefined) declared.resources = { listChanged: true };
  // The Skills extension (SEP-2640) is declared by the same rule, inline under `extensions`; it needs `resources`.
  if (declared.resources !== undefined && served.has(SkillsMethod.List) && served.has(SkillsMethod.Get))
    declared.extensions = { [SKILLS_EXTENSION]: served.has(SkillsMethod.DirectoryRead) ? { directoryRead: true } : {} };
  // Tasks (issue 47): the 2025-11-25 `tasks` capability where `tasks/result` is served, the SEP-2663 extension where `tasks/update` is.
  if (served.has(TasksMethod.Get) && served.has(TasksMethod.Cancel)) {
    if (served.has(TasksMethod.Result))
      declared.tasks = { ...(served.has(TasksMethod.List) && { list: {} }), cancel: {}, requests: { tools: { call: {} } } };
    else if (served.has(TasksMethod.Update)) declared.extensions = { ...declared.extensions, [TASKS_EXTENSION]: {} };
  }
  return declared;
}
