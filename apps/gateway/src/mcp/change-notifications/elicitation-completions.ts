import { hash, randomUUID } from 'node:crypto';

import type { CatalogueChangeChannel } from '@toolmesh/registry';

import type { ChangeListeners } from './change-listeners';

/** A subject as streams and the change channel know it: a digest, so that no subject crosses Redis. */
export const subjectDigest = (subject: string): string => hash('sha256', subject, 'base64url');

/**
 * What the consent flow calls once a user's consent is completed and the tokens are stored (issue 48):
 * the 2025 clients of that subject listening on any replica get `notifications/elicitation/complete`
 * with the elicitation's id. The gateway keeps no session, so every listening client of the subject is
 * told; a client that did not start that elicitation ignores an id it does not know, as the revision says
 * it must. Without Redis only this replica's streams are told.
 */
export function connectElicitationCompletions(
  /** This replica's streams: the default endpoint's, and each curated endpoint's. */
  listeners: readonly ChangeListeners[],
  channel: Pick<CatalogueChangeChannel, 'publishCompletion' | 'subscribeCompletions'> | undefined,
): (subject: string, bundle: string, elicitationId: string) => void {
  const replica = randomUUID();
  channel?.subscribeCompletions((completion) => {
    if (completion.replica !== replica) tell(completion.subjectDigest, completion.elicitationId);
  });
  const tell = (digest: string, elicitationId: string) => {
    for (const each of listeners) each.elicitationCompleted(digest, elicitationId);
  };
  return (subject, _bundle, elicitationId) => {
    const digest = subjectDigest(subject);
    tell(digest, elicitationId);
    channel?.publishCompletion({ replica, subjectDigest: digest, elicitationId });
  };
}
