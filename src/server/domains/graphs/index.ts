/**
 * The dashboard's graphs (docs/dashboard.md): usage and package sales over a time range in the caller's time zone,
 * sales totals by country, customer, operator and vendor, the trends of the last 24 hours against the six days
 * before, and the top subscribers of the last 24 hours. Every figure is read from the rollups of migrations 0150,
 * 0166, 0170 and 0175 (quarter hours, UTC hours, days and months, kept by triggers) at the coarsest level the range's
 * boundaries allow (`rollupRows`; the top subscribers: their quarter hours, found through migration 0178's rollup),
 * never from the raw usage log or the packages, and is scoped to the caller's subtree (an account user: its account).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/types';
import { notFound } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { idParams, idSchema, INT_MIN, objectBody } from '../../http/input';
import { subtreePattern } from '../../http/tenancy';
import { LEDGER_CURRENCY } from '../ledger';
import { bucketOf, bucketSeries, rangeProperties, resolveRange, timeZoneOf, TIME_ZONE_HEADER, type RangeBody, type ResolvedRange } from './ranges';
import { scopeOf, type ScopeBody } from './scope';
import { endsOf, NETWORK_LEVELS, rollupRows, SALES_FIGURES, SALES_LEVELS, salesLevels, usageLevels, graphRead, type Levels } from './rollups';

/** The numbers of subscribers with most data today and yesterday among whom the top subscribers are first looked for. */
const TOP_CANDIDATES = [500, 10_000];
type TopRow = {
  subscriberId: number | null;
  name: string | null;
  imsi: string;
  accountId: number;
  resellerId: number;
  resellerName: string;
  bytes: string;
  today: string;
  charge: string;
  usageTodayBytes: string;
  dailyLimitBytes: string | null;
  bound: string | null;
};
/** The rows of subscribers (a top answer with none is one row of nulls but its bound). */
const present = (rows: TopRow[]) => rows.filter((r): r is TopRow & { subscriberId: number } => r.subscriberId !== null);

/** A megabyte of the graphs: 2^20 bytes. */
export const MB = 1_048_576;
const mb = (bytes: number | string) => Math.round((Number(bytes) / MB) * 1000) / 1000;
/** A totals-by-key answer lists at most this many keys, the largest first. */
export const MAX_KEYS = 200;
const ISO = 'YYYY-MM-DD"T"HH24:MI:SS"Z"';

const tags = ['graphs'];
const config = { privilege: ['Dashboard'] };
const headers = {
  type: 'object',
  properties: { [TIME_ZONE_HEADER]: { type: 'string', description: 'The IANA time zone the range is computed in (UTC by default)' } },
};
const scopeProperties = {
  resellerId: { ...idSchema({ min: INT_MIN }), description: "One reseller's subtree (one the caller sees)" },
  accountId: { ...idSchema(), description: 'One account (one the caller sees)' },
};
const rangedBody = objectBody({ ...rangeProperties, ...scopeProperties });

