import { sql, type Kysely } from 'kysely';
import type { Principal } from '../../http/principal';
import type { Database } from '../../db/types';
import { jsonRecords, slices } from '../../db/jsonRecords';

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

/** Entries per statement: one JSON parameter each, well within what a statement carries. */
const AUDIT_BATCH = 10000;

/** The entries of one action on many subscribers, as `auditSubscriber` writes each, in one statement (per ten thousand). */
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
    rows.push({ subscriber_id: subscriberId, before: changedBefore, after: changedAfter });
  }
  // The rows as one JSON value rather than six parameters each: far less for the database to parse and plan.
  for (const slice of slices(rows, AUDIT_BATCH))
    await sql`insert into subscriber_audit (subscriber_id, user_id, username, action, before, after)
      select v.subscriber_id, ${principal.userId}::integer, ${principal.username}::text, ${action}::text, v.before, v.after
      from ${jsonRecords(slice, { subscriber_id: 'integer', before: 'jsonb', after: 'jsonb' })}`.execute(trx);
}
