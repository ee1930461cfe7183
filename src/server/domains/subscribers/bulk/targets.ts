/** The subscribers an action applies to, as its checks see them. */
import { sql, type Kysely } from 'kysely';
import type { Principal } from '../../../http/principal';
import { DETAIL_FIELDS } from '@shared/subscriberCsv';
import { scopeToCaller } from '../context';
import type { Database } from '../../../db/types';

/** Ids per `in (...)` list: well under PostgreSQL's 65535 parameters. */
const ID_BATCH = 5000;
/** ICCIDs or IMSIs per statement of `loadTargetsByKey`, sent as one JSON value. */
const KEY_BATCH = 10000;

/** One subscriber as the checks see it. */
export interface Target {
  subscriberId: number;
  status: 'active' | 'suspended';
  imsi: string;
  iccid: string;
  accountId: number;
  resellerId: number;
  resellerPath: string;
  dailyLimitBytes: number | null;
  qosThrottling: string | null;
  pricingPlanId: number | null;
  roamingProfileId: number | null;
  groupName: string | null;
  name: string | null;
  deviceType: string | null;
  device: string | null;
  imei: string | null;
  apn: string | null;
  multiImsi: boolean;
  /** The subscriber's custom field values. */
  custom: Record<string, unknown>;
  /** Reseller paths of the subscriber's pricing plan and roaming profile (null without one). */
  planPath: string | null;
  profilePath: string | null;
}

function targetsQuery(db: Kysely<Database>, principal: Principal) {
  const q = db
    .selectFrom('subscriber as s')
    .innerJoin('reseller as r', 'r.id', 's.resellerId')
    .leftJoin('pricingPlan as pp', 'pp.id', 's.pricingPlanId')
    .leftJoin('reseller as ppr', 'ppr.id', 'pp.resellerId')
    .leftJoin('roamingProfile as rp', 'rp.id', 's.roamingProfileId')
    .leftJoin('reseller as rpr', 'rpr.id', 'rp.resellerId')
    .select([
      's.subscriberId',
      's.status',
      's.imsi',
      's.iccid',
      's.accountId',
      's.resellerId',
      'r.path as resellerPath',
      's.dailyLimitBytes',
      's.qosThrottling',
      's.pricingPlanId',
      's.roamingProfileId',
      's.groupName',
      's.custom',
      ...DETAIL_FIELDS.map((f) => `s.${f}` as const),
      'ppr.path as planPath',
      'rpr.path as profilePath',
      sql<boolean>`exists (select 1 from sponsor_imsi i where i.subscriber_id = s.subscriber_id)`.as('multiImsi'),
    ]);
  return scopeToCaller(q, principal);
}

/** A row as a target, in place (an upload's check takes in a hundred thousand of them). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of a query joined across tables chosen at run time
const toTarget = (r: Record<string, any>): Target => {
  r.subscriberId = Number(r.subscriberId);
  r.dailyLimitBytes = r.dailyLimitBytes === null ? null : Number(r.dailyLimitBytes);
  r.multiImsi = Boolean(r.multiImsi);
  r.custom = typeof r.custom === 'string' ? JSON.parse(r.custom) : (r.custom ?? {});
  return r as Target;
};

/** The subscribers among `ids` the caller may see, by id; the others are simply absent. */
export async function loadTargets(db: Kysely<Database>, principal: Principal, ids: readonly number[], forUpdate = false): Promise<Map<number, Target>> {
  const found = new Map<number, Target>();
  for (let i = 0; i < ids.length; i += ID_BATCH) {
    let q = targetsQuery(db, principal).where('s.subscriberId', 'in', ids.slice(i, i + ID_BATCH));
    if (forUpdate) q = q.orderBy('s.subscriberId').forUpdate('s');
    for (const row of await q.execute()) found.set(Number(row.subscriberId), toTarget(row));
  }
  return found;
}

/**
 * The subscribers the caller may see among those named by ICCID or IMSI, by that key; the others are simply absent.
 * One statement per ten thousand keys, the keys sent as one JSON value rather than one parameter each.
 */
export async function loadTargetsByKey(
  db: Kysely<Database>,
  principal: Principal,
  column: 'iccid' | 'imsi',
  keys: readonly string[],
): Promise<Map<string, Target>> {
  const found = new Map<string, Target>();
  const batch = (i: number) =>
    targetsQuery(db, principal)
      .where(`s.${column}`, 'in', sql<string>`(select jsonb_array_elements_text(${JSON.stringify(keys.slice(i, i + KEY_BATCH))}::jsonb))`)
      .execute();
  // Two statements at a time: the database reads one batch while Node takes in the rows of the other.
  for (let i = 0; i < keys.length; i += 2 * KEY_BATCH)
    for (const rows of await Promise.all(i + KEY_BATCH < keys.length ? [batch(i), batch(i + KEY_BATCH)] : [batch(i)]))
      for (const row of rows) {
        const t = toTarget(row);
        found.set(t[column], t);
      }
  return found;
}
