/**
 * Usage totals by dimension (docs/dashboard.md, "Usage by dimension"): per subscriber, account, reseller, country,
 * operator (network) or subscriber group over a range in the caller's time zone, paged and sorted, with the largest
 * few for a chart and a streamed CSV of them all. Read from the rollups (migrations 0150 and 0166) at the coarsest
 * level the range's two ends allow, never from the raw usage log; scoped like every graph call.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { normaliseListRequest, type EntitySchema } from '@shared/schema';
import { pageAnswer } from '@shared/wire';
import type { Engine } from '../../db';
import type { Database } from '../../db/types';
import { queryBatches, sendCsv } from '../../engine/csv';
import { customFieldsOf } from '../../engine/customFields';
import { EntityRepository } from '../../engine/repository';
import { fieldError, invalid, notFound } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { idSchema, INT_MIN, objectBody, pageNumberSchema, pageSchema, pageSizeSchema } from '../../http/input';
import type { Principal } from '../../http/principal';
import { GROUP_FILTER, groupListHook } from '../subscribers/groups';
import { rangeProperties, resolveRange, timeZoneOf, TIME_ZONE_HEADER, type RangeBody, type ResolvedRange } from './ranges';
import { scopeOf, type ScopeBody } from './scope';
import { numbersOf, pickPage, TotalsCache, type Totals, type UsageTotalsOptions } from './totalsCache';

export const USAGE_DIMENSIONS = ['subscriber', 'account', 'reseller', 'country', 'operator', 'group'] as const;
export type UsageDimension = (typeof USAGE_DIMENSIONS)[number];
export const USAGE_BY_SORTS = ['key', 'label', 'mb', 'bytesUp', 'bytesDown', 'records', 'activeSims'] as const;
type Sort = (typeof USAGE_BY_SORTS)[number];
/** The chart's items: the largest this many. */
export const USAGE_BY_TOP = 10;
/** The dimensions keyed by an integer id. */
const NUMBER_KEYS: ReadonlySet<UsageDimension> = new Set(['subscriber', 'account', 'reseller', 'group']);
/** Between the text keys (PLMNs, countries) of kept totals: a character no key holds. */
const UNIT_SEPARATOR = '\x1f';
/** The group dimension adds up at most this many groups (the caller's first by name). */
export const MAX_USAGE_GROUPS = 200;
const MB = 1_048_576;
const mb = (bytes: number) => Math.round((bytes / MB) * 1000) / 1000;

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

const NETWORK_LABEL = sql`(select coalesce(n.brand, n.operator) from network n where n.plmn = k.key order by n.withdrawn_at nulls first limit 1)`;
/** How each dimension reads: its rollup, its key column (an id or a PLMN), a key mapped once more (country) and its label. */
function dimensionOf(dimension: UsageDimension, accountLevel: boolean) {
  switch (dimension) {
    case 'subscriber':
      return {
        levels: SUBSCRIBER_LEVELS,
        key: sql`x.subscriber_id`,
        label: sql`(select coalesce(nullif(s.name, ''), s.imsi) from subscriber s where s.subscriber_id = k.key::int)`,
      };
    case 'account':
      return { levels: NETWORK_LEVELS, key: sql`x.account_id`, label: sql`(select a.name from account a where a.account_id = k.key::int)` };
    case 'reseller':
      return {
        levels: accountLevel ? NETWORK_LEVELS : RESELLER_LEVELS,
        key: sql`x.reseller_id`,
        label: sql`(select r.name from reseller r where r.id = k.key::int)`,
      };
    case 'operator':
      return { levels: NETWORK_LEVELS, key: sql`x.plmn`, label: NETWORK_LABEL };
    case 'country':
      return {
        levels: NETWORK_LEVELS,
        key: sql`x.plmn`,
        // The network's country; '' for records that named no network (or one the catalogue does not know).
        remap: sql`coalesce((select n.country from network n where n.plmn = p.key order by n.withdrawn_at nulls first limit 1), '')`,
        label: sql`null::text`,
      };
    case 'group':
      return { levels: SUBSCRIBER_LEVELS, key: sql`g.id`, label: sql`(select g.name from subscriber_group g where g.id = k.key::int)` };
  }
}

