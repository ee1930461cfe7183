import { sql, type Kysely } from 'kysely';
import { createActivityTriggers, dropActivityTriggers } from './0176_subscriber_activity';

/**
 * The map's active SIMs over a range ending in the past without reading a row per subscriber (docs/dashboard.md, "The
 * map's countries"): `active_day_prev` counts, per reseller, account and country (the subscriber's of now, as
 * `active_day`), UTC day and previous day, the subscribers that used data on that day and, before it, last on that
 * previous day ('-infinity' for a subscriber's first day): each subscriber's steps from one day with usage to the next,
 * as its day bits (migration 0180) hold them.
 *
 * The subscribers with usage on a whole UTC day of [d1, d2) are then either
 * - those with a step into one of those days from a day before d1 (one step each: into the first of its days there), or
 * - those with usage on d1 or later (`active_day`) less those with a step from a day before d1 into d2 or later (one
 *   step each: into the first of its days after the range, for a subscriber with none in it),
 * whichever reads fewer rows.
 *
 * Kept from `subscriber_activity`'s own changes by statement triggers, as `active_day` is:
 * - a new row adds its steps, a removed row takes them away;
 * - a changed row: nothing while its reseller, account, country and day bits are unchanged (a record in a quarter
 *   hour or a day it already has); one step when one day was added after its last (usage of a new day); otherwise its
 *   old steps are taken away and its new ones added (a record removed or dated earlier, a move to another reseller,
 *   account or country).
 */

const KEY = 'reseller_id, account_id, country, day, prev_day';
/** Each row's steps (`day_steps`) with a sign, from a transition table or a subquery `rows`. */
const stepsOf = (sign: 1 | -1, rows: string, where = 'true') =>
  `select ${sign} as sign, r.reseller_id, r.account_id, r.country, s.day, s.prev_day from ${rows} r
    cross join lateral day_steps(r.first_day, r.active_days) s where ${where}`;
/** A changed row, old and new, marked when only one day was added after its last. */
const CHANGED = `(select n.reseller_id, n.account_id, n.country, n.first_day, n.active_days,
    o.reseller_id as old_reseller_id, o.account_id as old_account_id, o.country as old_country, o.first_day as old_first_day,
    o.active_days as old_active_days,
    (o.reseller_id, o.account_id, o.country, o.first_day) = (n.reseller_id, n.account_id, n.country, n.first_day)
      and length(n.active_days) > length(o.active_days)
      and substring(n.active_days from 1 for length(o.active_days)) = o.active_days
      and position(B'1' in substring(n.active_days from length(o.active_days) + 1)) = length(n.active_days) - length(o.active_days) as appended
  from old_rows o join new_rows n on n.subscriber_id = o.subscriber_id
  where (o.reseller_id, o.account_id, o.country, o.first_day, o.active_days)
    is distinct from (n.reseller_id, n.account_id, n.country, n.first_day, n.active_days))`;
const OLD_OF_CHANGED = `(select old_reseller_id as reseller_id, old_account_id as account_id, old_country as country,
    old_first_day as first_day, old_active_days as active_days, appended from c)`;
const EVENTS = {
  active_day_prev_inserted: stepsOf(1, 'new_rows'),
  active_day_prev_deleted: stepsOf(-1, 'old_rows'),
  active_day_prev_updated: `select 1, c.reseller_id, c.account_id, c.country, c.first_day + length(c.active_days) - 1,
      day_bits_last(c.old_first_day, c.old_active_days) from c where c.appended
    union all ${stepsOf(-1, OLD_OF_CHANGED, 'not r.appended')}
    union all ${stepsOf(1, 'c', 'not r.appended')}`,
};

/**
 * Fills `active_day_prev` from the per-subscriber days with bytes (`usage_subscriber_day`, the days the day bits were
 * built from) under each subscriber's row of `subscriber_activity`, one statement. Also used by the graphs benchmark
 * after a bulk load.
 */
