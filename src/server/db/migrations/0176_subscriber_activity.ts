import { sql, type Kysely } from 'kysely';

/**
 * The map's active SIMs without reading a range's per-subscriber rollups (docs/dashboard.md, "The map's countries"):
 *
 * - `subscriber_activity`: per subscriber with usage, the quarter hour (`graph_slot`) of its latest record with bytes,
 *   and the subscriber's reseller, account and country ('' when unknown) as they are now. Kept by statement triggers
 *   on `usage_record` in the way of migrations 0150, 0166 and 0170: new records move `last_at` forward; removed (or
 *   changed) records that may have been the latest have it read again from the subscriber's remaining records, and the
 *   row goes when none is left. A subscriber's change of reseller, account or country is copied to its row (a
 *   row-level trigger firing only on a change, as the subscriber counts of migration 0127 do), and its removal removes
 *   the row (one statement per deleting statement, as migration 0168 cascades the audit entries).
 * - `active_day`: how many subscribers have their `last_at` on each UTC day, per reseller, account and country, kept
 *   from `subscriber_activity`'s own changes by statement triggers; a count that reaches 0 is deleted.
 *
 * Every range boundary is a quarter hour, so a subscriber used data in [from, to) exactly when its latest quarter hour
 * with bytes is at or after `from` and before `to`, or it is at or after `to` and it also used data in the range.
 */

const DAY = (column: string) => `(${column} at time zone 'UTC')::date`;
const KEY = 'reseller_id, account_id, country, day';

/**
 * Statement triggers on `subscriber_activity` keeping `table`, how many subscribers have their `last_at` in each
 * `bucket` (its column `column`) per reseller, account and country: one upsert of the statement's net counts per key,
 * then the keys it emptied go (keys in one order, so two statements upserting the same counts lock them alike).
 * Functions `<table>_inserted`, `_deleted` and `_updated`. Also used by migration 0182.
 */
export async function createActivityHistogram(db: Kysely<any>, table: string, column: string, bucket: (at: string) => string) {
  const key = `reseller_id, account_id, country, ${column}`;
  // The rows a change of `subscriber_activity` adds to (+1) and takes from (-1) the histogram, per event.
  const added = `select 1 as sign, reseller_id, account_id, country, ${bucket('last_at')} as ${column} from new_rows`;
  const removed = `select -1 as sign, reseller_id, account_id, country, ${bucket('last_at')} as ${column} from old_rows`;
  const events = {
    inserted: { rows: added, removes: false },
    deleted: { rows: removed, removes: true },
    updated: { rows: `${removed} union all ${added}`, removes: true },
  };
  for (const [event, { rows, removes }] of Object.entries(events))
    await sql`create function ${sql.raw(`${table}_${event}`)}() returns trigger language plpgsql as $$
      begin
        insert into ${sql.raw(table)} as x (${sql.raw(key)}, sims)
        select ${sql.raw(key)}, sum(d.sign) from (${sql.raw(rows)}) d group by 1, 2, 3, 4 having sum(d.sign) <> 0 order by 1, 2, 3, 4
        on conflict (${sql.raw(key)}) do update set sims = x.sims + excluded.sims;
        ${sql.raw(
          removes
            ? `delete from ${table} x using old_rows o where x.sims = 0 and x.reseller_id = o.reseller_id and x.account_id = o.account_id
                and x.country = o.country and x.${column} = ${bucket('o.last_at')};`
            : '',
        )}
        return null;
      end $$`.execute(db);
  await createActivityTriggers(db, table);
}

/**
 * The statement triggers `<name>_insert`, `_delete` and `_update` on `subscriber_activity`, with its transition tables,
 * calling the functions `<name>_inserted`, `_deleted` and `_updated`. Also used by migration 0181.
 */
export async function createActivityTriggers(db: Kysely<any>, name: string) {
  await sql`create trigger ${sql.raw(`${name}_insert`)} after insert on subscriber_activity referencing new table as new_rows
    for each statement execute function ${sql.raw(`${name}_inserted`)}()`.execute(db);
  await sql`create trigger ${sql.raw(`${name}_delete`)} after delete on subscriber_activity referencing old table as old_rows
    for each statement execute function ${sql.raw(`${name}_deleted`)}()`.execute(db);
  await sql`create trigger ${sql.raw(`${name}_update`)} after update on subscriber_activity referencing old table as old_rows new table as new_rows
    for each statement execute function ${sql.raw(`${name}_updated`)}()`.execute(db);
}

