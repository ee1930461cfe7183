/**
 * Service classes: named speed limits a reseller owns and its subtree sees (the provider's are seen by everyone).
 * A reseller, an account or a subscriber may name one; a subscriber's effective class is its own, else its
 * account's, else that of its nearest reseller (itself, then up the tree). The effective class's speeds go to the
 * core network (`setSpeed`); a change of a class or of an assignment re-applies them to the subscribers it touches,
 * at once when they are few, as a background job when many.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { SpeedPayload } from '../../adapters/core-network';
import type { Database } from '../../db/types';
import type { JobKind } from '../../jobs/runner';
import type { Principal } from '../../http/principal';

export const SERVICE_CLASS_JOB = 'service-class-apply';
/** Up to this many subscribers are re-applied within the request; more go to a background job. */
export const APPLY_INLINE_LIMIT = 200;

/** Which subscribers a change touches. */
export type Affected = { serviceClassId: number } | { resellerId: number } | { accountId: number } | { subscriberIds: number[] };

/** The reseller's nearest class: its own, else the closest reseller above it that names one. */
const nearestResellerClass = sql<number | null>`(select r2.service_class_id from reseller r2
  where starts_with(r.path, r2.path) and r2.service_class_id is not null order by length(r2.path) desc limit 1)`;

/** Each subscriber with its effective class and that class's speeds (nulls: none applies). */
export function effectiveClasses(db: Kysely<Database>) {
  return db
    .selectFrom('subscriber as s')
    .innerJoin('reseller as r', 'r.id', 's.resellerId')
    .leftJoin('account as a', 'a.accountId', 's.accountId')
    .select([
      's.subscriberId',
      's.imsi',
      's.resellerId',
      sql<number | null>`coalesce(s.service_class_id, a.service_class_id, ${nearestResellerClass})`.as('serviceClassId'),
    ]);
}

/** The subscribers whose effective class is, or may have become, touched by a change. */
export function affectedSubscribers(
  db: Kysely<Database>,
  affected: Affected,
): SelectQueryBuilder<Database & { s: Database['subscriber'] }, 's', { subscriberId: number }> {
  const q = db.selectFrom('subscriber as s').select('s.subscriberId');
  if ('subscriberIds' in affected) return q.where('s.subscriberId', 'in', affected.subscriberIds.length ? affected.subscriberIds : [-1]);
  if ('accountId' in affected) return q.where('s.accountId', '=', affected.accountId);
  if ('resellerId' in affected)
    return q.where(
      's.resellerId',
      'in',
      db
        .selectFrom('reseller as c')
        .select('c.id')
        .where(sql<boolean>`starts_with(c.path, (select path from reseller where id = ${affected.resellerId}))`),
    );
  return q.where(
    's.subscriberId',
    'in',
    db.selectFrom(effectiveClasses(db).as('e')).select('e.subscriberId').where('e.serviceClassId', '=', affected.serviceClassId),
  );
}

/** The speeds to send for each of `ids`: its effective class's, or nulls when none applies. */
export async function speedsOf(db: Kysely<Database>, ids: number[]) {
  if (!ids.length) return [];
  const rows = await db
    .selectFrom(effectiveClasses(db).where('s.subscriberId', 'in', ids).as('e'))
    .leftJoin('serviceClass as c', 'c.id', 'e.serviceClassId')
    .select(['e.subscriberId', 'e.imsi', 'e.resellerId', 'c.id as serviceClassId', 'c.downlinkKbps', 'c.uplinkKbps'])
    .execute();
  return rows.map((r) => ({
    subscriberId: r.subscriberId,
    imsi: r.imsi,
    resellerId: r.resellerId,
    speed: { serviceClassId: r.serviceClassId, downlinkKbps: r.downlinkKbps, uplinkKbps: r.uplinkKbps } satisfies SpeedPayload,
  }));
}

