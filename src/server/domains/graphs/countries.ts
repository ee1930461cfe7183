/**
 * The dashboard's world map: per country, the SIMs active in a range, the data they used and the package sales, read
 * from the rollups of migrations 0150, 0166, 0170 and 0176 (never the raw usage log) and scoped like every graph call
 * (docs/dashboard.md).
 *
 * - `mb`: the usage of the range by the country of the network it was used on (usage_slot's PLMN → network.country);
 * - `activeSims`: the subscribers with usage in the range, by the subscriber's country (where it was last located)
 *   and under its reseller and account now, so a click on a country lists the same subscribers the figure counts;
 * - `sales`: the package sales of the range by their country (sales_slot), in US dollars.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/types';
import { principalOf } from '../../http/guard';
import { idSchema, INT_MIN, objectBody } from '../../http/input';
import { LEDGER_CURRENCY } from '../ledger';
import { rangeProperties, resolveRange, timeZoneOf, TIME_ZONE_HEADER, type RangeBody, type ResolvedRange } from './ranges';
import { scopeOf, type ScopeBody } from './scope';
import { endsOf, graphRead, NETWORK_LEVELS, rollupRows, SALES_FIGURES, SALES_LEVELS, SUBSCRIBER_LEVELS } from './rollups';

const MB = 1_048_576;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const instant = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;
const day = (ms: number) => sql`${new Date(ms).toISOString().slice(0, 10)}::date`;
/** The UTC midnight starting the day of `ms`. */
const midnightOf = (ms: number) => ms - (ms % DAY_MS);
/** The per-subscriber rollup rows of [a, b) matching `condition`, at the coarsest levels its ends allow. */
const subscriberRows = (condition: RawBuilder<SqlBool>, a: number, b: number) =>
  rollupRows(SUBSCRIBER_LEVELS, condition, instant(a), instant(b), endsOf(instant(a), instant(b)), sql`, x.subscriber_id`);

/**
 * The subscribers with usage in [from, to) under the scope (their reseller and account now), per their country now,
 * as a subquery of `country` and `sims` rows to add up, read from `subscriber_activity` and its histograms
 * (migrations 0176, 0181 and 0182). A subscriber used data in the range exactly when its latest quarter hour with bytes
 * (`last_at`) is at or after `from` and before `to`, or is at or after `to` and it used data in the range too. So:
 *
 * - when no subscriber of the scope has `last_at` at or after `to` (a range reaching the present), the range's active
 *   SIMs are those with `last_at` at or after `from`: the histogram's whole UTC days after `from`'s day
 *   (`active_day`), the whole hours of that day from `from`'s next hour (`active_hour`), and the subscribers with
 *   `last_at` in the quarter hours between `from` and that hour, so a count reads at most three quarter hours of
 *   subscribers;
 * - otherwise (a range ending in the past, or records dated after it) those that used data on one of the range's whole
 *   UTC days, counted from the steps between each subscriber's days with usage (`active_day_prev`, migration 0181)
 *   without reading a row per subscriber, and those with usage only in the parts of a UTC day at the range's ends
 *   (below), at most half a UTC day of subscribers looked up one by one.
 *
 * Which one is read is decided in the same statement (a one-time filter: the other branch is never run).
 */