/** Drops what `createActivityTriggers` made and the three functions it calls (migrations 0181 and 0182 going down). */
export async function dropActivityTriggers(db: Kysely<any>, name: string) {
  for (const event of ['insert', 'delete', 'update']) await sql`drop trigger if exists ${sql.id(`${name}_${event}`)} on subscriber_activity`.execute(db);
  await sql`drop function if exists ${sql.raw(['inserted', 'deleted', 'updated'].map((e) => `${name}_${e}()`).join(', '))}`.execute(db);
}

/** The per-subscriber rollups from the coarsest down: each level's latest row with bytes inside the coarser one's. */
const LEVELS = ['usage_subscriber_month', 'usage_subscriber_day', 'usage_subscriber_hour', 'usage_subscriber_slot'] as const;

/** New records with bytes move the subscriber's `last_at` forward (never back). */
const USAGE_ADDED = `
  insert into subscriber_activity as a (subscriber_id, reseller_id, account_id, country, last_at)
  select n.subscriber_id, s.reseller_id, s.account_id, coalesce(s.country, '')::text, graph_slot(max(n.at))
  from new_rows n join subscriber s on s.subscriber_id = n.subscriber_id
  where n.bytes_up + n.bytes_down <> 0 group by n.subscriber_id, s.reseller_id, s.account_id, s.country order by 1
  on conflict (subscriber_id) do update set last_at = excluded.last_at where a.last_at < excluded.last_at;`;
/** Removed records with bytes in (or after) the subscriber's latest quarter hour have it read again. */
export const USAGE_REMOVED = `
  perform subscriber_activity_recount(array_agg(distinct o.subscriber_id))
  from old_rows o join subscriber_activity a on a.subscriber_id = o.subscriber_id
  where o.bytes_up + o.bytes_down <> 0 and graph_slot(o.at) >= a.last_at;`;
export const USAGE_EVENTS = {
  subscriber_activity_usage_inserted: USAGE_ADDED,
  subscriber_activity_usage_deleted: USAGE_REMOVED,
  subscriber_activity_usage_updated: `${USAGE_REMOVED} ${USAGE_ADDED}`,
};

/**
 * Builds both tables from the per-subscriber rollups (the latest month with bytes, its latest day, hour and quarter
 * hour; a level without rows there leaves the coarser one's start) and the subscribers, one statement each, with
 * `subscriber_activity`'s triggers off. Also used by the graphs benchmark after a bulk load.
 */
