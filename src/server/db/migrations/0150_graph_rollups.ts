import { sql, type Kysely } from 'kysely';

/**
 * Rollups the dashboard's graphs read instead of the raw usage log and the package sales, kept current by statement
 * triggers: each insert, update or delete statement adds (or takes away) its rows' figures in one upsert per rollup,
 * read from the statement's transition tables.
 *
 * Figures are kept per quarter hour (UTC instants): every time zone's hour and day boundaries fall on a quarter hour,
 * so a range in any zone is a whole number of slots and a rollup total equals the raw rows' sum exactly.
 * - usage_slot: bytes per (slot, reseller, account, network plmn; '' when the record names none), and the same by
 *   UTC hour (usage_hour) and UTC day (usage_day).
 * - usage_subscriber_slot: bytes per (slot, subscriber), with the reseller and account, for the top subscribers.
 * - sales_slot: package sales (prepaid_package rows sold as a purchase; their price is the ledger's purchase debit)
 *   per (slot, reseller, account, vendor, operator plmn, country). The vendor is the reseller whose template was sold;
 *   the operator is the network of the subscriber's latest usage record at the sale; the country is that network's,
 *   else the subscriber's.
 * Usage belongs to the reseller and account that held the SIM when the record was written; a removed record is taken
 * from the figures it was counted in.
 */
/** New rows belong to the subscriber's reseller and account now. */
const ADDED = (table: string) => `select 1 as sign, n.subscriber_id, n.at, n.plmn, n.bytes_up, n.bytes_down, s.reseller_id, s.account_id
  from ${table} n join subscriber s on s.subscriber_id = n.subscriber_id`;
/**
 * Removed rows are taken from the owner they were counted for (the per-subscriber rollup's): the SIM may have moved
 * since, or be gone (its records removed with it, after its row).
 */
const REMOVED = (table: string) => `select -1 as sign, o.subscriber_id, o.at, o.plmn, o.bytes_up, o.bytes_down, k.reseller_id, k.account_id
  from ${table} o join usage_subscriber_slot k on k.subscriber_id = o.subscriber_id and k.slot = graph_slot(o.at)`;
/** The trigger functions of the usage log's events and the signed rows each adds. */
const USAGE_EVENTS = {
  usage_rollup_inserted: ADDED('new_rows'),
  usage_rollup_deleted: REMOVED('old_rows'),
  usage_rollup_updated: `${REMOVED('old_rows')} union all ${ADDED('new_rows')}`,
};