const rangeFields = {
  range: { type: 'string' },
  timeZone: { type: 'string' },
  bucket: { type: 'string', enum: ['hour', 'day', 'month'] },
  from: { type: 'string', format: 'date-time', description: 'The first instant of the range (included)' },
  to: { type: 'string', format: 'date-time', description: 'The end of the range (excluded)' },
};
const rangeRequired = ['range', 'timeZone', 'bucket', 'from', 'to'];
const pointStart = {
  start: { type: 'string', format: 'date-time', description: "The bucket's first instant" },
  local: { type: 'string', description: "The bucket's start on the zone's wall clock (YYYY-MM-DDTHH:MM)" },
};
const seriesSchema = (point: Record<string, object>, required: string[]) => ({
  type: 'object',
  required: [...rangeRequired, 'points'],
  properties: {
    ...rangeFields,
    points: { type: 'array', items: { type: 'object', required: ['start', 'local', ...required], properties: { ...pointStart, ...point } } },
  },
});
const usagePoint = {
  value: { type: 'number', description: 'Megabytes (2^20 bytes) up and down' },
  bytesUp: { type: 'integer' },
  bytesDown: { type: 'integer' },
  records: { type: 'integer', description: 'Usage records' },
};
const salesPoint = { value: { type: 'number', description: 'Sales in US dollars' }, count: { type: 'integer', description: 'Packages sold' } };
const salesTotalSchema = {
  type: 'object',
  required: [...rangeRequired, 'currency', 'value', 'count'],
  properties: { ...rangeFields, currency: { type: 'string' }, ...salesPoint },
};
const byKeySchema = {
  type: 'object',
  required: [...rangeRequired, 'currency', 'items'],
  properties: {
    ...rangeFields,
    currency: { type: 'string' },
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'label', 'value', 'count'],
        properties: {
          key: { type: 'string', description: "The key ('' when unknown)" },
          label: { type: ['string', 'null'], description: 'Its name, when the key has one' },
          ...salesPoint,
        },
      },
    },
  },
};
const trendSchema = {
  type: 'object',
  required: ['last24Hours', 'previousDailyAverage', 'direction', 'percent'],
  properties: {
    last24Hours: { type: 'number' },
    previousDailyAverage: { type: 'number', description: 'The daily average of the six days before' },
    direction: { type: 'string', enum: ['up', 'down', 'flat'] },
    percent: { type: ['number', 'null'], description: 'The change against the average, in percent; null when the average is zero' },
  },
};
const topSchema = {
  type: 'array',
  items: {
    type: 'object',
    required: ['subscriberId', 'name', 'imsi', 'accountId', 'resellerId', 'resellerName', 'totalMb', 'todayMb', 'chargeUsd', 'link'],
    properties: {
      subscriberId: { type: 'integer' },
      name: { type: ['string', 'null'] },
      imsi: { type: 'string' },
      accountId: { type: 'integer' },
      resellerId: { type: 'integer' },
      resellerName: { type: 'string' },
      totalMb: { type: 'number', description: 'Megabytes in the last 24 hours' },
      todayMb: { type: 'number', description: "Megabytes since midnight in the caller's time zone" },
      chargeUsd: { type: 'number', description: "The subscriber's charges of the last 24 hours, in dollars" },
      usageTodayBytes: { type: 'integer', description: "The network's usage counter of the day" },
      dailyLimitBytes: { type: ['integer', 'null'] },
      link: { type: 'string', description: "The subscriber's page in the portal" },
    },
  },
};

type GraphBody = RangeBody & ScopeBody;

/**
 * The caller's range and scope for a ranged call, and the rollups its usage and sales over time read (per reseller
 * alone unless the scope is one account).
 */
async function question(db: Kysely<Database>, request: FastifyRequest) {
  const body = (request.body ?? {}) as GraphBody;
  const zone = await timeZoneOf(db, request);
  const range = await resolveRange(db, body, zone);
  const principal = principalOf(request);
  const scope = await scopeOf(db, principal, body);
  return { range, scope, levels: usageLevels(principal, body), sales: salesLevels(principal, body) };
}

/**
 * The instants a range's buckets start at, its start and its end: the boundaries no rollup row read may straddle (a
 * custom range's first month bucket starts before the range, at the zone's first of the month).
 */
const bucketBounds = (r: ResolvedRange) =>
  sql`(select start as t from ${bucketSeries(r)} s union all select unnest(array[${r.from}::timestamptz, ${r.to}::timestamptz]))`;
/** The range's two ends alone, for a total over it. */
const endBounds = (r: ResolvedRange) => endsOf(sql`${r.from}::timestamptz`, sql`${r.to}::timestamptz`);
/**
 * The package sales rows of a range, each once, at the coarsest levels its `bounds` allow (see `rollupRows`), from
 * `levels`: the per-reseller rollups unless the scope names an account or the rows need a key of the detailed ones.
 */
const salesRows = (levels: Levels, r: ResolvedRange, scope: RawBuilder<SqlBool>, bounds: RawBuilder<unknown>, columns: RawBuilder<unknown> = sql``) =>
  rollupRows(levels, scope, sql`${r.from}::timestamptz`, sql`${r.to}::timestamptz`, bounds, columns, SALES_FIGURES);
const startColumns = (r: ResolvedRange) =>
  sql`to_char(b.start at time zone 'UTC', ${ISO}) as start, to_char(b.start at time zone ${r.timeZone}, 'YYYY-MM-DD"T"HH24:MI') as local`;
