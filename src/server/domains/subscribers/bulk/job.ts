/** What a bulk job needs around applying an action: its caller, its items' outcomes, its operations left unanswered. */
import { sql, type Kysely } from 'kysely';
import { forbidden } from '../../../http/errors';
import { loadPrincipal, type Principal } from '../../../http/principal';
import { NO_ANSWER, outcomeOfError, type ItemOutcome } from '../../../jobs/outcomes';
import type { Database } from '../../../db/types';
import { UNCHANGED } from './reasons';
import type { Applied } from './apply';

/**
 * Each subscriber's outcome as a job item: refused ones failed with their reason, those already so skipped, those
 * handed to the network waiting for its answer; the others (changed at once) are absent: they succeeded.
 */
export function outcomesOf(ids: readonly number[], { refused, changed, waiting }: Applied): Map<number, ItemOutcome> {
  const changedSet = new Set(changed);
  const outcomes = new Map<number, ItemOutcome>();
  for (const id of ids) {
    const error = refused.get(id);
    if (error) outcomes.set(id, outcomeOfError(error));
    else if (waiting.has(id)) outcomes.set(id, { status: 'waiting' });
    else if (!changedSet.has(id)) outcomes.set(id, { status: 'skipped', messageId: UNCHANGED });
  }
  return outcomes;
}

/**
 * The bulk operations of a job still pending for subscribers whose answer never came: failed, so they no longer
 * block the next operation on those subscribers.
 */
export async function expireOperations(trx: Kysely<Database>, jobId: number, keys: readonly string[]) {
  await trx
    .updateTable('subscriberOperation')
    .set({ status: 'failed', messageId: NO_ANSWER, finishedAt: sql`now()` })
    .where('subscriberId', 'in', keys.map(Number))
    .where('status', '=', 'pending')
    .where(sql`request->>'bulk'`, '=', `job:${jobId}`)
    .execute();
}

/** The caller of a job, as of now (a changed role applies); a job of a deleted or disabled user applies nothing. */
export async function jobPrincipal(trx: Kysely<Database>, userId: number | null): Promise<Principal> {
  const principal = userId === null ? undefined : await loadPrincipal(trx, userId);
  if (!principal || principal.disabled) throw forbidden();
  return principal;
}
