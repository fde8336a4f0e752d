import { randomUUID } from 'node:crypto';

import type { CatalogueChangeChannel } from '@toolmesh/registry';

import type { ChangeListeners } from './change-listeners';

/**
 * What the tasks call when a task's status changed on this replica (issue 47): that task's owner's
 * listening streams are told, here and, over the change channel's Redis, on every other replica, each of
 * which reads the task from the task store (only the owner and the id travel). Without Redis only this
 * replica's streams are told; clients poll in any case, as both revisions say they may.
 */
export function connectTaskStatusChanges(
  listeners: ChangeListeners,
  channel: Pick<CatalogueChangeChannel, 'publishTaskStatus' | 'subscribeTaskStatus'> | undefined,
): (owner: string, taskId: string) => void {
  const replica = randomUUID();
  channel?.subscribeTaskStatus((change) => {
    if (change.replica !== replica) listeners.taskStatusChanged(change.owner, change.taskId);
  });
  return (owner, taskId) => {
    listeners.taskStatusChanged(owner, taskId);
    channel?.publishTaskStatus({ replica, owner, taskId });
  };
}
