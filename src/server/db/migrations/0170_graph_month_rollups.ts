import { sql, type Kysely } from 'kysely';

/**
 * The coarsest rollup level, and the sales' coarser levels (docs/dashboard.md, "Rollups and how they stay current"):
 *
 * - by UTC month: `usage_month` (per reseller, account and network, as `usage_day`), `usage_reseller_month` (per
 *   reseller alone, as `usage_reseller_day`) and `usage_subscriber_month` (per subscriber, as `usage_subscriber_day`),
 *   kept by statement triggers of their own on `usage_record` in the way of migrations 0150 and 0166;
 * - `sales_hour`, `sales_day` and `sales_month`: the package sales of `sales_slot` by UTC hour, day and month, kept by
 *   the sales rollup's functions (rewritten here to add to, and take from, every level at once).
 *
 * A range reads whole UTC months where no bucket boundary of it falls, whole days in the months holding one, hours in
 * the days holding one and quarter hours in the hours holding one, so its total stays exact in any zone.
 */
const MONTH = (column: string) => `date_trunc('month', ${column} at time zone 'UTC') at time zone 'UTC'`;
const HOUR = (column: string) => `date_trunc('hour', ${column} at time zone 'UTC') at time zone 'UTC'`;
const DAY = (column: string) => `date_trunc('day', ${column} at time zone 'UTC') at time zone 'UTC'`;

/** New rows belong to the subscriber's reseller and account now. */
const ADDED = (table: string) => `select 1 as sign, n.subscriber_id, n.at, n.plmn, n.bytes_up, n.bytes_down, s.reseller_id, s.account_id
  from ${table} n join subscriber s on s.subscriber_id = n.subscriber_id`;
/** Removed rows are taken from the owner they were counted for (migration 0150's per-subscriber rollup). */
const REMOVED = (table: string) => `select -1 as sign, o.subscriber_id, o.at, o.plmn, o.bytes_up, o.bytes_down, k.reseller_id, k.account_id
  from ${table} o join usage_subscriber_slot k on k.subscriber_id = o.subscriber_id and k.slot = graph_slot(o.at)`;
const EVENTS = {
  usage_month_rollup_inserted: ADDED('new_rows'),
  usage_month_rollup_deleted: REMOVED('old_rows'),
  usage_month_rollup_updated: `${REMOVED('old_rows')} union all ${ADDED('new_rows')}`,
};
const SUMS = 'sum(d.sign * d.bytes_up), sum(d.sign * d.bytes_down), sum(d.sign)';
const ADD = 'bytes_up = u.bytes_up + excluded.bytes_up, bytes_down = u.bytes_down + excluded.bytes_down, records = u.records + excluded.records';

/** The month upserts of one batch of signed usage rows `d`. */
const USAGE_UPSERTS = `
  , m0 as (insert into usage_month as u (slot, reseller_id, account_id, plmn, bytes_up, bytes_down, records)
    select ${MONTH('d.at')}, d.reseller_id, d.account_id, coalesce(d.plmn, ''), ${SUMS} from d group by 1, 2, 3, 4
    on conflict (reseller_id, slot, account_id, plmn) do update set ${ADD})
  , m1 as (insert into usage_reseller_month as u (reseller_id, slot, bytes_up, bytes_down, records)
    select d.reseller_id, ${MONTH('d.at')}, ${SUMS} from d group by 1, 2
    on conflict (reseller_id, slot) do update set ${ADD})
  insert into usage_subscriber_month as u (subscriber_id, slot, reseller_id, account_id, bytes_up, bytes_down, records)
    select d.subscriber_id, ${MONTH('d.at')}, min(d.reseller_id), min(d.account_id), ${SUMS} from d group by 1, 2
    on conflict (subscriber_id, slot) do update set ${ADD}`;

/** The sales levels above the quarter hour and how each truncates a slot. */
const SALES_LEVELS = [
  ['sales_hour', HOUR],
  ['sales_day', DAY],
  ['sales_month', MONTH],
] as const;
const SALES_COLUMNS = 'slot, reseller_id, account_id, vendor_id, plmn, country';

/** Adds `sign` times the rollup keys of packages `ids` to every sales level (one statement). */
function salesUpserts(sign: '' | '-') {
  const levels: (readonly [string, (c: string) => string])[] = [['sales_slot', (c) => c], ...SALES_LEVELS];
  const parts = levels.map(
    ([table, unit]) => `insert into ${table} as x (${SALES_COLUMNS}, amount, sales)
      select ${unit('k.slot')}, k.reseller_id, k.account_id, k.vendor_id, k.plmn, k.country, ${sign}sum(k.amount), ${sign}count(*)
      from sales_rollup_key k where k.package_id = any(ids) group by 1, 2, 3, 4, 5, 6
      on conflict (reseller_id, slot, account_id, vendor_id, plmn, country) do update set
        amount = x.amount + excluded.amount, sales = x.sales + excluded.sales`,
  );
  const last = parts.pop()!;
  return `with ${parts.map((p, i) => `s${i} as (${p})`).join(', ')} ${last};`;
}

