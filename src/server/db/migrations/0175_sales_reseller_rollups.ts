import { sql, type Kysely } from 'kysely';

/**
 * The package sales per reseller alone (docs/dashboard.md, "Rollups and how they stay current"), as migration 0166
 * keeps the usage: `sales_reseller_hour`, `sales_reseller_day` and `sales_reseller_month`, the amount and number of
 * sales per (reseller, UTC hour, day or month), without the account, vendor, network and country split of
 * `sales_hour`, `sales_day` and `sales_month` (whose key makes nearly one row a sale). The sales series, total and
 * trend of a caller not narrowed to one account read these; the quarter hours stay `sales_slot`'s (read only in the
 * hours holding a boundary of the range).
 *
 * The sales rollup's functions (rewritten by migration 0170 to write every level in one statement) now also add to,
 * and take from, these levels, in the same statement.
 */
const truncated = (unit: string) => (column: string) => `date_trunc('${unit}', ${column} at time zone 'UTC') at time zone 'UTC'`;
type Level = readonly [table: string, unit: (column: string) => string];
/** The levels with every key, quarter hours first. */
const DETAILED: readonly Level[] = [
  ['sales_slot', (c) => c],
  ['sales_hour', truncated('hour')],
  ['sales_day', truncated('day')],
  ['sales_month', truncated('month')],
];
/** This migration's levels, each built from the detailed level of the same unit. */
const RESELLER = [
  ['sales_reseller_hour', truncated('hour'), 'sales_hour'],
  ['sales_reseller_day', truncated('day'), 'sales_day'],
  ['sales_reseller_month', truncated('month'), 'sales_month'],
] as const;
const KEYS = 'reseller_id, account_id, vendor_id, plmn, country';
const ADD = 'amount = x.amount + excluded.amount, sales = x.sales + excluded.sales';

/**
 * One statement adding `sign` times the rollup keys of packages `ids` to every level: the detailed ones and, with
 * `withResellers`, this migration's.
 */
function salesUpserts(sign: '' | '-', withResellers: boolean) {
  const parts = [
    ...DETAILED.map(
      ([table, unit]) => `insert into ${table} as x (slot, ${KEYS}, amount, sales)
      select ${unit('k.slot')}, ${KEYS}, ${sign}sum(k.amount), ${sign}count(*) from k group by 1, 2, 3, 4, 5, 6
      on conflict (reseller_id, slot, account_id, vendor_id, plmn, country) do update set ${ADD}`,
    ),
    ...(withResellers ? RESELLER : []).map(
      ([table, unit]) => `insert into ${table} as x (reseller_id, slot, amount, sales)
      select k.reseller_id, ${unit('k.slot')}, ${sign}sum(k.amount), ${sign}count(*) from k group by 1, 2
      on conflict (reseller_id, slot) do update set ${ADD}`,
    ),
  ];
  const last = parts.pop()!;
  return `with k as (select * from sales_rollup_key where package_id = any(ids)),
    ${parts.map((p, i) => `s${i} as (${p})`).join(',\n')}
    ${last};`;
}

/** The sales rollup's two functions (migration 0150's keys of a package, then the upserts of every level). */
async function salesFunctions(db: Kysely<any>, withResellers: boolean) {
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
      ${sql.raw(salesUpserts('', withResellers))}
    end $$`.execute(db);
  await sql`create or replace function sales_rollup_remove(ids integer[]) returns void language plpgsql as $$
    begin
      ${sql.raw(salesUpserts('-', withResellers))}
      delete from sales_rollup_key where package_id = any(ids);
    end $$`.execute(db);
}

export async function up(db: Kysely<any>) {
  for (const [table] of RESELLER) {
    await sql`create table ${sql.table(table)} (
      reseller_id integer not null,
      slot timestamptz not null,
      amount numeric(16, 2) not null default 0,
      sales integer not null default 0,
      primary key (reseller_id, slot)
    )`.execute(db);
    // The administrator's ranges read every reseller's rows of a span.
    await sql`create index ${sql.id(`${table}_slot_idx`)} on ${sql.table(table)} (slot)`.execute(db);
  }
  await salesFunctions(db, true);
  for (const [table, , source] of RESELLER)
    await sql`insert into ${sql.table(table)} (reseller_id, slot, amount, sales)
      select reseller_id, slot, sum(amount), sum(sales) from ${sql.table(source)} group by 1, 2`.execute(db);
}

export async function down(db: Kysely<any>) {
  await salesFunctions(db, false);
  for (const [table] of RESELLER) await sql`drop table if exists ${sql.table(table)}`.execute(db);
}
