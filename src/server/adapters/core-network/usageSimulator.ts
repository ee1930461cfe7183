/**
 * The usage simulator: while the demo runs, the local stand-in for the network's charging and location feeds. Every
 * few seconds it takes a small batch of active subscribers and writes what a real network would report for them: a
 * usage record (a credit-control update on the network they are on, bytes up and down) and, now and then, a
 * location update on that network. Both go through the same tables and triggers as real records, so the graphs'
 * rollups move and LOCATION_UPDATE webhooks fire. Off unless switched on (USAGE_SIMULATOR, docs/configuration.md);
 * one batch at a time, stopped with the server.
 */
import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/types';
import { SERVING_PLMN } from '../../db/seedNetworkEvents';
import { CORE_NETWORK_REPORTS } from './operations';

export interface UsageSimulatorOptions {
  /** Writes usage while the server runs. */
  enabled?: boolean;
  /** Seconds between batches (10 by default). */
  everySeconds?: number;
  /** Subscribers per batch (20 by default). */
  batch?: number;
  /** The share of a batch that also reports a location update (0.1 by default). */
  locationShare?: number;
}

export interface UsageSimulator {
  /** Writes one batch now; answers the usage records written. */
  tick(): Promise<number>;
  start(): void;
  /** Stops the timer and waits for a batch in progress. */
  stop(): Promise<void>;
}

export function createUsageSimulator(db: Kysely<Database>, log: FastifyBaseLogger, opts: UsageSimulatorOptions = {}): UsageSimulator {
  const every = Math.max(1, opts.everySeconds ?? 10) * 1000;
  const batch = Math.max(1, Math.min(1000, opts.batch ?? 20));
  const locationShare = opts.locationShare ?? 0.1;
  const serving = sql.join(Object.entries(SERVING_PLMN).map(([name, plmn]) => sql`(${name}, ${plmn})`));
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;

  async function tick(): Promise<number> {
    return db.transaction().execute(async (trx) => {
      // A handful of active subscribers from a random point of the key, going round to the first keys when the point
      // is near the last (two index ranges, the second read only when the first falls short: cheap at any size).
      const { rows } = await sql<{ subscriberId: number; imsi: string; apn: string | null; plmn: string | null }>`
        with b as (select min(subscriber_id) + floor(random() * (max(subscriber_id) - min(subscriber_id) + 1))::int as start from subscriber),
        picked as (
          (select s.subscriber_id, s.imsi, s.apn, s.network from subscriber s
            where s.status = 'active' and s.subscriber_id >= (select start from b) order by s.subscriber_id limit ${batch})
          union all
          (select s.subscriber_id, s.imsi, s.apn, s.network from subscriber s
            where s.status = 'active' and s.subscriber_id < (select start from b) order by s.subscriber_id limit ${batch})
          limit ${batch})
        select p.subscriber_id as "subscriberId", p.imsi, p.apn, v.plmn
        from picked p left join (values ${serving}) as v(name, plmn) on v.name = p.network`.execute(trx);
      if (!rows.length) return 0;
      const records = rows.map((r) => ({
        subscriber_id: r.subscriberId,
        imsi: r.imsi,
        apn: r.apn,
        plmn: r.plmn,
        bytes_up: Math.floor(Math.random() * 200_000),
        bytes_down: Math.floor(Math.random() * 2_000_000),
      }));
      await sql`insert into usage_record (subscriber_id, imsi, at, request_type, apn, plmn, bytes_up, bytes_down)
        select subscriber_id, imsi, now(), 'UPDATE', apn, plmn, bytes_up, bytes_down
        from json_to_recordset(cast(${JSON.stringify(records)} as json))
          as r(subscriber_id integer, imsi text, apn text, plmn text, bytes_up bigint, bytes_down bigint)`.execute(trx);
      const located = records.filter((r) => r.plmn && Math.random() < locationShare);
      if (located.length) {
        const spec = CORE_NETWORK_REPORTS.updateGprsLocation;
        await sql`insert into network_event (request_id, protocol, operation, imsi, plmn, result, detail, reseller_id, subscriber_id, created_at)
          select gen_random_uuid()::text, ${spec.protocol}, 'updateGprsLocation', s.imsi, r.plmn, 'success', ${spec.summary}, s.reseller_id, s.subscriber_id, now()
          from json_to_recordset(cast(${JSON.stringify(located)} as json)) as r(subscriber_id integer, plmn text)
          join subscriber s on s.subscriber_id = r.subscriber_id`.execute(trx);
        await sql`update subscriber set last_location_at = now()
          where subscriber_id in (select (value)::int from json_array_elements_text(cast(${JSON.stringify(located.map((r) => r.subscriber_id))} as json)))`.execute(
          trx,
        );
      }
      return records.length;
    });
  }

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick()
        .catch((e) => log.warn({ err: e }, 'usage simulator batch failed'))
        .finally(schedule);
    }, every);
    timer.unref();
  };

  return {
    tick,
    start() {
      stopped = false;
      log.info({ everySeconds: every / 1000, batch }, 'usage simulator on');
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
