import type { HookDecision, PreToolUseVerdict } from './tool-use-hooks';

/**
 * What one hook action came back with: a reply (the JSON value the action answered; undefined when it
 * answered nothing) or a failure, described without any body, argument or header value.
 */
export type ActionOutcome = { readonly reply: unknown } | { readonly failure: string };

/** An action's outcome read through the contract: a verdict (possibly without decision) or a failure to warn about. */
export type ReplyReading = { readonly verdict: PreToolUseVerdict } | { readonly failure: string };

const DECISIONS: readonly HookDecision[] = ['allow', 'deny', 'defer'];
/** A reason is shown to the model and the user; a policy server cannot flood either. */
const MAX_REASON_CHARS = 500;

/**
 * THE one JSON contract for every action (seed §7.1): a reply object may carry `decision` (allow, deny,
 * defer) and `reason`. Anything else, a reply that is not an object or has no `decision`, is a
 * side-effect-only answer: success without a decision. An unknown decision is a failure (warned about,
 * then treated as no decision), never a guess.
 */
export function readReply(outcome: ActionOutcome): ReplyReading {
  if ('failure' in outcome) return outcome;
  const { reply } = outcome;
  if (typeof reply !== 'object' || reply === null || Array.isArray(reply) || !Object.hasOwn(reply, 'decision')) return { verdict: {} };
  const { decision, reason } = reply as { decision: unknown; reason: unknown };
  if (!DECISIONS.includes(decision as HookDecision)) return { failure: 'replied with a "decision" that is not allow, deny or defer' };
  const shortReason = typeof reason === 'string' && reason.length > 0 ? reason.slice(0, MAX_REASON_CHARS) : undefined;
  return { verdict: { decision: decision as HookDecision, reason: shortReason } };
}

/** JSON text as a reply: empty is no reply, anything else must parse. */
export function parseJsonReply(text: string, what: string): ActionOutcome {
  if (text.trim() === '') return { reply: undefined };
  try {
    return { reply: JSON.parse(text) as unknown };
  } catch {
    return { failure: `replied with ${what} that is not JSON` };
  }
}

/**
 * Combines the verdicts of several hooks on one call: deny beats defer beats allow beats no decision;
 * the reasons of the hooks that gave the winning decision are joined, in declaration order.
 */
export function combineVerdicts(verdicts: readonly PreToolUseVerdict[]): PreToolUseVerdict {
  const rank = (decision: HookDecision | undefined) => (decision === undefined ? -1 : ['allow', 'defer', 'deny'].indexOf(decision));
  const winner = verdicts.reduce<HookDecision | undefined>(
    (best, { decision }) => (rank(decision) > rank(best) ? decision : best),
    undefined,
  );
  if (winner === undefined) return {};
  const reasons = verdicts.filter((v) => v.decision === winner && v.reason).map((v) => v.reason);
  return reasons.length > 0 ? { decision: winner, reason: reasons.join('; ') } : { decision: winner };
}