export interface UsageByBody extends RangeBody, ScopeBody {
  dimension?: UsageDimension;
  groupId?: number;
  page?: number;
  size?: number;
  sortBy?: Sort;
  sortDir?: 'asc' | 'desc';
}

interface Question {
  range: ResolvedRange;
  dimension: UsageDimension;
  sortBy: Sort;
  sortDir: 'asc' | 'desc';
  page: number;
  size: number;
  totals: RawBuilder<unknown>;
  label: RawBuilder<unknown>;
}

/** The order of a sort column over the totals `k`; ties by key, so pages never overlap. */
function orderOf(q: Question) {
  const dir = sql.raw(q.sortDir === 'asc' ? 'asc' : 'desc');
  const column = {
    key: sql`k.key`,
    label: sql`k.label`,
    mb: sql`k.up + k.down`,
    bytesUp: sql`k.up`,
    bytesDown: sql`k.down`,
    records: sql`k.records`,
    activeSims: sql`k.active`,
  }[q.sortBy];
  return sql`${column} ${dir} nulls last, k.key ${dir}`;
}

/**
 * Totals per key of the range as a subquery of `key` (an integer id, or a PLMN or country's text), `up`, `down`,
 * `records`, `active` (null when not counted).
 */
export function totalsQuery(
  range: ResolvedRange,
  dimension: UsageDimension,
  scope: RawBuilder<SqlBool>,
  accountLevel: boolean,
  sets: { members: RawBuilder<unknown> } | null,
) {
  const d = dimensionOf(dimension, accountLevel);
  const from = sql`${range.from}::timestamptz`;
  const to = sql`${range.to}::timestamptz`;
  const bounds = endsOf(from, to);
  if (dimension === 'group' && sets) {
    // Each group's subscribers (a group of groups: `members` answers group id `g.id` and `subscriber_id`).
    const perSubscriber = sql`(select m.id as key, x.subscriber_id, sum(x.bytes_up) as up, sum(x.bytes_down) as down, sum(x.records) as records
      from ${rollupRows(d.levels, scope, from, to, bounds, sql`, x.subscriber_id`)} x join ${sets.members} m on m.subscriber_id = x.subscriber_id
      group by 1, 2)`;
    return sql`(select p.key, sum(p.up) as up, sum(p.down) as down, sum(p.records) as records, count(*) filter (where p.records <> 0 or p.up + p.down <> 0) as active
      from ${perSubscriber} p group by 1 having sum(p.records) <> 0 or sum(p.up + p.down) <> 0)`;
  }
  const subscriberLevel = d.levels === SUBSCRIBER_LEVELS;
  const rows = rollupRows(d.levels, scope, from, to, bounds, sql`, ${d.key} as key${subscriberLevel ? sql`, x.subscriber_id` : sql``}`);
  // Grouped, sorted and compared by the key as read: an id stays an integer, quicker than its text (the answer's text).
  const grouped = sql`(select x.key, sum(x.bytes_up) as up, sum(x.bytes_down) as down, sum(x.records) as records from ${rows} x
    ${sets ? sql`where x.subscriber_id in (select m.subscriber_id from ${sets.members} m)` : sql``} group by x.key)`;
  const mapped = d.remap
    ? sql`(select ${d.remap} as key, sum(p.up) as up, sum(p.down) as down, sum(p.records) as records from ${grouped} p group by 1)`
    : grouped;
  return sql`(select p.key, p.up, p.down, p.records, null::bigint as active from ${mapped} p where p.records <> 0 or p.up + p.down <> 0)`;
}

type ItemRow = {
  key: string | number;
  label: string | null;
  up: number | string;
  down: number | string;
  records: number | string;
  active: number | string | null;
};
const toItem = (r: ItemRow) => {
  const up = Number(r.up);
  const down = Number(r.down);
  return {
    key: String(r.key),
    label: r.label,
    mb: mb(up + down),
    bytesUp: up,
    bytesDown: down,
    records: Number(r.records),
    ...(r.active === null ? {} : { activeSims: Number(r.active) }),
  };
};