export async function buildActiveDayPrev(db: Kysely<any>) {
  await sql`insert into active_day_prev (${sql.raw(KEY)}, sims)
    select a.reseller_id, a.account_id, a.country, d.day, d.prev_day, count(*)
    from (select u.subscriber_id, u.day, coalesce(lag(u.day) over (partition by u.subscriber_id order by u.day), '-infinity') as prev_day
      from (select distinct subscriber_id, (slot at time zone 'UTC')::date as day from usage_subscriber_day where bytes_up + bytes_down <> 0) u) d
    join subscriber_activity a on a.subscriber_id = d.subscriber_id
    group by 1, 2, 3, 4, 5`.execute(db);
  await sql`analyze active_day_prev`.execute(db);
}

export async function up(db: Kysely<any>) {
  // A row's days with usage, each with the one before it ('-infinity' for the first).
  await sql`create function day_steps(first date, bits bit varying, out day date, out prev_day date) returns setof record
    language plpgsql immutable rows 30 as $$
    declare
      i integer;
      previous date := '-infinity';
    begin
      for i in 0 .. length(bits) - 1 loop
        if get_bit(bits, i) = 1 then
          day := first + i;
          prev_day := previous;
          return next;
          previous := first + i;
        end if;
      end loop;
    end $$`.execute(db);
  // A row's last day with usage (a string may end in cleared days).
  await sql`create function day_bits_last(first date, bits bit varying) returns date language plpgsql immutable as $$
    declare
      i integer;
    begin
      for i in reverse length(bits) - 1 .. 0 loop
        if get_bit(bits, i) = 1 then return first + i; end if;
      end loop;
      return null;
    end $$`.execute(db);

  await sql`create table active_day_prev (
    reseller_id integer not null,
    account_id integer not null,
    country text not null,
    day date not null,
    prev_day date not null,
    sims integer not null,
    primary key (reseller_id, account_id, country, day, prev_day)
  )`.execute(db);
  // A day's steps from before a date, read from the index alone: the administrator and resellers by day, an account by
  // its own.
  await sql`create index active_day_prev_day_idx on active_day_prev (day, prev_day) include (reseller_id, account_id, country, sims)`.execute(db);
  await sql`create index active_day_prev_account_idx on active_day_prev (account_id, day, prev_day) include (country, sims)`.execute(db);
  await buildActiveDayPrev(db);

  // One upsert of the statement's net counts per key (in key order, so two statements lock alike), then the counts it
  // brought to 0 go. Without JIT compilation: the planner cannot know a transition table's rows or a row's days, and
  // its guesses would have every batch of usage compile its plan (0.4 s for 10,000 records at a million subscribers).
  for (const [name, steps] of Object.entries(EVENTS))
    await sql`create function ${sql.raw(name)}() returns trigger language plpgsql set jit = off as $$
      declare
        emptied_resellers integer[];
        emptied_accounts integer[];
        emptied_countries text[];
        emptied_days date[];
        emptied_prev_days date[];
      begin
        with ${sql.raw(name === 'active_day_prev_updated' ? `c as materialized ${CHANGED},` : '')}
          net as (select ${sql.raw(KEY)}, sum(sign) as sims from (${sql.raw(steps)}) s(sign, ${sql.raw(KEY)})
            group by 1, 2, 3, 4, 5 having sum(sign) <> 0),
          up as (insert into active_day_prev as x (${sql.raw(KEY)}, sims) select * from net order by 1, 2, 3, 4, 5
            on conflict (${sql.raw(KEY)}) do update set sims = x.sims + excluded.sims returning x.*)
        select array_agg(up.reseller_id), array_agg(up.account_id), array_agg(up.country), array_agg(up.day), array_agg(up.prev_day)
          into emptied_resellers, emptied_accounts, emptied_countries, emptied_days, emptied_prev_days from up where up.sims = 0;
        if emptied_resellers is not null then
          delete from active_day_prev x using unnest(emptied_resellers, emptied_accounts, emptied_countries, emptied_days, emptied_prev_days) e(${sql.raw(KEY)})
          where (x.reseller_id, x.account_id, x.country, x.day, x.prev_day) = (e.reseller_id, e.account_id, e.country, e.day, e.prev_day)
            and x.sims = 0;
        end if;
        return null;
      end $$`.execute(db);
  await createActivityTriggers(db, 'active_day_prev');
}

export async function down(db: Kysely<any>) {
  await dropActivityTriggers(db, 'active_day_prev');
  await sql`drop table if exists active_day_prev`.execute(db);
  await sql`drop function if exists day_steps(date, bit varying), day_bits_last(date, bit varying)`.execute(db);
}