type Speed = Awaited<ReturnType<typeof speedsOf>>[number];

/** Sends one subscriber's speeds to the core network without waiting; the answer lands in the event log. */
function sendSpeed(app: FastifyInstance, s: Speed) {
  const subject = `service-class:${s.speed.serviceClassId ?? 'none'}`;
  app.coreNetwork.dispatch(
    { operation: 'setSpeed', resellerId: s.resellerId, imsi: s.imsi, subscriberId: s.subscriberId, subject, payload: s.speed },
    async () => undefined,
  );
}

/**
 * Re-applies the effective speeds of the subscribers a change touches, inside the writing transaction: a few are
 * read and sent once the change is visible; many become a background job stored in the same transaction.
 * Answers the job's id when one was made.
 */
export async function reapply(app: FastifyInstance, trx: Kysely<Database>, principal: Principal, affected: Affected): Promise<number | undefined> {
  const rows = await affectedSubscribers(trx, affected)
    .limit(APPLY_INLINE_LIMIT + 1)
    .execute();
  if (!rows.length) return undefined;
  if (rows.length <= APPLY_INLINE_LIMIT) {
    // Read inside the transaction, so the speeds are the ones being committed.
    const speeds = await speedsOf(
      trx,
      rows.map((r) => r.subscriberId),
    );
    for (const s of speeds) sendSpeed(app, s);
    return undefined;
  }
  const all = await affectedSubscribers(trx, affected).execute();
  return app.jobs.enqueue(
    { kind: SERVICE_CLASS_JOB, userId: principal.userId, resellerId: principal.resellerId, keys: all.map((r) => String(r.subscriberId)) },
    trx,
  );
}

/** The background job: each item a subscriber whose effective speeds are read and sent once its chunk committed. */
export function serviceClassJobKind(app: FastifyInstance): JobKind {
  return {
    async apply(trx, key, _job, afterCommit) {
      const [s] = await speedsOf(trx, [Number(key)]);
      if (!s) return { status: 'skipped', messageId: 'error.notFound' };
      afterCommit(() => sendSpeed(app, s));
    },
  };
}

/** The classes the caller sees (its subtree's, those of the resellers above it, the provider's), by speed. */
export function visibleServiceClasses(db: Kysely<Database>, principal: Principal) {
  let q = db.selectFrom('serviceClass as c');
  if (!principal.isAdmin) {
    const own =
      principal.accountId !== null
        ? sql<boolean>`c.reseller_id = ${principal.resellerId}`
        : sql<boolean>`c.reseller_id in (select id from reseller where starts_with(path, ${principal.resellerPath}))`;
    q = q.where(sql<boolean>`(${own} or c.reseller_id in (select id from reseller where starts_with(${principal.resellerPath}, path)))`);
  }
  return q;
}

/** What throttling may be set to by the caller: `BLOCK` (stop data) or the speed id of a class it sees. */
export const QOS_BLOCK = 'BLOCK';

/** The speeds the caller may throttle to, as `GET /portal/reseller-info/api/qos-speed-limits` answers them. */
export async function qosSpeedLimits(db: Kysely<Database>, principal: Principal) {
  const rows = await visibleServiceClasses(db, principal).select(['c.code', 'c.name', 'c.downlinkKbps']).orderBy('c.downlinkKbps').orderBy('c.id').execute();
  return rows.map((r) => ({ id: r.code, name: r.name, kbps: r.downlinkKbps }));
}

/** Whether the caller may throttle to `qos`: `BLOCK` or a speed id of a class it sees. */
export async function isQosAllowed(db: Kysely<Database>, principal: Principal, qos: unknown): Promise<boolean> {
  if (qos === QOS_BLOCK) return true;
  if (typeof qos !== 'string' || qos.length > 40) return false;
  return (await visibleServiceClasses(db, principal).select('c.id').where('c.code', '=', qos).executeTakeFirst()) !== undefined;
}
