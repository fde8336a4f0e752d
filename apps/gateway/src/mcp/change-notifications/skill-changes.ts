import type { Logger } from '@toolmesh/transport-http/server';

import type { SkillCatalogue } from '../../skills/skill-catalogue';
import type { ChangeListeners } from './change-listeners';

/**
 * Brings every change of the gateway's own skills (issue 49) to this replica's open streams as
 * `notifications/resources/list_changed`: SEP-2640 defines no skills notification, and a skill's files
 * are resources. The skills are loaded at request time; a replica whose only clients are listening gets
 * no requests, so while it holds listeners it looks every TTL itself (as catalogue-changes.ts does for tools).
 * Each replica reads the same folders and services, so each sees a change itself: nothing goes over Redis.
 */
export function connectSkillChanges(
  skills: SkillCatalogue,
  listeners: ChangeListeners,
  ttlMillis: number,
  logger: Logger,
): { stop(): void } {
  const stopListening = skills.onChanged(() => {
    logger.info('resources_list_changed_notified', { streams: listeners.size, cause: 'skills' });
    listeners.resourcesListChanged();
  });
  const poll = setInterval(
    () => {
      if (listeners.size > 0) skills.refreshIfStale();
    },
    Math.max(ttlMillis, 100),
  );
  poll.unref();
  return {
    stop: () => {
      clearInterval(poll);
      stopListening();
    },
  };
}
