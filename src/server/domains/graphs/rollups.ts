/**
 * The rollups every graph call reads (migrations 0150, 0166, 0170 and 0175): their levels, the rows of a range at the
 * coarsest level its boundaries allow, and the transaction a graph read runs in (docs/dashboard.md).
 */
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/types';
import type { ScopeBody } from './scope';
import type { Principal } from '../../http/principal';

/** The four levels of one rollup: quarter hours, UTC hours, UTC days, UTC months. */
export type Levels = readonly [slot: string, hour: string, day: string, month: string];
export const NETWORK_LEVELS: Levels = ['usage_slot', 'usage_hour', 'usage_day', 'usage_month'];
/** Per reseller alone (no account or network split): for callers not narrowed to an account. */
export const RESELLER_LEVELS: Levels = ['usage_slot', 'usage_reseller_hour', 'usage_reseller_day', 'usage_reseller_month'];
export const SUBSCRIBER_LEVELS: Levels = ['usage_subscriber_slot', 'usage_subscriber_hour', 'usage_subscriber_day', 'usage_subscriber_month'];
/** The package sales (migrations 0150 and 0170). */
export const SALES_LEVELS: Levels = ['sales_slot', 'sales_hour', 'sales_day', 'sales_month'];
/** The package sales per reseller alone (migration 0175; the quarter hours are `sales_slot`'s). */
export const SALES_RESELLER_LEVELS: Levels = ['sales_slot', 'sales_reseller_hour', 'sales_reseller_day', 'sales_reseller_month'];
/** The figures every usage rollup row has. */
export const USAGE_FIGURES = sql`x.bytes_up, x.bytes_down, x.records`;
export const SALES_FIGURES = sql`x.amount, x.sales`;

/** Whether a caller's scope is one account (an account user, or `accountId` asked): only the account-split rollups hold its figures. */
export function accountScoped(principal: Principal, body: ScopeBody): boolean {
  return body.accountId !== undefined || (principal.accountId !== null && !principal.isAdmin);
}

/** The rollup a caller's usage over time reads: per reseller alone unless the scope is one account. */
export function usageLevels(principal: Principal, body: ScopeBody): Levels {
  return accountScoped(principal, body) ? NETWORK_LEVELS : RESELLER_LEVELS;
}

/** The rollup a caller's sales over time (not by key) read: per reseller alone unless the scope is one account. */
export function salesLevels(principal: Principal, body: ScopeBody): Levels {
  return accountScoped(principal, body) ? SALES_LEVELS : SALES_RESELLER_LEVELS;
}

/**
 * A level's windows: the UTC hours, days or months (`unit`) one of the instants `t` falls inside, as [s, e). An
 * instant at a period's very start splits nothing: a zone's whole hours are whole UTC hours, and UTC's days and
 * months whole UTC days and months.
 */
const windows = (unit: 'hour' | 'day' | 'month') =>
  sql`(select s at time zone 'UTC' as s, (s + ${sql.lit(`1 ${unit}`)}::interval) at time zone 'UTC' as e
    from (select distinct date_trunc(${sql.lit(unit)}, t at time zone 'UTC') as s from t
      where date_trunc(${sql.lit(unit)}, t at time zone 'UTC') <> t at time zone 'UTC') q)`;

/**
 * The rows of [from, to) of a rollup, each exactly once, read at the coarsest level that stays inside one bucket:
 * whole UTC months without a boundary (`bounds`: a subquery of instants `t`, the buckets' starts and the range's end),
 * whole days of the months holding one, whole hours of the days holding one, and quarter hours only in the hours
 * holding one. A month or a day of a zone off UTC always holds a boundary of a monthly or daily bucket in that zone,
 * so such a series reads its middle by days or hours; a total (two boundaries, the range's ends) reads every whole
 * UTC month between them. Each window's reads are bounded by the window alone (clipped to the range), so the planner
 * reads them through the slot index window by window instead of reading the whole range at the finer levels and
 * filtering. Columns: `slot`, `figures` (the usage's bytes and records by default) and `columns` (more of the
 * rollup's, e.g. `, x.plmn`).
 */
/** A range's two ends alone as the boundaries of `rollupRows`: for a total over it, nothing else splits a row. */
export const endsOf = (from: RawBuilder<unknown>, to: RawBuilder<unknown>) => sql`(select unnest(array[${from}, ${to}]) as t)`;

export function rollupRows(
  levels: Levels,
  scope: RawBuilder<SqlBool>,
  from: RawBuilder<unknown>,
  to: RawBuilder<unknown>,
  bounds: RawBuilder<unknown>,
  columns: RawBuilder<unknown> = sql``,
  figures: RawBuilder<unknown> = USAGE_FIGURES,
) {
  const [slot, hour, day, month] = levels.map((t) => sql.table(t));
  const cols = sql`x.slot, ${figures} ${columns}`;
  // The period holding `to` is always read a level finer, so each level's reads also stop at its start: the index
  // range then leaves out that period's rows (the current month's, for a range to now) instead of filtering them.
  const below = (unit: string) => sql`least(${to}, date_trunc(${sql.lit(unit)}, (${to}) at time zone 'UTC') at time zone 'UTC')`;
  const within = (unit: string) => sql`x.slot >= greatest(w.s, ${from}) and x.slot < least(w.e, ${below(unit)})`;
  return sql`(
    with t as (select distinct t from ${bounds} b),
    qwin as materialized ${windows('hour')},
    hwin as materialized ${windows('day')},
    dwin as materialized ${windows('month')}
    select x.* from qwin w cross join lateral (select ${cols} from ${slot} x where ${scope} and x.slot >= greatest(w.s, ${from}) and x.slot < least(w.e, ${to})) x
    union all
    select x.* from hwin w cross join lateral (
      select ${cols} from ${hour} x where ${scope} and ${within('hour')} and x.slot not in (select s from qwin)) x
    union all
    select x.* from dwin w cross join lateral (
      select ${cols} from ${day} x where ${scope} and ${within('day')} and x.slot not in (select s from hwin)) x
    union all
    select ${cols} from ${month} x
      where ${scope} and x.slot >= ${from} and x.slot < ${below('month')} and x.slot not in (select s from dwin))`;
}

/**
 * Runs a graph read with PostgreSQL's JIT compilation off (the planner's row estimates for the windowed reads are far
 * above the rows they read, and compiling the plan cost more than running it) and room to group a range's keys in
 * memory (totals per subscriber or the map's active SIMs group hundreds of thousands of keys; the default 4 MB
 * spilled them to disk).
 */
export function graphRead<T>(db: Kysely<Database>, read: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`set local jit = off`.execute(trx);
    await sql`set local work_mem = '64MB'`.execute(trx);
    return read(trx);
  });
}