export async function buildSubscriberActivity(db: Kysely<any>) {
  const [month, ...finer] = LEVELS;
  const joins = finer.map(
    (table, i) => `left join lateral (select max(x.slot) as slot from ${table} x
      where x.subscriber_id = l0.subscriber_id and x.slot >= l${i}.slot and x.bytes_up + x.bytes_down <> 0) l${i + 1} on true`,
  );
  const latest = `coalesce(${finer.map((_t, i) => `l${finer.length - i}.slot`).join(', ')}, l0.slot)`;
  await sql
    .raw(
      `insert into subscriber_activity (subscriber_id, reseller_id, account_id, country, last_at)
      select s.subscriber_id, s.reseller_id, s.account_id, coalesce(s.country, '')::text, ${latest}
      from (select subscriber_id, max(slot) as slot from ${month} where bytes_up + bytes_down <> 0 group by 1) l0
      join subscriber s on s.subscriber_id = l0.subscriber_id
      ${joins.join('\n      ')}`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into active_day (${KEY}, sims)
      select reseller_id, account_id, country, ${DAY('last_at')}, count(*) from subscriber_activity group by 1, 2, 3, 4`,
    )
    .execute(db);
}

/** A subscriber's new reseller, account or country copied to its row, one subscriber at a time (replaced by migration 0183). */
export async function createMovedRowTrigger(db: Kysely<any>) {
  await sql`create or replace function subscriber_activity_moved() returns trigger language plpgsql as $$
    begin
      update subscriber_activity set reseller_id = new.reseller_id, account_id = new.account_id, country = coalesce(new.country, '')::text
      where subscriber_id = new.subscriber_id;
      return null;
    end $$`.execute(db);
  await sql`create trigger subscriber_activity_moved after update of reseller_id, account_id, country on subscriber for each row
    when (old.reseller_id is distinct from new.reseller_id or old.account_id is distinct from new.account_id
      or old.country is distinct from new.country)
    execute function subscriber_activity_moved()`.execute(db);
}

export async function up(db: Kysely<any>) {
  await sql`create table subscriber_activity (
    subscriber_id integer primary key,
    reseller_id integer not null,
    account_id integer not null,
    country text not null default '',
    last_at timestamptz not null
  )`.execute(db);
  // Whether anyone in a scope was active at or after a range's end, and the subscribers active in part of a day.
  await sql`create index subscriber_activity_last_idx on subscriber_activity (last_at)`.execute(db);
  await sql`create index subscriber_activity_reseller_idx on subscriber_activity (reseller_id, last_at)`.execute(db);
  await sql`create index subscriber_activity_account_idx on subscriber_activity (account_id, last_at)`.execute(db);
  await sql`create table active_day (
    reseller_id integer not null,
    account_id integer not null,
    country text not null,
    day date not null,
    sims integer not null,
    primary key (reseller_id, account_id, country, day)
  )`.execute(db);
  await sql`create index active_day_account_idx on active_day (account_id, day)`.execute(db);
  await sql`create index active_day_day_idx on active_day (day)`.execute(db);
  await buildSubscriberActivity(db);

  await createActivityHistogram(db, 'active_day', 'day', DAY);

  // The usage log: subscribers whose latest quarter hour with bytes may have gone have it read again (the records'
  // index by subscriber and time, newest first), and lose their row when no record with bytes is left.
  await sql`create function subscriber_activity_recount(ids integer[]) returns void language plpgsql as $$
    begin
      delete from subscriber_activity a where a.subscriber_id = any(ids)
        and not exists (select 1 from usage_record u where u.subscriber_id = a.subscriber_id and u.bytes_up + u.bytes_down <> 0);
      update subscriber_activity a set last_at = l.last_at
      from (select k.id, graph_slot((select u.at from usage_record u where u.subscriber_id = k.id and u.bytes_up + u.bytes_down <> 0
          order by u.at desc limit 1)) as last_at
        from unnest(ids) k(id) order by 1) l
      where a.subscriber_id = l.id and a.last_at <> l.last_at;
    end $$`.execute(db);
  for (const [name, body] of Object.entries(USAGE_EVENTS))
    await sql`create function ${sql.raw(name)}() returns trigger language plpgsql as $$
      begin
        ${sql.raw(body)}
        return null;
      end $$`.execute(db);
  await sql`create trigger usage_record_activity_insert after insert on usage_record referencing new table as new_rows
    for each statement execute function subscriber_activity_usage_inserted()`.execute(db);
  await sql`create trigger usage_record_activity_delete after delete on usage_record referencing old table as old_rows
    for each statement execute function subscriber_activity_usage_deleted()`.execute(db);
  await sql`create trigger usage_record_activity_update after update on usage_record referencing old table as old_rows new table as new_rows
    for each statement execute function subscriber_activity_usage_updated()`.execute(db);

  // The subscriber: its new reseller, account or country, and its removal.
  await createMovedRowTrigger(db);
  await sql`create function subscriber_activity_removed() returns trigger language plpgsql as $$
    begin
      delete from subscriber_activity where subscriber_id in (select subscriber_id from removed);
      return null;
    end $$`.execute(db);
  await sql`create trigger subscriber_activity_removed after delete on subscriber referencing old table as removed
    for each statement execute function subscriber_activity_removed()`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop trigger if exists subscriber_activity_removed on subscriber`.execute(db);
  await sql`drop trigger if exists subscriber_activity_moved on subscriber`.execute(db);
  for (const event of ['insert', 'delete', 'update']) await sql`drop trigger if exists ${sql.id(`usage_record_activity_${event}`)} on usage_record`.execute(db);
  await sql`drop function if exists subscriber_activity_removed(), subscriber_activity_moved(),
    subscriber_activity_usage_inserted(), subscriber_activity_usage_deleted(), subscriber_activity_usage_updated(),
    subscriber_activity_recount(integer[]), active_day_inserted(), active_day_deleted(), active_day_updated()`.execute(db);
  await sql`drop table if exists active_day`.execute(db);
  await sql`drop table if exists subscriber_activity`.execute(db);
}
