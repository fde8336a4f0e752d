import type { EventWaiter } from '@toolmesh/rewake-bridge';

import type { Tool } from '../tool';
import { BashTool } from './bash-tool';
import type { BuiltinToolContext } from './builtin-tool';
import { EditTool } from './edit-tool';
import { GlobTool } from './glob-tool';
import { GrepTool } from './grep-tool';
import { ReadTool } from './read-tool';
import { WaitForEventTool } from './wait-for-event-tool';
import { WriteTool } from './write-tool';

/** The agent's own tools, working in `context.workingDirectory`; WaitForEvent waits on `events`. */
export function createBuiltinTools(context: BuiltinToolContext, events: EventWaiter): Tool[] {
  return [
    new ReadTool(context),
    new WriteTool(context),
    new EditTool(context),
    new GlobTool(context),
    new GrepTool(context),
    new BashTool(context),
    new WaitForEventTool(context, events),
  ];
}
