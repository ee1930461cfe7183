import { sql, type Kysely } from 'kysely';
import { createActivityHistogram, dropActivityTriggers } from './0176_subscriber_activity';

/**
 * The map's active SIMs over a range reaching the present without reading a row per subscriber of the part of a UTC
 * day before it (docs/dashboard.md, "The map's countries"): `active_hour` is `active_day` by UTC hour, how many
 * subscribers have their latest quarter hour with usage (`subscriber_activity.last_at`) in each UTC hour, per
 * reseller, account and country (of now). A range from `from` to the present then counts `active_day`'s whole days
 * after `from`'s day, `active_hour`'s whole hours of that day after `from`'s hour, and only the subscribers whose
 * `last_at` lies in the quarter hours between `from` and the next hour (at most three).
 *
 * Kept from `subscriber_activity`'s own changes by statement triggers, as `active_day` is (migration 0176): a change
 * moves one count from the old key and hour to the new; counts reaching 0 are deleted.
 */

const HOUR = (column: string) => `date_trunc('hour', ${column}, 'UTC')`;
const KEY = 'reseller_id, account_id, country, hour';

/** Fills `active_hour` from `subscriber_activity`, one statement. Also used by the graphs benchmark after a bulk load. */
export async function buildActiveHour(db: Kysely<any>) {
  await sql`insert into active_hour (${sql.raw(KEY)}, sims)
    select reseller_id, account_id, country, ${sql.raw(HOUR('last_at'))}, count(*) from subscriber_activity group by 1, 2, 3, 4`.execute(db);
  await sql`analyze active_hour`.execute(db);
}

export async function up(db: Kysely<any>) {
  await sql`create table active_hour (
    reseller_id integer not null,
    account_id integer not null,
    country text not null,
    hour timestamptz not null,
    sims integer not null,
    primary key (reseller_id, account_id, country, hour)
  )`.execute(db);
  await sql`create index active_hour_hour_idx on active_hour (hour) include (reseller_id, account_id, country, sims)`.execute(db);
  await sql`create index active_hour_account_idx on active_hour (account_id, hour) include (country, sims)`.execute(db);
  await buildActiveHour(db);
  await createActivityHistogram(db, 'active_hour', 'hour', HOUR);
}

export async function down(db: Kysely<any>) {
  await dropActivityTriggers(db, 'active_hour');
  await sql`drop table if exists active_hour`.execute(db);
}
