import { sql, type Kysely } from 'kysely';

/**
 * Rollups for usage by dimension and for long ranges (docs/dashboard.md), kept by statement triggers on
 * `usage_record` beside those of migration 0150:
 *
 * - `usage_subscriber_slot` gains bytes up, bytes down and records (it had only their sum), and the same figures per
 *   subscriber are kept by UTC hour (`usage_subscriber_hour`) and UTC day (`usage_subscriber_day`): the usage of every
 *   subscriber, account group or saved search over a year reads days, not quarter hours;
 * - `usage_reseller_hour` and `usage_reseller_day`: the figures per reseller alone (no account or network split), the
 *   rows a reseller's or the administrator's long ranges read.
 *
 * Each record counts for the reseller and account that held the SIM when it was written (the per-subscriber rows keep
 * the first owner of their hour or day, as `usage_subscriber_slot` does); a removed record is taken from the figures
 * it was counted in.
 */
const SUBSCRIBER_LEVELS = [
  ['usage_subscriber_hour', 'hour'],
  ['usage_subscriber_day', 'day'],
] as const;
const RESELLER_LEVELS = [
  ['usage_reseller_hour', 'hour'],
  ['usage_reseller_day', 'day'],
] as const;

/** New rows belong to the subscriber's reseller and account now. */
const ADDED = (table: string) => `select 1 as sign, n.subscriber_id, n.at, n.bytes_up, n.bytes_down, s.reseller_id, s.account_id
  from ${table} n join subscriber s on s.subscriber_id = n.subscriber_id`;
/** Removed rows are taken from the owner they were counted for (migration 0150's per-subscriber rollup). */
const REMOVED = (table: string) => `select -1 as sign, o.subscriber_id, o.at, o.bytes_up, o.bytes_down, k.reseller_id, k.account_id
  from ${table} o join usage_subscriber_slot k on k.subscriber_id = o.subscriber_id and k.slot = graph_slot(o.at)`;
const EVENTS = {
  usage_by_rollup_inserted: ADDED('new_rows'),
  usage_by_rollup_deleted: REMOVED('old_rows'),
  usage_by_rollup_updated: `${REMOVED('old_rows')} union all ${ADDED('new_rows')}`,
};
const SUMS = 'sum(d.sign * d.bytes_up), sum(d.sign * d.bytes_down), sum(d.sign)';
const ADD = 'bytes_up = u.bytes_up + excluded.bytes_up, bytes_down = u.bytes_down + excluded.bytes_down, records = u.records + excluded.records';
const truncated = (unit: string, column: string) => `date_trunc('${unit}', ${column} at time zone 'UTC') at time zone 'UTC'`;

/** The upserts of one batch of signed rows `d` into every rollup of this migration. */
function upserts(): string {
  const parts = [
    `insert into usage_subscriber_slot as u (subscriber_id, slot, reseller_id, account_id, bytes_up, bytes_down, records)
      select d.subscriber_id, graph_slot(d.at), min(d.reseller_id), min(d.account_id), ${SUMS} from d group by 1, 2
      on conflict (subscriber_id, slot) do update set ${ADD}`,
    ...SUBSCRIBER_LEVELS.map(
      ([table, unit]) => `insert into ${table} as u (subscriber_id, slot, reseller_id, account_id, bytes_up, bytes_down, records)
      select d.subscriber_id, ${truncated(unit, 'd.at')}, min(d.reseller_id), min(d.account_id), ${SUMS} from d group by 1, 2
      on conflict (subscriber_id, slot) do update set ${ADD}`,
    ),
    ...RESELLER_LEVELS.map(
      ([table, unit]) => `insert into ${table} as u (reseller_id, slot, bytes_up, bytes_down, records)
      select d.reseller_id, ${truncated(unit, 'd.at')}, ${SUMS} from d group by 1, 2
      on conflict (reseller_id, slot) do update set ${ADD}`,
    ),
  ];
  const last = parts.pop()!;
  return `${parts.map((p, i) => `, u${i} as (${p})`).join('\n')}\n${last}`;
}

/**
 * Builds this migration's rollups from the rows already there (the per-subscriber quarter hours' new columns from the
 * log, the rest from those), one statement each. Also used by the graphs benchmark after a bulk load.
 */