const tags = ['graphs'];
const headers = {
  type: 'object',
  properties: { [TIME_ZONE_HEADER]: { type: 'string', description: 'The IANA time zone the range is computed in (UTC by default)' } },
};
const questionProperties = {
  dimension: { type: 'string', enum: [...USAGE_DIMENSIONS], errorMessage: 'graphs.usageBy.dimension', description: 'What the totals are per' },
  ...rangeProperties,
  resellerId: { ...idSchema({ min: INT_MIN }), description: "One reseller's subtree (one the caller sees)" },
  accountId: { ...idSchema(), description: 'One account (one the caller sees)' },
  groupId: { ...idSchema(), description: "Only this subscriber group's subscribers (one the caller sees; the subscriber dimension)" },
  sortBy: { type: 'string', enum: [...USAGE_BY_SORTS], errorMessage: 'validation.sortBy.invalid', description: 'mb by default' },
  sortDir: { type: 'string', enum: ['asc', 'desc'], errorMessage: 'validation.sortDir.invalid', description: 'desc by default' },
};
const itemSchema = {
  type: 'object',
  required: ['key', 'label', 'mb', 'bytesUp', 'bytesDown', 'records'],
  properties: {
    key: { type: 'string', description: "The subscriber, account, reseller or group id, the PLMN or the ISO country ('' when no network)" },
    label: { type: ['string', 'null'], description: 'Its name, when the key has one (countries are named by the screen)' },
    mb: { type: 'number', description: 'Megabytes (2^20 bytes) up and down' },
    bytesUp: { type: 'integer' },
    bytesDown: { type: 'integer' },
    records: { type: 'integer', description: 'Usage records' },
    activeSims: { type: 'integer', description: 'The group dimension: its subscribers with usage in the range' },
  },
};
const answerSchema = pageSchema(itemSchema, {
  range: { type: 'string' },
  timeZone: { type: 'string' },
  bucket: { type: 'string', enum: ['hour', 'day', 'month'] },
  from: { type: 'string', format: 'date-time', description: 'The first instant of the range (included)' },
  to: { type: 'string', format: 'date-time', description: 'The end of the range (excluded)' },
  dimension: { type: 'string', enum: [...USAGE_DIMENSIONS] },
  top: { type: 'array', items: itemSchema, description: `The ${USAGE_BY_TOP} largest totals, for a chart` },
});