/**
 * Builds this migration's rollups from those below them (months from days, the sales' levels from the quarter hours),
 * one statement each. Also used by the graphs benchmark after a bulk load.
 */
export async function buildMonthRollups(db: Kysely<any>) {
  await sql
    .raw(
      `insert into usage_month (slot, reseller_id, account_id, plmn, bytes_up, bytes_down, records)
      select ${MONTH('slot')}, reseller_id, account_id, plmn, sum(bytes_up), sum(bytes_down), sum(records) from usage_day group by 1, 2, 3, 4`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into usage_reseller_month (reseller_id, slot, bytes_up, bytes_down, records)
      select reseller_id, ${MONTH('slot')}, sum(bytes_up), sum(bytes_down), sum(records) from usage_reseller_day group by 1, 2`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into usage_subscriber_month (subscriber_id, slot, reseller_id, account_id, bytes_up, bytes_down, records)
      select subscriber_id, ${MONTH('slot')}, min(reseller_id), min(account_id), sum(bytes_up), sum(bytes_down), sum(records)
      from usage_subscriber_day group by 1, 2`,
    )
    .execute(db);
  let source = 'sales_slot';
  for (const [table, unit] of SALES_LEVELS) {
    await sql
      .raw(
        `insert into ${table} (${SALES_COLUMNS}, amount, sales)
        select ${unit('slot')}, reseller_id, account_id, vendor_id, plmn, country, sum(amount), sum(sales) from ${source} group by 1, 2, 3, 4, 5, 6`,
      )
      .execute(db);
    source = table;
  }
}

export async function up(db: Kysely<any>) {
  await sql`create table usage_month (
    slot timestamptz not null,
    reseller_id integer not null,
    account_id integer not null,
    plmn text not null,
    bytes_up bigint not null default 0,
    bytes_down bigint not null default 0,
    records integer not null default 0,
    primary key (reseller_id, slot, account_id, plmn)
  )`.execute(db);
  await sql`create index usage_month_account_idx on usage_month (account_id, slot)`.execute(db);
  await sql`create index usage_month_slot_idx on usage_month (slot)`.execute(db);
  await sql`create table usage_reseller_month (
    reseller_id integer not null,
    slot timestamptz not null,
    bytes_up bigint not null default 0,
    bytes_down bigint not null default 0,
    records integer not null default 0,
    primary key (reseller_id, slot)
  )`.execute(db);
  await sql`create index usage_reseller_month_slot_idx on usage_reseller_month (slot)`.execute(db);
  await sql`create table usage_subscriber_month (
    subscriber_id integer not null,
    slot timestamptz not null,
    reseller_id integer not null,
    account_id integer not null,
    bytes_up bigint not null default 0,
    bytes_down bigint not null default 0,
    records integer not null default 0,
    primary key (subscriber_id, slot)
  )`.execute(db);
  await sql`create index usage_subscriber_month_reseller_idx on usage_subscriber_month (reseller_id, slot)`.execute(db);
  await sql`create index usage_subscriber_month_account_idx on usage_subscriber_month (account_id, slot)`.execute(db);
  await sql`create index usage_subscriber_month_slot_idx on usage_subscriber_month (slot)`.execute(db);
  for (const [table] of SALES_LEVELS) {
    await sql`create table ${sql.table(table)} (
      slot timestamptz not null,
      reseller_id integer not null,
      account_id integer not null,
      vendor_id integer not null,
      plmn text not null,
      country text not null,
      amount numeric(16, 2) not null default 0,
      sales integer not null default 0,
      primary key (reseller_id, slot, account_id, vendor_id, plmn, country)
    )`.execute(db);
    await sql`create index ${sql.id(`${table}_account_idx`)} on ${sql.table(table)} (account_id, slot)`.execute(db);
    await sql`create index ${sql.id(`${table}_slot_idx`)} on ${sql.table(table)} (slot)`.execute(db);
  }

  for (const [name, rows] of Object.entries(EVENTS))
    await sql`create function ${sql.raw(name)}() returns trigger language plpgsql as $$
      begin
        with d as (${sql.raw(rows)})
        ${sql.raw(USAGE_UPSERTS)};
        return null;
      end $$`.execute(db);
  await sql`create trigger usage_record_month_rollup_insert after insert on usage_record referencing new table as new_rows
    for each statement execute function usage_month_rollup_inserted()`.execute(db);
  await sql`create trigger usage_record_month_rollup_delete after delete on usage_record referencing old table as old_rows
    for each statement execute function usage_month_rollup_deleted()`.execute(db);
  await sql`create trigger usage_record_month_rollup_update after update on usage_record referencing old table as old_rows new table as new_rows
    for each statement execute function usage_month_rollup_updated()`.execute(db);

  // The sales functions of migration 0150, now adding to and taking from every level in one statement.
  await sql`create or replace function sales_rollup_add(ids integer[]) returns void language plpgsql as $$
    begin
      insert into sales_rollup_key (package_id, slot, reseller_id, account_id, vendor_id, plmn, country, amount)
      select p.id, graph_slot(coalesce(p.payment_date, p.purchase_date)), p.reseller_id, p.account_id, t.reseller_id,
        coalesce(last.plmn, ''), coalesce(n.country, s.country, ''), p.price
      from prepaid_package p
      join prepaid_template t on t.id = p.template_id
      left join subscriber s on s.subscriber_id = p.subscriber_id
      left join lateral (select u.plmn from usage_record u where u.subscriber_id = p.subscriber_id and u.plmn is not null
        order by u.at desc, u.id desc limit 1) last on true
      left join lateral (select n.country from network n where n.plmn = last.plmn order by n.withdrawn_at nulls first limit 1) n on true
      where p.id = any(ids) and p.sale_kind = 'purchase';
      ${sql.raw(salesUpserts(''))}
    end $$`.execute(db);
  await sql`create or replace function sales_rollup_remove(ids integer[]) returns void language plpgsql as $$
    begin
      ${sql.raw(salesUpserts('-'))}
      delete from sales_rollup_key where package_id = any(ids);
    end $$`.execute(db);

  await buildMonthRollups(db);
}

