import { sql, type Kysely } from 'kysely';
import { SERVING_PLMN } from './seedNetworkEvents';
import type { Database } from './types';

const MINUTES_A_DAY = 1440;

/**
 * The demo usage log (CCR): one data session per subscriber (opened, updated and closed: three records, the last two
 * with bytes), in one statement over every subscriber, deterministic. Two subscribers in three had theirs in the last
 * 30 days, the third over the last year, so the dashboard's ranges, trends and top subscribers have a history to show
 * from the first start (the usage simulator then adds to it while the demo runs). Sessions are on the subscriber's
 * APN, on the network it was last seen on; no record is dated after the seed.
 */
export async function seedUsage(db: Kysely<Database>): Promise<void> {
  if (await db.selectFrom('usageRecord').select('id').limit(1).executeTakeFirst()) return;
  const serving = sql.join(Object.entries(SERVING_PLMN).map(([name, plmn]) => sql`(${name}, ${plmn})`));
  // The session's start, minutes before now (at least three hours, so its three records are all in the past).
  const started = sql`180 + (s.subscriber_id * 7919) % (case when s.subscriber_id % 3 = 0 then 365 else 30 end * ${sql.lit(MINUTES_A_DAY)} - 180)`;
  // Minutes from the start: opened at once, updated within the hour, closed within three.
  const after = sql`(array[0, 5 + (s.subscriber_id * 13) % 50, 60 + (s.subscriber_id * 17) % 120])[g]`;
  await sql`insert into usage_record (subscriber_id, imsi, at, request_type, apn, plmn, bytes_up, bytes_down)
    select s.subscriber_id, s.imsi,
      now() - make_interval(mins => ${started} - ${after}),
      (array['INITIAL', 'UPDATE', 'TERMINATION'])[g],
      s.apn,
      (select v.plmn from (values ${serving}) as v(name, plmn) where v.name = s.network),
      case when g = 1 then 0 else (s.subscriber_id * 7919 + g * 104729) % 900000 end,
      case when g = 1 then 0 else (s.subscriber_id * 15485 + g * 224737) % 9000000 end
    from subscriber s cross join generate_series(1, 3) g`.execute(db);
}