export async function buildUsageByRollups(db: Kysely<any>) {
  await sql`update usage_subscriber_slot k set bytes_up = r.up, bytes_down = r.down, records = r.n
    from (select subscriber_id, graph_slot(at) as slot, sum(bytes_up) as up, sum(bytes_down) as down, count(*) as n
      from usage_record group by 1, 2) r
    where k.subscriber_id = r.subscriber_id and k.slot = r.slot`.execute(db);
  let source = 'usage_subscriber_slot';
  for (const [table, unit] of SUBSCRIBER_LEVELS) {
    await sql
      .raw(
        `insert into ${table} (subscriber_id, slot, reseller_id, account_id, bytes_up, bytes_down, records)
      select subscriber_id, ${truncated(unit, 'slot')}, min(reseller_id), min(account_id), sum(bytes_up), sum(bytes_down), sum(records)
      from ${source} group by 1, 2`,
      )
      .execute(db);
    source = table;
  }
  for (const [table, unit] of RESELLER_LEVELS)
    await sql
      .raw(
        `insert into ${table} (reseller_id, slot, bytes_up, bytes_down, records)
      select reseller_id, ${truncated(unit, 'slot')}, sum(bytes_up), sum(bytes_down), sum(records) from usage_hour group by 1, 2`,
      )
      .execute(db);
}

export async function up(db: Kysely<any>) {
  await sql`alter table usage_subscriber_slot add column bytes_up bigint not null default 0,
    add column bytes_down bigint not null default 0, add column records integer not null default 0`.execute(db);
  for (const [table] of SUBSCRIBER_LEVELS) {
    await sql`create table ${sql.table(table)} (
      subscriber_id integer not null,
      slot timestamptz not null,
      reseller_id integer not null,
      account_id integer not null,
      bytes_up bigint not null default 0,
      bytes_down bigint not null default 0,
      records integer not null default 0,
      primary key (subscriber_id, slot)
    )`.execute(db);
    await sql`create index ${sql.id(`${table}_reseller_idx`)} on ${sql.table(table)} (reseller_id, slot)`.execute(db);
    await sql`create index ${sql.id(`${table}_account_idx`)} on ${sql.table(table)} (account_id, slot)`.execute(db);
    await sql`create index ${sql.id(`${table}_slot_idx`)} on ${sql.table(table)} (slot)`.execute(db);
  }
  for (const [table] of RESELLER_LEVELS)
    await sql`create table ${sql.table(table)} (
      reseller_id integer not null,
      slot timestamptz not null,
      bytes_up bigint not null default 0,
      bytes_down bigint not null default 0,
      records integer not null default 0,
      primary key (reseller_id, slot)
    )`.execute(db);
  // The administrator's long ranges read every reseller's days of a span.
  await sql`create index usage_reseller_day_slot_idx on usage_reseller_day (slot)`.execute(db);
  await sql`create index usage_reseller_hour_slot_idx on usage_reseller_hour (slot)`.execute(db);

  for (const [name, rows] of Object.entries(EVENTS))
    await sql`create function ${sql.raw(name)}() returns trigger language plpgsql as $$
      begin
        with d as (${sql.raw(rows)})
        ${sql.raw(upserts())};
        return null;
      end $$`.execute(db);
  await sql`create trigger usage_record_by_rollup_insert after insert on usage_record referencing new table as new_rows
    for each statement execute function usage_by_rollup_inserted()`.execute(db);
  await sql`create trigger usage_record_by_rollup_delete after delete on usage_record referencing old table as old_rows
    for each statement execute function usage_by_rollup_deleted()`.execute(db);
  await sql`create trigger usage_record_by_rollup_update after update on usage_record referencing old table as old_rows new table as new_rows
    for each statement execute function usage_by_rollup_updated()`.execute(db);
  await buildUsageByRollups(db);
}

export async function down(db: Kysely<any>) {
  for (const event of ['insert', 'delete', 'update'])
    await sql`drop trigger if exists ${sql.id(`usage_record_by_rollup_${event}`)} on usage_record`.execute(db);
  await sql`drop function if exists usage_by_rollup_inserted(), usage_by_rollup_deleted(), usage_by_rollup_updated()`.execute(db);
  for (const [table] of [...SUBSCRIBER_LEVELS, ...RESELLER_LEVELS]) await sql`drop table if exists ${sql.table(table)}`.execute(db);
  await sql`alter table usage_subscriber_slot drop column bytes_up, drop column bytes_down, drop column records`.execute(db);
}
