import type { Kysely } from 'kysely';
import type { Principal } from '../../http/principal';
import type { Database } from '../../db/types';

type Row = Record<string, unknown>;

/**
 * Writes one audit entry for a change of a subscriber: who, when (the database clock), what was done, and the
 * changed fields before and after. Fields that did not change are left out of both; no entry when nothing changed.
 */
export async function auditSubscriber(
  trx: Kysely<Database>,
  principal: Pick<Principal, 'userId' | 'username'>,
  subscriberId: number,
  action: string,
  before: Row,
  after: Row,
) {
  await auditSubscribers(trx, principal, action, [{ subscriberId, before, after }]);
}

/** The entries of one action on many subscribers, as `auditSubscriber` writes each, in one statement per thousand. */
export async function auditSubscribers(
  trx: Kysely<Database>,
  principal: Pick<Principal, 'userId' | 'username'>,
  action: string,
  changes: readonly { subscriberId: number; before: Row; after: Row }[],
) {
  const rows = [];
  for (const { subscriberId, before, after } of changes) {
    const changedBefore: Row = {};
    const changedAfter: Row = {};
    for (const key of Object.keys(after)) {
      const was = before[key] ?? null;
      const now = after[key] ?? null;
      if (JSON.stringify(was) === JSON.stringify(now)) continue;
      changedBefore[key] = was;
      changedAfter[key] = now;
    }
    if (!Object.keys(changedAfter).length) continue;
    rows.push({
      subscriberId,
      userId: principal.userId,
      username: principal.username,
      action,
      before: JSON.stringify(changedBefore),
      after: JSON.stringify(changedAfter),
    });
  }
  for (let i = 0; i < rows.length; i += 1000)
    await trx
      .insertInto('subscriberAudit')
      .values(rows.slice(i, i + 1000))
      .execute();
}