const rangeOf = (r: ResolvedRange) => ({ range: r.range, timeZone: r.timeZone, bucket: r.bucket, from: r.from, to: r.to });

/** The statement of `usageSeries`: `levels` the reseller-only rollups unless the scope names an account. */
export function usageSeriesQuery(r: ResolvedRange, scope: RawBuilder<SqlBool>, levels: Levels = NETWORK_LEVELS) {
  return sql<{ start: string; local: string; up: string; down: string; records: string }>`
    with v as (
      select ${bucketOf(sql`x.slot`, r)} as start, sum(x.bytes_up) as up, sum(x.bytes_down) as down, sum(x.records) as records
      from ${rollupRows(levels, scope, sql`${r.from}::timestamptz`, sql`${r.to}::timestamptz`, bucketBounds(r))} x
      group by 1)
    select ${startColumns(r)}, coalesce(v.up, 0)::text as up, coalesce(v.down, 0)::text as down, coalesce(v.records, 0)::text as records
    from ${bucketSeries(r)} b left join v on v.start = b.start order by b.start`;
}

/** Usage per bucket of the range. */
export async function usageSeries(db: Kysely<Database>, r: ResolvedRange, scope: RawBuilder<SqlBool>, levels: Levels = NETWORK_LEVELS) {
  const { rows } = await graphRead(db, (trx) => usageSeriesQuery(r, scope, levels).execute(trx));
  return {
    ...rangeOf(r),
    points: rows.map((p) => ({
      start: p.start,
      local: p.local,
      value: mb(Number(p.up) + Number(p.down)),
      bytesUp: Number(p.up),
      bytesDown: Number(p.down),
      records: Number(p.records),
    })),
  };
}

/** Package sales per bucket of the range. */
export async function salesSeries(db: Kysely<Database>, r: ResolvedRange, scope: RawBuilder<SqlBool>, levels: Levels = SALES_LEVELS) {
  const { rows } = await graphRead(db, (trx) =>
    sql<{ start: string; local: string; amount: string; sales: string }>`
    with v as (
      select ${bucketOf(sql`x.slot`, r)} as start, sum(x.amount) as amount, sum(x.sales) as sales
      from ${salesRows(levels, r, scope, bucketBounds(r))} x group by 1)
    select ${startColumns(r)}, coalesce(v.amount, 0)::text as amount, coalesce(v.sales, 0)::text as sales
    from ${bucketSeries(r)} b left join v on v.start = b.start order by b.start`.execute(trx),
  );
  return {
    ...rangeOf(r),
    currency: LEDGER_CURRENCY,
    points: rows.map((p) => ({ start: p.start, local: p.local, value: Number(p.amount), count: Number(p.sales) })),
  };
}

/** What a sales total is broken down by: the rollup's key column and the label of a key. */
const BY = {
  country: { key: sql`x.country`, label: sql`null::text` },
  customer: { key: sql`x.account_id::text`, label: sql`(select a.name from account a where a.account_id = k.key::int)` },
  operator: {
    key: sql`x.plmn`,
    label: sql`(select coalesce(n.brand, n.operator) from network n where n.plmn = k.key order by n.withdrawn_at nulls first limit 1)`,
  },
  vendor: { key: sql`x.vendor_id::text`, label: sql`(select r.name from reseller r where r.id = k.key::int)` },
} as const;

export async function salesByKey(db: Kysely<Database>, r: ResolvedRange, scope: RawBuilder<SqlBool>, by: keyof typeof BY) {
  const { rows } = await graphRead(db, (trx) =>
    sql<{ key: string; label: string | null; amount: string; sales: string }>`
    select k.key, ${BY[by].label} as label, k.amount::text as amount, k.sales::text as sales from (
      select x.key, sum(x.amount) as amount, sum(x.sales) as sales
      from ${salesRows(SALES_LEVELS, r, scope, endBounds(r), sql`, ${BY[by].key} as key`)} x group by 1 having sum(x.sales) <> 0 or sum(x.amount) <> 0
      order by 2 desc, 1 limit ${MAX_KEYS}) k
    order by k.amount desc, k.key`.execute(trx),
  );
  return {
    ...rangeOf(r),
    currency: LEDGER_CURRENCY,
    items: rows.map((i) => ({ key: i.key, label: i.label, value: Number(i.amount), count: Number(i.sales) })),
  };
}