export function activeSims(r: ResolvedRange, scope: RawBuilder<SqlBool>, from: RawBuilder<unknown>, to: RawBuilder<unknown>) {
  const counted = (since: RawBuilder<unknown>, until: RawBuilder<unknown>) =>
    sql`select x.country, count(*) as sims from subscriber_activity x where ${scope} and x.last_at >= ${since} and x.last_at < ${until} group by 1`;
  const start = Date.parse(r.from);
  // To the present: the whole UTC days after `from`'s (the histogram by day), the whole hours of its day after its hour
  // (by hour, migration 0182) and the subscribers of the quarter hours between `from` and the next hour.
  const nextHour = Math.ceil(start / HOUR_MS) * HOUR_MS;
  const nextDay = Math.ceil(start / DAY_MS) * DAY_MS;
  const present = sql`select x.country, x.sims from active_day x where ${scope} and x.day >= ${day(nextDay)}
    union all select x.country, x.sims from active_hour x where ${scope} and x.hour >= ${instant(nextHour)} and x.hour < ${instant(nextDay)}
    ${start < nextHour ? sql`union all ${counted(from, instant(nextHour))}` : sql``}`;
  // A range ending in the past: the subscribers with usage on the range's whole UTC days [dayFrom, dayTo), counted from
  // the steps between each subscriber's days with usage (migration 0181); the parts of a UTC day at its ends ("pieces")
  // from the per-subscriber rollups (hours and quarter hours only) of every owner: a rollup row keeps the owner of its
  // time, the count the owner of now.
  const end = Date.parse(r.to);
  const dayFrom = nextDay;
  const dayTo = midnightOf(end);
  // (Each piece lies in one UTC day: a range inside one day is one piece.)
  const pieces: [number, number][] = (
    dayFrom <= dayTo
      ? [
          [start, dayFrom],
          [dayTo, end],
        ]
      : [[start, end]]
  ).filter(([a, b]) => a < b) as [number, number][];
  // A piece of more than half its UTC day is counted with its whole day (the steps), less the subscribers whose only
  // usage there lies in the rest of that day (its "complement"); a shorter one adds its subscribers without usage in
  // the rest of the range. Either way at most half a day of subscribers is read, each looked up by key.
  const long = pieces.filter(([a, b]) => b - a > DAY_MS / 2);
  const short = pieces.filter(([a, b]) => b - a <= DAY_MS / 2);
  const complements = long.flatMap(([a, b]) => {
    const midnight = midnightOf(a);
    return (
      [
        [midnight, a],
        [b, midnight + DAY_MS],
      ] as [number, number][]
    ).filter(([x, y]) => x < y);
  });
  const stepsFrom = Math.min(dayFrom, ...long.map(([a]) => midnightOf(a)));
  const stepsTo = Math.max(dayTo, ...long.map(([a]) => midnightOf(a) + DAY_MS));
  const idsOf = (parts: [number, number][]) =>
    sql.join(
      parts.map(([a, b]) => sql`select distinct u.subscriber_id from ${subscriberRows(sql<SqlBool>`true`, a, b)} u where u.bytes_up + u.bytes_down <> 0`),
      sql` union `,
    );
  // A looked-up subscriber `a` used data in the range elsewhere: on a whole UTC day of it (the row's day bits, migration
  // 0180), or else in a long piece (its own rollup rows there), tested in that order.
  const elsewhere = sql.join(
    [
      dayFrom < dayTo
        ? sql`position(B'1' in substring(a.active_days from greatest(${day(dayFrom)} - a.first_day, 0) + 1
            for greatest(${day(dayTo)} - greatest(${day(dayFrom)}, a.first_day), 0))) > 0`
        : sql`false`,
      ...long.map(
        ([a, b]) => sql`exists (select 1 from ${subscriberRows(sql<SqlBool>`x.subscriber_id = a.subscriber_id`, a, b)} u where u.bytes_up + u.bytes_down <> 0)`,
      ),
    ],
    sql` or `,
  );
  const lookedUp = (parts: [number, number][], sign: 1 | -1) =>
    sql`select a.country, ${sql.lit(sign)} * count(*) as sims from (${idsOf(parts)}) e
      cross join lateral (select x.subscriber_id, x.country, x.first_day, x.active_days from subscriber_activity x
        where x.subscriber_id = e.subscriber_id and ${scope}) a
      where not (${elsewhere}) group by 1`;
  // The subscribers with usage on a UTC day of [stepsFrom, stepsTo), one index range a day: those stepping into those
  // days from before them; or, when fewer days follow them than they are, those with usage since stepsFrom (the
  // histogram) less those stepping over them. (Summed inside the lateral read, so it stays one index range per day
  // rather than a join over every step.)
  const stepsFromBefore = (days: RawBuilder<unknown>, sign: 1 | -1) =>
    sql`select x.country, ${sql.lit(sign)} * x.sims as sims from ${days} d(day)
      cross join lateral (select x.country, sum(x.sims) as sims from active_day_prev x
        where x.day = d.day::date and x.prev_day < ${day(stepsFrom)} and ${scope} group by 1) x`;
  const today = midnightOf(Date.now());
  const parts = [
    ...(stepsFrom >= stepsTo
      ? []
      : stepsTo - stepsFrom <= today - stepsTo + DAY_MS
        ? [stepsFromBefore(sql`generate_series(${day(stepsFrom)}, ${day(stepsTo - DAY_MS)}, interval '1 day')`, 1)]
        : [
            sql`select x.country, x.sims from active_day x where ${scope} and x.day >= ${day(stepsFrom)}`,
            stepsFromBefore(sql`generate_series(${day(stepsTo)}, greatest(${day(stepsTo)}, (select max(m.day) from active_day m)), interval '1 day')`, -1),
          ]),
    ...(short.length ? [lookedUp(short, 1)] : []),
    ...(complements.length ? [lookedUp(complements, -1)] : []),
  ];
  const past = parts.length ? sql.join(parts, sql` union all `) : sql`select null::text as country, 0::bigint as sims where false`;
  // Whether usage of the scope follows the range.
  const followed = sql`(select exists (select 1 from subscriber_activity x where ${scope} and x.last_at >= ${to}))`;
  return sql`(select * from (${present}) p where not ${followed}
    union all select * from (${past}) e where ${followed})`;
}

