import { sql, type Kysely } from 'kysely';
import { CORE_NETWORK_OPERATIONS, CORE_NETWORK_REPORTS, type OperationSpec } from '../adapters/core-network/operations';
import { random } from './seedSubscribers';
import type { Database } from './types';

/** Days of signalling history the demo gives every subscriber. */
export const HISTORY_DAYS = 30;
/** Subscribers read, told and inserted per statement. */
const BATCH = 2000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The PLMN of each network the demo subscribers are last seen on (their `network` column). */
export const SERVING_PLMN: Record<string, string> = {
  KPN: '20408',
  'Vodafone NL': '20404',
  'Telekom.de': '26201',
  'Vodafone.de': '26202',
  'Orange F': '20801',
  Movistar: '21407',
  EE: '23430',
  'T-Mobile US': '310260',
  'AT&T': '310410',
  Swisscom: '22801',
  Telenor: '24201',
  Partner: '42501',
  'NTT DOCOMO': '44010',
  Rogers: '302720',
  'Three IE': '27205',
  'China Mobile': '46000',
};
const VISITED = Object.values(SERVING_PLMN);
/** Networks some roaming profiles bar: a device trying one first is refused before it settles elsewhere. */
const BARRED = ['23420', '20810', '310120'];

type EventKind = keyof typeof CORE_NETWORK_REPORTS | 'cancelLocation' | 'refreshSim' | 'suspendSubscriber';
const SPECS: Record<EventKind, OperationSpec> = {
  ...CORE_NETWORK_REPORTS,
  cancelLocation: CORE_NETWORK_OPERATIONS.cancelLocation,
  refreshSim: CORE_NETWORK_OPERATIONS.refreshSim,
  suspendSubscriber: CORE_NETWORK_OPERATIONS.suspendSubscriber,
};

interface Seeded {
  subscriberId: number;
  imsi: string;
  resellerId: number;
  network: string | null;
  status: string;
  lastLocationAt: Date | string | null;
}

/** One row of `network_event` as the core-network adapter writes it, less the request id the database draws. */
export interface SeedEvent {
  protocol: string;
  operation: string;
  imsi: string;
  plmn: string;
  result: 'success' | 'failure';
  detail: string;
  reseller_id: number;
  subscriber_id: number;
  created_at: string;
}

/**
 * A subscriber's last month as the HLR/HSS saw it: an attach on the network it started on, location updates there,
 * now and then a night switched off (detach, attach), a move to the network it is on today (a refused try on a
 * barred network first, sometimes; the update on the new network and the Cancel Location to the old one), an
 * over-the-air SIM refresh on some SIMs, and the update at the time the subscriber was last located. A
 * suspended subscriber's barring comes after that.
 */