/**
 * The last 24 hours (to the end of the current quarter hour) against the daily average of the six days before, from
 * the usage rollup `levels` and the sales rollup `sales`.
 */
export async function trends(db: Kysely<Database>, scope: RawBuilder<SqlBool>, levels: Levels = NETWORK_LEVELS, sales: Levels = SALES_LEVELS) {
  const last = sql`x.slot >= graph_slot(now()) - interval '23 hours 45 minutes'`;
  const start = sql`graph_slot(now()) - interval '6 days 23 hours 45 minutes'`;
  const split = sql`graph_slot(now()) - interval '23 hours 45 minutes'`;
  const end = sql`graph_slot(now()) + interval '15 minutes'`;
  const bounds = sql`(select unnest(array[${start}, ${split}, ${end}]) as t)`;
  const week = rollupRows(levels, scope, start, end, bounds);
  const sold = rollupRows(sales, scope, start, end, bounds, sql``, SALES_FIGURES);
  const { rows } = await graphRead(db, (trx) =>
    sql<{ ulast: string; uprev: string; slast: string; sprev: string }>`
    select
      (select coalesce(sum(x.bytes_up + x.bytes_down) filter (where ${last}), 0)::text from ${week} x) as ulast,
      (select coalesce(sum(x.bytes_up + x.bytes_down) filter (where not ${last}), 0)::text from ${week} x) as uprev,
      (select coalesce(sum(x.amount) filter (where ${last}), 0)::text from ${sold} x) as slast,
      (select coalesce(sum(x.amount) filter (where not ${last}), 0)::text from ${sold} x) as sprev`.execute(trx),
  );
  /** The trend of exact figures (bytes or dollars), shown in `scale` (MB or dollars). */
  const trend = (lastValue: number, previous: number, scale: (n: number) => number) => {
    const average = previous / 6;
    const direction = lastValue > average ? 'up' : lastValue < average ? 'down' : 'flat';
    const percent = average === 0 ? null : Math.round(((lastValue - average) / average) * 1000) / 10;
    return { last24Hours: scale(lastValue), previousDailyAverage: scale(average), direction, percent };
  };
  const cents = (n: number) => Math.round(n * 100) / 100;
  const t = rows[0];
  return {
    usage: { ...trend(Number(t.ulast), Number(t.uprev), mb), unit: 'MB' },
    sales: { ...trend(Number(t.slast), Number(t.sprev), cents), unit: LEDGER_CURRENCY },
  };
}

/**
 * The `size` subscribers in `scope` that used most data in the last 24 hours (to the end of the current quarter hour),
 * added up from their quarter hours (`usage_subscriber_slot`), with their data since midnight in `zone` and their
 * charges of the 24 hours. Adding up every subscriber's quarter hours of the 24 hours costs seconds at a million
 * subscribers, so the largest are first looked for among a few: the `k` (each of `candidates` in turn) with the most
 * data today and yesterday (UTC), which hold the 24 hours, read from the end of the index of
 * `usage_subscriber_recent_days` (migration 0178). Any other subscriber used at most the k-th of those two days' bytes
 * (`bound`) in the 24 hours (counted bytes are never negative): when the last of the `size` largest among the few used
 * more than that, or fewer than `k` subscribers used data in those days, they are the answer. Past the last k the
 * whole scope is added up. Answers the rows and the k that found them (null: the whole scope).
 */
