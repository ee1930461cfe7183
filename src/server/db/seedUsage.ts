import { sql, type Kysely } from 'kysely';
import { SERVING_PLMN } from './seedNetworkEvents';
import type { Database } from './types';

/** Credit-control requests per demo subscriber: a data session opened, updated and closed over the last day. */
const RECORDS_PER_SUBSCRIBER = 3;

/**
 * The demo usage log (CCR): one statement over every subscriber, deterministic, so the usage-log panel has rows to
 * show. Sessions are on the subscriber's APN, on the network it was last seen on, and answered with DIAMETER_SUCCESS (2001).
 */
export async function seedUsage(db: Kysely<Database>): Promise<void> {
  if (await db.selectFrom('usageRecord').select('id').limit(1).executeTakeFirst()) return;
  const serving = sql.join(Object.entries(SERVING_PLMN).map(([name, plmn]) => sql`(${name}, ${plmn})`));
  await sql`insert into usage_record (subscriber_id, imsi, at, request_type, apn, plmn, bytes_up, bytes_down)
    select s.subscriber_id, s.imsi,
      now() - make_interval(mins => (s.subscriber_id * 37 + g * 211) % 1440),
      (array['INITIAL', 'UPDATE', 'TERMINATION'])[g],
      s.apn,
      (select v.plmn from (values ${serving}) as v(name, plmn) where v.name = s.network),
      case when g = 1 then 0 else (s.subscriber_id * 7919 + g * 104729) % 900000 end,
      case when g = 1 then 0 else (s.subscriber_id * 15485 + g * 224737) % 9000000 end
    from subscriber s cross join generate_series(1, ${sql.lit(RECORDS_PER_SUBSCRIBER)}) g`.execute(db);
}