export function subscriberHistory(sub: Seeded, now: number): SeedEvent[] {
  const rnd = random(sub.subscriberId * 7919 + 17);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)];
  const events: SeedEvent[] = [];
  const add = (kind: EventKind, plmn: string, at: number, failure?: string) =>
    events.push({
      protocol: SPECS[kind].protocol,
      operation: kind,
      imsi: sub.imsi,
      plmn,
      result: failure ? 'failure' : 'success',
      detail: failure ?? SPECS[kind].summary,
      reseller_id: sub.resellerId,
      subscriber_id: sub.subscriberId,
      created_at: new Date(Math.min(at, now)).toISOString(),
    });

  const current = (sub.network && SERVING_PLMN[sub.network]) || pick(VISITED);
  const others = VISITED.filter((p) => p !== current);
  const first = pick(others);
  const start = now - HISTORY_DAYS * DAY + rnd() * DAY;
  const lastSeen = sub.lastLocationAt ? Math.max(new Date(sub.lastLocationAt).getTime(), start + 2 * DAY) : now - rnd() * DAY;
  const moveAt = start + (lastSeen - start) * (0.3 + rnd() * 0.4);

  // Most devices show up every few days; a few (trackers on the move) daily, filling pages of the log.
  const restless = rnd() < 0.03;
  const gap = () => (restless ? 0.5 + rnd() * 0.5 : 4 + rnd() * 4) * DAY;
  /** Registrations on one network from `from` to `to`, with the odd night switched off. */
  const stay = (plmn: string, from: number, to: number) => {
    for (let t = from + gap(); t < to - HOUR; t += gap()) {
      if (rnd() < 0.2) {
        add('detach', plmn, t);
        add('attach', plmn, t + (6 + rnd() * 6) * HOUR);
      } else add(rnd() < 0.5 ? 'updateLocation' : 'updateGprsLocation', plmn, t);
    }
  };

  add('attach', first, start);
  stay(first, start, moveAt);
  if (rnd() < 0.1) add('updateLocation', pick(BARRED), moveAt - 20 * 60_000, SPECS.updateLocation.failures![0]);
  add('updateLocation', current, moveAt);
  add('cancelLocation', first, moveAt + 1_500);
  stay(current, moveAt, lastSeen);
  if (rnd() < 0.3) {
    const at = start + rnd() * (lastSeen - start);
    add('refreshSim', current, at, rnd() < 0.15 ? pick(SPECS.refreshSim.failures!) : undefined);
  }
  add('updateLocation', current, lastSeen);
  if (sub.status === 'suspended') add('suspendSubscriber', current, lastSeen + rnd() * (now - lastSeen));
  return events.sort((a, b) => a.created_at.localeCompare(b.created_at));
}

/**
 * The demo's signalling history: `HISTORY_DAYS` days of network events for every subscriber, shaped as the
 * core-network adapter writes them (protocol and summary from its catalogues, a request id, the subscriber's
 * reseller as tenant). Each batch goes in as one statement whose rows travel as one JSON parameter. The table's
 * secondary indexes are dropped for the load and built again from their own definitions, in one transaction:
 * building an index once is several times cheaper than growing it row by row.
 */
export async function seedNetworkEvents(db: Kysely<Database>, now = Date.now()): Promise<number> {
  if (await db.selectFrom('networkEvent').select('id').where('subscriberId', 'is not', null).limit(1).executeTakeFirst()) return 0;
  return db
    .transaction()
    .execute(async (trx) => {
      const indexes = (
        await sql<{ name: string; definition: string }>`select indexname as name, indexdef as definition from pg_indexes
      where tablename = 'network_event' and schemaname = current_schema() and indexname not in (
        select conname from pg_constraint where conrelid = 'network_event'::regclass)`.execute(trx)
      ).rows;
      for (const index of indexes) await sql`drop index ${sql.id(index.name)}`.execute(trx);
      let inserted = 0;
      let after = 0;
      for (;;) {
        const subs = (await trx
          .selectFrom('subscriber')
          .select(['subscriberId', 'imsi', 'resellerId', 'network', 'status', 'lastLocationAt'])
          .where('subscriberId', '>', after)
          .orderBy('subscriberId')
          .limit(BATCH)
          .execute()) as Seeded[];
        if (!subs.length) break;
        after = subs[subs.length - 1].subscriberId;
        const rows = subs.flatMap((s) => subscriberHistory(s, now));
        await sql`insert into network_event (request_id, protocol, operation, imsi, plmn, result, detail, reseller_id, subscriber_id, created_at)
        select gen_random_uuid()::text, protocol, operation, imsi, plmn, result, detail, reseller_id, subscriber_id, created_at
        from json_to_recordset(cast(${JSON.stringify(rows)} as json)) as e(protocol text, operation text, imsi text, plmn text, result text,
          detail text, reseller_id integer, subscriber_id integer, created_at timestamptz)`.execute(trx);
        inserted += rows.length;
      }
      for (const index of indexes) await sql.raw(index.definition).execute(trx);
      return inserted;
    })
    .then(async (inserted) => {
      await sql`analyze network_event`.execute(db);
      return inserted;
    });
}