export async function topSubscribers(
  db: Kysely<Database>,
  scope: RawBuilder<SqlBool>,
  zone: string,
  size: number,
  candidates: readonly number[] = TOP_CANDIDATES,
) {
  // The 24 hours to the end of the current quarter hour, written out so the planner sees where they fall.
  const since = sql`graph_slot(now()) - interval '23 hours 45 minutes'`;
  const until = sql`graph_slot(now()) + interval '15 minutes'`;
  /**
   * The answer's rows given `ctes`: `t` (subscriber_id, bytes: the `size` largest) and `bound` (one row); when `t` is
   * empty, one row of nulls but the bound.
   */
  const answer = (trx: Kysely<Database>, ctes: RawBuilder<unknown>) =>
    sql<TopRow>`
    with w as (select ${since} as since, (date_trunc('day', now() at time zone ${zone}) at time zone ${zone}) as midnight),
    ${ctes}
    select s.subscriber_id as "subscriberId", s.name, s.imsi, s.account_id as "accountId", s.reseller_id as "resellerId", r.name as "resellerName",
      t.bytes::text as bytes,
      (select coalesce(sum(u.bytes), 0) from usage_subscriber_slot u where u.subscriber_id = t.subscriber_id and u.slot >= w.midnight)::text as today,
      (select coalesce(sum(c.amount), 0) from subscriber_charge c where c.subscriber_id = t.subscriber_id and c.created_at >= w.since)::text as charge,
      s.usage_today_bytes::text as "usageTodayBytes", s.daily_limit_bytes::text as "dailyLimitBytes", b.bytes::text as bound
    from bound b left join (t cross join w join subscriber s on s.subscriber_id = t.subscriber_id join reseller r on r.id = s.reseller_id) on true
    order by t.bytes desc, t.subscriber_id`.execute(trx);
  const largest = (from: RawBuilder<unknown>) => sql`select x.subscriber_id, sum(x.bytes_up + x.bytes_down) as bytes from ${from}
    where ${scope} and x.slot >= ${since} and x.slot < ${until} group by 1 having sum(x.bytes_up + x.bytes_down) > 0 order by 2 desc, 1 limit ${size}`;
  return graphRead(db, async (trx) => {
    for (const k of candidates) {
      const { rows: found } = await answer(
        trx,
        sql`few as (select f.subscriber_id, f.bytes from usage_subscriber_recent_days f
          where f.slot = date_trunc('day', now() at time zone 'UTC') at time zone 'UTC' order by f.bytes desc limit ${k}),
        bound as (select case when count(*) = ${k} then min(f.bytes) else 0 end as bytes from few f),
        t as (${largest(sql`few c join usage_subscriber_slot x on x.subscriber_id = c.subscriber_id`)})`,
      );
      const bound = BigInt(found[0].bound!);
      const rows = present(found);
      if (bound === 0n || (rows.length === size && BigInt(rows[size - 1].bytes) > bound)) return { rows, candidates: k };
    }
    const { rows } = await answer(trx, sql`bound as (select null::numeric as bytes), t as (${largest(sql`usage_subscriber_slot x`)})`);
    return { rows: present(rows), candidates: null };
  });
}