export async function down(db: Kysely<any>) {
  for (const event of ['insert', 'delete', 'update'])
    await sql`drop trigger if exists ${sql.id(`usage_record_month_rollup_${event}`)} on usage_record`.execute(db);
  await sql`drop function if exists usage_month_rollup_inserted(), usage_month_rollup_deleted(), usage_month_rollup_updated()`.execute(db);
  // The sales functions as migration 0150 wrote them: the quarter hours alone.
  await sql`create or replace function sales_rollup_remove(ids integer[]) returns void language plpgsql as $$
    begin
      insert into sales_slot as x (slot, reseller_id, account_id, vendor_id, plmn, country, amount, sales)
      select slot, reseller_id, account_id, vendor_id, plmn, country, -sum(amount), -count(*)
      from sales_rollup_key where package_id = any(ids) group by 1, 2, 3, 4, 5, 6
      on conflict (reseller_id, slot, account_id, vendor_id, plmn, country) do update set
        amount = x.amount + excluded.amount, sales = x.sales + excluded.sales;
      delete from sales_rollup_key where package_id = any(ids);
    end $$`.execute(db);
  await sql`create or replace function sales_rollup_add(ids integer[]) returns void language plpgsql as $$
    begin
      insert into sales_rollup_key (package_id, slot, reseller_id, account_id, vendor_id, plmn, country, amount)
      select p.id, graph_slot(coalesce(p.payment_date, p.purchase_date)), p.reseller_id, p.account_id, t.reseller_id,
        coalesce(last.plmn, ''), coalesce(n.country, s.country, ''), p.price
      from prepaid_package p
      join prepaid_template t on t.id = p.template_id
      left join subscriber s on s.subscriber_id = p.subscriber_id
      left join lateral (select u.plmn from usage_record u where u.subscriber_id = p.subscriber_id and u.plmn is not null
        order by u.at desc, u.id desc limit 1) last on true
      left join lateral (select n.country from network n where n.plmn = last.plmn order by n.withdrawn_at nulls first limit 1) n on true
      where p.id = any(ids) and p.sale_kind = 'purchase';
      insert into sales_slot as x (slot, reseller_id, account_id, vendor_id, plmn, country, amount, sales)
      select slot, reseller_id, account_id, vendor_id, plmn, country, sum(amount), count(*)
      from sales_rollup_key where package_id = any(ids) group by 1, 2, 3, 4, 5, 6
      on conflict (reseller_id, slot, account_id, vendor_id, plmn, country) do update set
        amount = x.amount + excluded.amount, sales = x.sales + excluded.sales;
    end $$`.execute(db);
  for (const t of ['sales_month', 'sales_day', 'sales_hour', 'usage_subscriber_month', 'usage_reseller_month', 'usage_month'])
    await sql`drop table if exists ${sql.table(t)}`.execute(db);
}