export function registerUsageByRoutes(app: FastifyInstance, db: Kysely<Database>, engine: Engine, schemas: EntitySchema[], keep: UsageTotalsOptions = {}) {
  const subscriber = schemas.find((s) => s.$id === 'subscriber');
  const groupSchema = schemas.find((s) => s.$id === 'subscriberGroup');
  if (!subscriber || !groupSchema) throw new Error('usage by dimension needs the subscriber and group schemas');
  const groups = new EntityRepository(db, groupSchema);
  const subscribers = new EntityRepository(db, subscriber);
  const hook = groupListHook(db, schemas);
  const customFields = customFieldsOf(db);

  /** The subscriber ids of one group the caller sees, as the subscribers list filtered by it answers them. */
  async function groupMembers(principal: Principal, id: number) {
    const custom = await customFields.forPath('subscriber', principal.resellerPath);
    const req = await hook({
      req: normaliseListRequest(subscriber!, { searchBy: GROUP_FILTER, searchKey: String(id) } as never, principal.isAdmin, custom),
      principal,
      db,
      custom,
    });
    return db.selectFrom(subscribers.exportQuery(req, { principal }).clearOrderBy().as('q')).select('q.subscriberId');
  }

  /** Every group the caller sees (the first MAX_USAGE_GROUPS by name) with its members, as one subquery (id, subscriber_id). */
  async function allGroupMembers(principal: Principal) {
    const chosen = (await groups.list(['id', 'name'], { principal })).slice(0, MAX_USAGE_GROUPS).map((g) => Number(g.id));
    if (!chosen.length) return sql`(select null::int as id, null::int as subscriber_id where false)`;
    const parts = await Promise.all(chosen.map(async (id) => sql`select ${id}::int as id, m.subscriber_id from (${await groupMembers(principal, id)}) m`));
    return sql`(${sql.join(parts, sql` union all `)})`;
  }

  async function question(request: FastifyRequest, paged: boolean): Promise<Question> {
    const body = (request.body ?? {}) as UsageByBody;
    const principal = principalOf(request);
    const zone = await timeZoneOf(db, request);
    const range = await resolveRange(db, body, zone);
    const scope = await scopeOf(db, principal, body);
    const dimension = body.dimension ?? 'account';
    const accountLevel = accountScoped(principal, body);
    let sets: { members: RawBuilder<unknown> } | null = null;
    if (body.groupId !== undefined) {
      if (dimension !== 'subscriber') throw invalid([fieldError('groupId', 'dimension', 'graphs.usageBy.groupDimension')]);
      if (!(await groups.get(body.groupId, { principal }))) throw notFound();
      sets = { members: sql`(select q.subscriber_id from (${await groupMembers(principal, body.groupId)}) q)` };
    } else if (dimension === 'group') sets = { members: await allGroupMembers(principal) };
    if (sets && dimension === 'subscriber') {
      const inner = sets.members;
      sets = { members: sql`(select s.subscriber_id from ${inner} s)` };
    }
    return {
      range,
      dimension,
      sortBy: body.sortBy ?? 'mb',
      sortDir: body.sortDir ?? 'desc',
      page: paged ? (body.page ?? 0) : 0,
      size: paged ? (body.size ?? 25) : 0,
      totals: totalsQuery(range, dimension, scope, accountLevel, sets),
      label: dimensionOf(dimension, accountLevel).label,
    };
  }

  const kept = TotalsCache.of(keep);

  /** Every total of the question, added up once and kept briefly for its pages and orders (totalsCache.ts). */
  async function keptTotals(q: Question): Promise<Totals> {
    const compiled = q.totals.compile(db);
    return kept.get(JSON.stringify([compiled.sql, compiled.parameters]), async () => {
      const numberKeys = NUMBER_KEYS.has(q.dimension);
      // Each column as one text (one pass of the aggregate, so the columns stay aligned): far cheaper to build and
      // read than a row, or a JSON value, a total.
      const { rows } = await graphRead(db, (trx) =>
        sql<Record<'keys' | 'up' | 'down' | 'records' | 'active', string | null>>`
          select string_agg(k.key::text, ${numberKeys ? ',' : UNIT_SEPARATOR}) as keys, string_agg(k.up::text, ',') as up, string_agg(k.down::text, ',') as down,
            string_agg(k.records::text, ',') as records, string_agg(k.active::text, ',') as active
          from ${q.totals} k`.execute(trx),
      );
      const r = rows[0];
      return {
        // Ids are numbers (and order as numbers); PLMNs and countries text.
        keys: numberKeys ? Array.from(numbersOf(r.keys)) : r.keys === null ? [] : r.keys.split(UNIT_SEPARATOR),
        up: numbersOf(r.up),
        down: numbersOf(r.down),
        records: numbersOf(r.records),
        active: r.active === null ? null : numbersOf(r.active),
      };
    });
  }

  /** A page and the chart's largest picked from the kept totals, with the labels of those alone. */
  async function fromKept(q: Question) {
    const t = await keptTotals(q);
    const page = pickPage(t, q.sortBy as Exclude<Sort, 'label'>, q.sortDir, q.page * q.size, q.size);
    const largest = pickPage(t, 'mb', 'desc', 0, USAGE_BY_TOP);
    const keys = [...new Set([...page, ...largest].map((i) => String(t.keys[i])))];
    const { rows } = await sql<{ key: string; label: string | null }>`select k.key, ${q.label} as label from unnest(${keys}::text[]) as k(key)`.execute(db);
    const labels = new Map(rows.map((r) => [r.key, r.label]));
    const item = (i: number) =>
      toItem({
        key: t.keys[i],
        label: labels.get(String(t.keys[i])) ?? null,
        up: t.up[i],
        down: t.down[i],
        records: t.records[i],
        active: t.active ? t.active[i] : null,
      });
    return { items: page.map(item), total: t.keys.length, top: largest.map(item) };
  }

  /** Ordered by label: every total's label is read, so the page is read from the database. */
  async function byLabel(q: Question) {
    const item = sql`json_build_object('key', k.key, 'label', k.label, 'up', k.up, 'down', k.down, 'records', k.records, 'active', k.active)`;
    const rowsIn = (order: Question, limit: number, offset: number) => sql`(select json_agg(${item} order by ${orderOf(order)}) from (
              select k.key, ${q.label} as label, k.up, k.down, k.records, k.active
              from (select * from totals k order by ${orderOf(order)} limit ${limit} offset ${offset}) k) k)`;
    const { rows } = await graphRead(db, (trx) =>
      sql<{ total: string; items: ItemRow[] | null; top: ItemRow[] | null }>`
          with totals as materialized (select t.*, (select ${q.label} from (select t.key) k) as label from ${q.totals} t)
          select (select count(*) from totals)::text as total, ${rowsIn(q, q.size, q.page * q.size)} as items,
            ${rowsIn({ ...q, sortBy: 'mb', sortDir: 'desc' }, USAGE_BY_TOP, 0)} as top`.execute(trx),
    );
    return { items: (rows[0].items ?? []).map(toItem), total: Number(rows[0].total), top: (rows[0].top ?? []).map(toItem) };
  }

  const pageProperties = { page: { ...pageNumberSchema(), description: 'The page, from 0' }, size: { ...pageSizeSchema(200), description: '25 by default' } };
  app.post(
    '/portal/graphs/usageBy',
    {
      config: { privilege: ['Dashboard', 'Subscribers'] },
      schema: {
        tags,
        summary: 'Usage totals per subscriber, account, reseller, country, operator or group over a range, paged and sorted, with the largest for a chart',
        headers,
        body: objectBody({ ...questionProperties, ...pageProperties }),
        response: { 200: answerSchema },
      },
    },
    async (request) => {
      const q = await question(request, true);
      const { items, total, top } = q.sortBy === 'label' ? await byLabel(q) : await fromKept(q);
      return {
        ...pageAnswer(items, total, q.page, q.size),
        range: q.range.range,
        timeZone: q.range.timeZone,
        bucket: q.range.bucket,
        from: q.range.from,
        to: q.range.to,
        dimension: q.dimension,
        top,
      };
    },
  );

  app.post(
    '/portal/graphs/usageBy/download',
    {
      config: { privilege: ['Dashboard', 'Subscribers'] },
      schema: {
        tags,
        summary: 'Every usage total of a dimension over a range as CSV (key, label, MB, bytes up, bytes down, records, active SIMs), in the order asked',
        headers,
        body: objectBody(questionProperties),
        produces: ['text/csv'],
        response: { 200: { type: 'string', description: 'CSV, UTF-8 with a byte order mark' } },
      },
    },
    async (request, reply) => {
      const q = await question(request, false);
      const query = db
        .selectFrom(sql`(select t.*, (select ${q.label} from (select t.key) k) as label from ${q.totals} t)`.as('k'))
        .selectAll()
        .orderBy(orderOf(q));
      const day = q.range.from.slice(0, 10);
      return sendCsv(
        reply,
        `usage-by-${q.dimension}-${day}.csv`,
        ['key', 'label', 'mb', 'bytesUp', 'bytesDown', 'records', 'activeSims'],
        queryBatches(db, engine, query as never),
        (row) => {
          const i = toItem(row as ItemRow);
          return [i.key, i.label ?? '', i.mb, i.bytesUp, i.bytesDown, i.records, i.activeSims ?? ''];
        },
      );
    },
  );
}