export function registerGraphRoutes(app: FastifyInstance, db: Kysely<Database>) {
  const ranged = (summary: string, response: object) => ({ config, schema: { tags, summary, headers, body: rangedBody, response: { 200: response } } });

  app.post(
    '/portal/graphs/usage',
    ranged("Data used per hour, day or month of a time range (MB), in the caller's time zone", seriesSchema(usagePoint, Object.keys(usagePoint))),
    async (request) => {
      const { range, scope, levels } = await question(db, request);
      return usageSeries(db, range, scope, levels);
    },
  );
  const salesSeriesSchema = seriesSchema(salesPoint, ['value', 'count']);
  (salesSeriesSchema.properties as Record<string, object>).currency = { type: 'string' };
  salesSeriesSchema.required.push('currency');
  app.post('/portal/graphs/sales', ranged('Package sales per hour, day or month of a time range (US dollars)', salesSeriesSchema), async (request) => {
    const { range, scope, sales } = await question(db, request);
    return salesSeries(db, range, scope, sales);
  });
  app.post('/portal/graphs/salesTotal', ranged('Package sales over a time range (US dollars) and how many packages', salesTotalSchema), async (request) => {
    const { range, scope, sales } = await question(db, request);
    const { rows } = await graphRead(db, (trx) =>
      sql<{ amount: string; sales: string }>`
      select coalesce(sum(x.amount), 0)::text as amount, coalesce(sum(x.sales), 0)::text as sales from ${salesRows(sales, range, scope, endBounds(range))} x`.execute(
        trx,
      ),
    );
    return { ...rangeOf(range), currency: LEDGER_CURRENCY, value: Number(rows[0].amount), count: Number(rows[0].sales) };
  });
  const byKeyRoutes = [
    ['salesTotalByCountry', 'country', 'by country (ISO code; the network the subscriber last used, else its own)'],
    ['salesTotalByCustomer', 'customer', 'by customer (account id and name)'],
    ['salesTotalByOperator', 'operator', 'by operator (PLMN and brand; the network the subscriber last used)'],
    ['salesTotalByVendor', 'vendor', 'by vendor (the reseller whose package template was sold)'],
  ] as const;
  for (const [path, by, what] of byKeyRoutes)
    app.post(`/portal/graphs/${path}`, ranged(`Package sales over a time range ${what}, the largest first`, byKeySchema), async (request) => {
      const { range, scope } = await question(db, request);
      return salesByKey(db, range, scope, by);
    });

  app.post(
    '/portal/graphs/trends',
    {
      config,
      schema: {
        tags,
        summary: 'Usage (MB) and sales (US dollars) of the last 24 hours against the daily average of the six days before',
        body: objectBody(scopeProperties),
        response: {
          200: {
            type: 'object',
            required: ['usage', 'sales'],
            properties: {
              usage: { ...trendSchema, required: [...trendSchema.required, 'unit'], properties: { ...trendSchema.properties, unit: { type: 'string' } } },
              sales: { ...trendSchema, required: [...trendSchema.required, 'unit'], properties: { ...trendSchema.properties, unit: { type: 'string' } } },
            },
          },
        },
      },
    },
    async (request) => {
      const body = (request.body ?? {}) as ScopeBody;
      const principal = principalOf(request);
      return trends(db, await scopeOf(db, principal, body), usageLevels(principal, body), salesLevels(principal, body));
    },
  );

  /** The subscribers of the caller's tenancy (or of one reseller subtree in it) that used most data in the last 24 hours. */
  async function top(request: FastifyRequest, resellerId?: number) {
    const principal = principalOf(request);
    const body = (request.body ?? {}) as { size?: number };
    const zone = await timeZoneOf(db, request);
    let scope = await scopeOf(db, principal, {});
    if (resellerId !== undefined) {
      let reseller = db.selectFrom('reseller as r').select('r.path').where('r.id', '=', resellerId);
      if (!principal.isAdmin) reseller = reseller.where('r.path', 'like', subtreePattern(principal));
      const found = await reseller.executeTakeFirst();
      if (!found) throw notFound();
      scope = sql<SqlBool>`${scope} and x.reseller_id in (select r.id from reseller r where r.path like ${subtreePattern({ resellerPath: found.path })})`;
    }
    const { rows } = await topSubscribers(db, scope, zone, body.size ?? 10);
    return rows.map((r) => ({
      subscriberId: r.subscriberId,
      name: r.name,
      imsi: r.imsi,
      accountId: r.accountId,
      resellerId: r.resellerId,
      resellerName: r.resellerName,
      totalMb: mb(r.bytes),
      todayMb: mb(r.today),
      chargeUsd: Number(r.charge),
      usageTodayBytes: Number(r.usageTodayBytes),
      dailyLimitBytes: r.dailyLimitBytes === null ? null : Number(r.dailyLimitBytes),
      link: `/subscriber/${r.subscriberId}`,
    }));
  }
  const topConfig = { privilege: ['Subscribers', 'Dashboard'] };
  const topSummary = 'Subscribers with the most data in the last 24 hours (body `{ size? }`, 10 by default, at most 100)';
  const topBody = objectBody({ size: { type: 'integer', minimum: 1, maximum: 100, errorMessage: 'validation.pageSize.invalid' } });
  app.post(
    '/portal/subscriber-info/top24Hours',
    { config: topConfig, schema: { tags: ['subscribers'], summary: topSummary, headers, body: topBody, response: { 200: topSchema } } },
    (request) => top(request),
  );
  app.post(
    '/portal/subscriber-info/top24Hours/:resellerId',
    {
      config: topConfig,
      schema: {
        tags: ['subscribers'],
        summary: `${topSummary}, within one reseller and its sub-resellers`,
        headers,
        params: idParams('resellerId', { min: INT_MIN }),
        body: topBody,
        response: { 200: topSchema },
      },
    },
    (request) => top(request, (request.params as { resellerId: number }).resellerId),
  );
}