/** The map's statement: per country (ISO code; '' when unknown) active SIMs, bytes and sales over the range, the most active first. */
export function countriesQuery(r: ResolvedRange, scope: RawBuilder<SqlBool>) {
  const from = sql`${r.from}::timestamptz`;
  const to = sql`${r.to}::timestamptz`;
  // Each rollup's rows of [from, to) at the coarsest levels the two ends allow (see `rollupRows`).
  const ends = endsOf(from, to);
  const usageRows = (levels: typeof NETWORK_LEVELS, columns: RawBuilder<unknown>) => rollupRows(levels, scope, from, to, ends, columns);
  return sql<{ country: string; sims: string; bytes: string; amount: string }>`
    with usage as (
      select coalesce((select n.country from network n where n.plmn = u.plmn order by n.withdrawn_at nulls first limit 1), '') as country,
        sum(u.bytes_up + u.bytes_down) as bytes
      from ${usageRows(NETWORK_LEVELS, sql`, x.plmn`)} u group by u.plmn),
    active as (select a.country, sum(a.sims) as sims from ${activeSims(r, scope, from, to)} a group by 1),
    sold as (select x.country, sum(x.amount) as amount from ${rollupRows(SALES_LEVELS, scope, from, to, ends, sql`, x.country`, SALES_FIGURES)} x group by 1),
    countries as (select country from usage union select country from active union select country from sold)
    select c.country,
      coalesce((select a.sims from active a where a.country = c.country), 0)::text as sims,
      coalesce((select sum(u.bytes) from usage u where u.country = c.country), 0)::text as bytes,
      coalesce((select s.amount from sold s where s.country = c.country), 0)::text as amount
    from countries c order by 2::bigint desc, 3::numeric desc, 1`;
}

/** Per country (ISO code; '' when unknown): active SIMs, MB and sales over the range, the most active first. */
export async function countryFigures(db: Kysely<Database>, r: ResolvedRange, scope: RawBuilder<SqlBool>) {
  const { rows } = await countriesQuery(r, scope).execute(db);
  return rows
    .map((c) => ({
      country: c.country,
      activeSims: Number(c.sims),
      mb: Math.round((Number(c.bytes) / MB) * 1000) / 1000,
      sales: Number(c.amount),
    }))
    .filter((c) => c.activeSims !== 0 || c.mb !== 0 || c.sales !== 0);
}

const countriesResponse = {
  type: 'object',
  required: ['range', 'timeZone', 'from', 'to', 'currency', 'items'],
  properties: {
    range: { type: 'string' },
    timeZone: { type: 'string' },
    from: { type: 'string', format: 'date-time', description: 'The first instant of the range (included)' },
    to: { type: 'string', format: 'date-time', description: 'The end of the range (excluded)' },
    currency: { type: 'string' },
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['country', 'activeSims', 'mb', 'sales'],
        properties: {
          country: { type: 'string', description: "ISO 3166 alpha-2 code ('' when unknown)" },
          activeSims: { type: 'integer', description: 'Subscribers of the country (where last located) with usage in the range' },
          mb: { type: 'number', description: "Megabytes (2^20 bytes) used on the country's networks" },
          sales: { type: 'number', description: 'Package sales counted to the country, in US dollars' },
        },
      },
    },
  },
};

export function registerCountryRoutes(app: FastifyInstance, db: Kysely<Database>) {
  app.post(
    '/portal/graphs/countries',
    {
      config: { privilege: ['Dashboard'] },
      schema: {
        tags: ['graphs'],
        summary: "Active SIMs, usage (MB) and package sales (US dollars) per country over a time range, in the caller's time zone",
        headers: { type: 'object', properties: { [TIME_ZONE_HEADER]: { type: 'string', description: 'The IANA time zone the range is computed in' } } },
        body: objectBody({
          ...rangeProperties,
          resellerId: { ...idSchema({ min: INT_MIN }), description: "One reseller's subtree (one the caller sees)" },
          accountId: { ...idSchema(), description: 'One account (one the caller sees)' },
        }),
        response: { 200: countriesResponse },
      },
    },
    async (request) => {
      const body = (request.body ?? {}) as RangeBody & ScopeBody;
      const zone = await timeZoneOf(db, request);
      const range = await resolveRange(db, body, zone);
      const scope = await scopeOf(db, principalOf(request), body);
      const items = await graphRead(db, (trx) => countryFigures(trx, range, scope));
      return { range: range.range, timeZone: range.timeZone, from: range.from, to: range.to, currency: LEDGER_CURRENCY, items };
    },
  );
}