export async function up(db: Kysely<any>) {
  await sql`create table usage_slot (
    slot timestamptz not null,
    reseller_id integer not null,
    account_id integer not null,
    plmn text not null,
    bytes_up bigint not null default 0,
    bytes_down bigint not null default 0,
    records integer not null default 0,
    primary key (reseller_id, slot, account_id, plmn)
  )`.execute(db);
  await sql`create index usage_slot_account_idx on usage_slot (account_id, slot)`.execute(db);
  // The administrator's graphs read every reseller's figures of a span of time.
  await sql`create index usage_slot_slot_idx on usage_slot (slot)`.execute(db);
  // The same figures by UTC hour and by UTC day: a long range reads whole days and hours, and quarter hours only
  // around its buckets' boundaries.
  for (const level of ['usage_hour', 'usage_day']) {
    await sql`create table ${sql.table(level)} (
      slot timestamptz not null,
      reseller_id integer not null,
      account_id integer not null,
      plmn text not null,
      bytes_up bigint not null default 0,
      bytes_down bigint not null default 0,
      records integer not null default 0,
      primary key (reseller_id, slot, account_id, plmn)
    )`.execute(db);
    await sql`create index ${sql.id(`${level}_account_idx`)} on ${sql.table(level)} (account_id, slot)`.execute(db);
    await sql`create index ${sql.id(`${level}_slot_idx`)} on ${sql.table(level)} (slot)`.execute(db);
  }
  await sql`create table usage_subscriber_slot (
    subscriber_id integer not null,
    slot timestamptz not null,
    reseller_id integer not null,
    account_id integer not null,
    bytes bigint not null default 0,
    primary key (subscriber_id, slot)
  )`.execute(db);
  await sql`create index usage_subscriber_slot_reseller_idx on usage_subscriber_slot (reseller_id, slot)`.execute(db);
  await sql`create index usage_subscriber_slot_account_idx on usage_subscriber_slot (account_id, slot)`.execute(db);
  await sql`create table sales_slot (
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
  await sql`create index sales_slot_account_idx on sales_slot (account_id, slot)`.execute(db);
  await sql`create index sales_slot_slot_idx on sales_slot (slot)`.execute(db);
  await sql`create index usage_subscriber_slot_slot_idx on usage_subscriber_slot (slot)`.execute(db);

  await sql`create function graph_slot(at timestamptz) returns timestamptz language sql immutable as $$
    select to_timestamp(floor(extract(epoch from at) / 900) * 900) $$`.execute(db);

  // Usage: one function per event (a trigger with transition tables serves one event), each adding its signed rows.
  for (const [name, rows] of Object.entries(USAGE_EVENTS)) {
    await sql`create function ${sql.raw(name)}() returns trigger language plpgsql as $$
      begin
        with d as (${sql.raw(rows)}),
        bySlot as (
          insert into usage_slot as u (slot, reseller_id, account_id, plmn, bytes_up, bytes_down, records)
          select graph_slot(d.at), d.reseller_id, d.account_id, coalesce(d.plmn, ''), sum(d.sign * d.bytes_up), sum(d.sign * d.bytes_down), sum(d.sign)
          from d group by 1, 2, 3, 4
          on conflict (reseller_id, slot, account_id, plmn) do update set
            bytes_up = u.bytes_up + excluded.bytes_up, bytes_down = u.bytes_down + excluded.bytes_down, records = u.records + excluded.records),
        byHour as (
          insert into usage_hour as u (slot, reseller_id, account_id, plmn, bytes_up, bytes_down, records)
          select date_trunc('hour', d.at at time zone 'UTC') at time zone 'UTC', d.reseller_id, d.account_id, coalesce(d.plmn, ''),
            sum(d.sign * d.bytes_up), sum(d.sign * d.bytes_down), sum(d.sign)
          from d group by 1, 2, 3, 4
          on conflict (reseller_id, slot, account_id, plmn) do update set
            bytes_up = u.bytes_up + excluded.bytes_up, bytes_down = u.bytes_down + excluded.bytes_down, records = u.records + excluded.records),
        byDay as (
          insert into usage_day as u (slot, reseller_id, account_id, plmn, bytes_up, bytes_down, records)
          select date_trunc('day', d.at at time zone 'UTC') at time zone 'UTC', d.reseller_id, d.account_id, coalesce(d.plmn, ''),
            sum(d.sign * d.bytes_up), sum(d.sign * d.bytes_down), sum(d.sign)
          from d group by 1, 2, 3, 4
          on conflict (reseller_id, slot, account_id, plmn) do update set
            bytes_up = u.bytes_up + excluded.bytes_up, bytes_down = u.bytes_down + excluded.bytes_down, records = u.records + excluded.records)
        insert into usage_subscriber_slot as u (subscriber_id, slot, reseller_id, account_id, bytes)
        select d.subscriber_id, graph_slot(d.at), min(d.reseller_id), min(d.account_id), sum(d.sign * (d.bytes_up + d.bytes_down))
        from d group by 1, 2
        on conflict (subscriber_id, slot) do update set bytes = u.bytes + excluded.bytes;
        return null;
      end $$`.execute(db);
  }
  await sql`create trigger usage_record_rollup_insert after insert on usage_record referencing new table as new_rows
    for each statement execute function usage_rollup_inserted()`.execute(db);
  await sql`create trigger usage_record_rollup_delete after delete on usage_record referencing old table as old_rows
    for each statement execute function usage_rollup_deleted()`.execute(db);
  await sql`create trigger usage_record_rollup_update after update on usage_record referencing old table as old_rows new table as new_rows
    for each statement execute function usage_rollup_updated()`.execute(db);

  // Sales: a package sold as a purchase adds its price when written; a change of its price, sale or owner, or its
  // removal, moves the figures accordingly. The operator and country are fixed when the sale is first counted.
  await sql`create table sales_rollup_key (
    package_id integer primary key,
    slot timestamptz not null,
    reseller_id integer not null,
    account_id integer not null,
    vendor_id integer not null,
    plmn text not null,
    country text not null,
    amount numeric(16, 2) not null
  )`.execute(db);
  await sql`create function sales_rollup_add(ids integer[]) returns void language plpgsql as $$
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
  await sql`create function sales_rollup_remove(ids integer[]) returns void language plpgsql as $$
    begin
      insert into sales_slot as x (slot, reseller_id, account_id, vendor_id, plmn, country, amount, sales)
      select slot, reseller_id, account_id, vendor_id, plmn, country, -sum(amount), -count(*)
      from sales_rollup_key where package_id = any(ids) group by 1, 2, 3, 4, 5, 6
      on conflict (reseller_id, slot, account_id, vendor_id, plmn, country) do update set
        amount = x.amount + excluded.amount, sales = x.sales + excluded.sales;
      delete from sales_rollup_key where package_id = any(ids);
    end $$`.execute(db);
  await sql`create function sales_rollup_inserted() returns trigger language plpgsql as $$
    begin
      perform sales_rollup_add(array_agg(id)) from new_rows where sale_kind = 'purchase';
      return null;
    end $$`.execute(db);
  await sql`create function sales_rollup_deleted() returns trigger language plpgsql as $$
    begin
      perform sales_rollup_remove(array_agg(id)) from old_rows;
      return null;
    end $$`.execute(db);
  // Only rows whose counted figures change are moved (activations, usage counters and the ledger link are not).
  await sql`create function sales_rollup_updated() returns trigger language plpgsql as $$
    declare moved integer[];
    begin
      select array_agg(o.id) into moved from old_rows o join new_rows n on n.id = o.id
      where (o.price, o.sale_kind, o.reseller_id, o.account_id, coalesce(o.payment_date, o.purchase_date))
        is distinct from (n.price, n.sale_kind, n.reseller_id, n.account_id, coalesce(n.payment_date, n.purchase_date));
      if moved is not null then
        perform sales_rollup_remove(moved);
        perform sales_rollup_add(moved);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger prepaid_package_sales_insert after insert on prepaid_package referencing new table as new_rows
    for each statement execute function sales_rollup_inserted()`.execute(db);
  await sql`create trigger prepaid_package_sales_delete after delete on prepaid_package referencing old table as old_rows
    for each statement execute function sales_rollup_deleted()`.execute(db);
  await sql`create trigger prepaid_package_sales_update after update on prepaid_package referencing old table as old_rows new table as new_rows
    for each statement execute function sales_rollup_updated()`.execute(db);

  // The rows already there, each rollup built in one statement.
  await sql`insert into usage_slot (slot, reseller_id, account_id, plmn, bytes_up, bytes_down, records)
    select graph_slot(r.at), s.reseller_id, s.account_id, coalesce(r.plmn, ''), sum(r.bytes_up), sum(r.bytes_down), count(*)
    from usage_record r join subscriber s on s.subscriber_id = r.subscriber_id group by 1, 2, 3, 4`.execute(db);
  await sql`insert into usage_hour (slot, reseller_id, account_id, plmn, bytes_up, bytes_down, records)
    select date_trunc('hour', slot at time zone 'UTC') at time zone 'UTC', reseller_id, account_id, plmn, sum(bytes_up), sum(bytes_down), sum(records)
    from usage_slot group by 1, 2, 3, 4`.execute(db);
  await sql`insert into usage_day (slot, reseller_id, account_id, plmn, bytes_up, bytes_down, records)
    select date_trunc('day', slot at time zone 'UTC') at time zone 'UTC', reseller_id, account_id, plmn, sum(bytes_up), sum(bytes_down), sum(records)
    from usage_hour group by 1, 2, 3, 4`.execute(db);
  await sql`insert into usage_subscriber_slot (subscriber_id, slot, reseller_id, account_id, bytes)
    select r.subscriber_id, graph_slot(r.at), min(s.reseller_id), min(s.account_id), sum(r.bytes_up + r.bytes_down)
    from usage_record r join subscriber s on s.subscriber_id = r.subscriber_id group by 1, 2`.execute(db);
  await sql`select sales_rollup_add(coalesce((select array_agg(id) from prepaid_package where sale_kind = 'purchase'), '{}'))`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop trigger if exists prepaid_package_sales_insert on prepaid_package`.execute(db);
  await sql`drop trigger if exists prepaid_package_sales_delete on prepaid_package`.execute(db);
  await sql`drop trigger if exists prepaid_package_sales_update on prepaid_package`.execute(db);
  await sql`drop trigger if exists usage_record_rollup_insert on usage_record`.execute(db);
  await sql`drop trigger if exists usage_record_rollup_delete on usage_record`.execute(db);
  await sql`drop trigger if exists usage_record_rollup_update on usage_record`.execute(db);
  await sql`drop function if exists sales_rollup_inserted(), sales_rollup_deleted(), sales_rollup_updated(),
    sales_rollup_add(integer[]), sales_rollup_remove(integer[]),
    usage_rollup_inserted(), usage_rollup_deleted(), usage_rollup_updated(), graph_slot(timestamptz)`.execute(db);
  for (const t of ['sales_rollup_key', 'sales_slot', 'usage_subscriber_slot', 'usage_day', 'usage_hour', 'usage_slot'])
    await sql`drop table if exists ${sql.table(t)}`.execute(db);
}
