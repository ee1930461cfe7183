import { sql, type Kysely } from 'kysely';

/**
 * Each subscriber's data of a UTC day and the day before it (`usage_subscriber_recent_days`, docs/dashboard.md, "Top
 * subscribers of the last 24 hours"), kept by statement triggers on `usage_record` like the rollups of migration 0166:
 * the row of day D holds the bytes up and down of the records of D and of D - 1, so the last 24 hours, which never
 * leave the current UTC day and the one before it, hold at most the row of the current day. Read by that day from the
 * end of the index on its bytes, the few subscribers who may be among the largest of the 24 hours are found without
 * adding up everyone's quarter hours.
 *
 * Only the rows of yesterday (UTC) and later are written: a record of an older day only counts for rows no read asks
 * for any more. A batch also removes its subscribers' older rows, so the table keeps about two rows a subscriber.
 */
const TODAY = `date_trunc('day', now() at time zone 'UTC')`;
/** The signed bytes of a batch: new rows add, old rows take away. */
const ADDED = `select n.subscriber_id, n.at, n.bytes_up + n.bytes_down as bytes from new_rows n`;
const REMOVED = `select o.subscriber_id, o.at, -(o.bytes_up + o.bytes_down) as bytes from old_rows o`;
const EVENTS = {
  usage_recent_days_inserted: ADDED,
  usage_recent_days_deleted: REMOVED,
  usage_recent_days_updated: `${REMOVED} union all ${ADDED}`,
};

/** The rows (subscriber_id, slot, bytes) of the records `d` (subscriber_id, at, bytes): each counts for its day and the next. */
const ROWS = `select d.subscriber_id, v.slot at time zone 'UTC' as slot, sum(d.bytes) as bytes
  from d cross join lateral (values (date_trunc('day', d.at at time zone 'UTC')), (date_trunc('day', d.at at time zone 'UTC') + interval '1 day')) v(slot)
  where v.slot >= ${TODAY} - interval '1 day'
  group by 1, 2`;

/**
 * The rows of yesterday and later from the per-subscriber days (those of the day before yesterday count for
 * yesterday's), for the days already there. Also used by the graphs benchmark after its bulk load.
 */
export async function buildRecentDays(db: Kysely<any>) {
  await sql`insert into usage_subscriber_recent_days (subscriber_id, slot, bytes)
    with d as (select u.subscriber_id, u.slot as at, u.bytes_up + u.bytes_down as bytes from usage_subscriber_day u
      where u.slot >= (${sql.raw(TODAY)} - interval '2 days') at time zone 'UTC')
    select * from (${sql.raw(ROWS)}) k where k.bytes <> 0`.execute(db);
}

export async function up(db: Kysely<any>) {
  await sql`create table usage_subscriber_recent_days (
    subscriber_id integer not null,
    slot timestamptz not null,
    bytes bigint not null default 0,
    primary key (subscriber_id, slot)
  )`.execute(db);
  await sql`create index usage_subscriber_recent_days_bytes_idx on usage_subscriber_recent_days (slot, bytes)`.execute(db);
  for (const [name, rows] of Object.entries(EVENTS))
    await sql`create function ${sql.raw(name)}() returns trigger language plpgsql as $$
      begin
        with d as (${sql.raw(rows)}),
        gone as (delete from usage_subscriber_recent_days u
          where u.subscriber_id in (select d.subscriber_id from d) and u.slot < (${sql.raw(TODAY)} - interval '1 day') at time zone 'UTC')
        insert into usage_subscriber_recent_days as u (subscriber_id, slot, bytes)
        select * from (${sql.raw(ROWS)}) k where k.bytes <> 0
        on conflict (subscriber_id, slot) do update set bytes = u.bytes + excluded.bytes;
        return null;
      end $$`.execute(db);
  await sql`create trigger usage_record_recent_days_insert after insert on usage_record referencing new table as new_rows
    for each statement execute function usage_recent_days_inserted()`.execute(db);
  await sql`create trigger usage_record_recent_days_delete after delete on usage_record referencing old table as old_rows
    for each statement execute function usage_recent_days_deleted()`.execute(db);
  await sql`create trigger usage_record_recent_days_update after update on usage_record referencing old table as old_rows new table as new_rows
    for each statement execute function usage_recent_days_updated()`.execute(db);
  await buildRecentDays(db);
}

export async function down(db: Kysely<any>) {
  for (const event of ['insert', 'delete', 'update'])
    await sql`drop trigger if exists ${sql.id(`usage_record_recent_days_${event}`)} on usage_record`.execute(db);
  await sql`drop function if exists usage_recent_days_inserted(), usage_recent_days_deleted(), usage_recent_days_updated()`.execute(db);
  await sql`drop table if exists usage_subscriber_recent_days`.execute(db);
}
