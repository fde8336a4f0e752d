import { globPattern } from '@toolmesh/protocol';

/**
 * Which of a server's tools the agent uses (`tools: { allow, deny }` of its entry): patterns of the
 * server's own tool names, `*` the only wildcard. Absent `allow`: every tool; `deny` wins over `allow`.
 * A tool left out is never registered: the model never sees it, and a call of it finds no tool.
 */
export interface ToolFilter {
  readonly allow?: readonly string[];
  readonly deny?: readonly string[];
}

/** The filter as a test of a tool name; its patterns compiled once. */
export function toolFilterTest(filter: ToolFilter | undefined): (name: string) => boolean {
  if (!filter) return () => true;
  const allow = filter.allow?.map(globPattern);
  const deny = (filter.deny ?? []).map(globPattern);
  return (name) => (allow === undefined || allow.some((p) => p.test(name))) && !deny.some((p) => p.test(name));
}
