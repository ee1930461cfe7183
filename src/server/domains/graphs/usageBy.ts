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
// The spans of `usage_subscriber_span`, in UTC days, shortest first: column `w<S>`.
import { SPANS } from '../../db/migrations/0184_subscriber_spans';
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
import { accountScoped, endsOf, graphRead, NETWORK_LEVELS, RESELLER_LEVELS, rollupRows, SUBSCRIBER_LEVELS } from './rollups';
import { activeSims } from './countries';
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
const DAY_MS = 86_400_000;
/** How many of a span's largest are tried (at least) as candidates for the largest of a range, in turn, before adding up everyone. */
const SPAN_CANDIDATES = [100, 2_000, 10_000];
/** Past this many totals (the last page's end), a page per subscriber is added up in full. */
const LARGEST_AT_MOST = 2_000;
const mb = (bytes: number) => Math.round((bytes / MB) * 1000) / 1000;

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
  /** Whether the scope is every reseller's (the administrator's, narrowed to nothing) and no group is asked. */
  everything: boolean;
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
  // A subscriber is listed for its data (as the map counts active SIMs); the other keys for any record too.
  const listed = dimension === 'subscriber' ? sql`p.up + p.down <> 0` : sql`p.records <> 0 or p.up + p.down <> 0`;
  return sql`(select p.key, p.up, p.down, p.records, null::bigint as active from ${mapped} p where ${listed})`;
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
      everything: principal.isAdmin && body.resellerId === undefined && body.accountId === undefined && sets === null,
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

  /** The labels of some keys. */
  async function labelsOf(q: Question, keys: string[]) {
    const { rows } = await sql<{ key: string; label: string | null }>`select k.key, ${q.label} as label from unnest(${keys}::text[]) as k(key)`.execute(db);
    return new Map(rows.map((r) => [r.key, r.label]));
  }

  /** A page and the chart's largest picked from the kept totals, with the labels of those alone. */
  async function fromKept(q: Question) {
    const t = await keptTotals(q);
    const page = pickPage(t, q.sortBy as Exclude<Sort, 'label'>, q.sortDir, q.page * q.size, q.size);
    const largest = pickPage(t, 'mb', 'desc', 0, USAGE_BY_TOP);
    const labels = await labelsOf(q, [...new Set([...page, ...largest].map((i) => String(t.keys[i])))]);
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

  let rolling: Promise<unknown> | null = null;
  /** The day the spans count from (migration 0184), moved to today first when a UTC day has passed since. */
  async function spansAsOf(): Promise<number> {
    const { rows } = await sql<{ asOf: string; today: string }>`select as_of::text as "asOf", (now() at time zone 'UTC')::date::text as today
      from usage_span_state`.execute(db);
    if (rows[0].asOf >= rows[0].today) return Date.parse(rows[0].asOf);
    // One roll a process at a time; another process's waits on the state row's lock and then finds nothing to do.
    rolling ??= sql`select usage_span_roll(${rows[0].today}::date)`.execute(db).finally(() => (rolling = null));
    await rolling;
    return Date.parse(rows[0].today);
  }

  /**
   * The largest subscribers of the range, by data, without adding up every subscriber (docs/dashboard.md, "The largest
   * subscribers of a range"): the subscribers with the most data in the shortest span holding the range (an upper
   * bound of each one's range) are the candidates; their totals of the range are added up, and when the `k`-th largest
   * of them is above the bound of every subscriber left out, they are the first `k` of the whole order. Else more
   * candidates, then null (add up everyone). The count is the subscribers with data in the range (the map's active SIMs).
   */
  async function largestSubscribers(q: Question, k: number) {
    const asOf = await spansAsOf();
    const startDay = Date.parse(q.range.from.slice(0, 10));
    const span = SPANS.find((s) => startDay >= asOf - (s - 1) * DAY_MS);
    if (span === undefined) return null;
    const w = sql.ref(`u.w${span}`);
    const from = sql`${q.range.from}::timestamptz`;
    const to = sql`${q.range.to}::timestamptz`;
    // At least four times the totals asked for, so a page far in does not go through a round too small to answer it.
    for (const n of (keep.candidates ?? SPAN_CANDIDATES).map((c) => Math.max(c, 4 * k))) {
      const { rows } = await graphRead(db, (trx) =>
        sql<{ n: number; bound: string | null; totals: ItemRow[]; count: string }>`
          with c as materialized (select u.subscriber_id, ${w} as bound from usage_subscriber_span u where ${w} > 0 order by ${w} desc limit ${n})
          select (select count(*) from c)::int as n, (select min(c.bound) from c)::text as bound,
            coalesce((select json_agg(t) from (select x.subscriber_id as key, sum(x.bytes_up)::text as up, sum(x.bytes_down)::text as down,
                sum(x.records)::text as records, null as active, null as label
              from ${rollupRows(SUBSCRIBER_LEVELS, sql`x.subscriber_id in (select c.subscriber_id from c)`, from, to, endsOf(from, to), sql`, x.subscriber_id`)} x
              group by 1 having sum(x.bytes_up + x.bytes_down) <> 0) t), '[]') as totals,
            (select coalesce(sum(a.sims), 0) from ${activeSims(q.range, sql<SqlBool>`true`, from, to)} a)::text as count`.execute(trx),
      );
      const r = rows[0];
      // Every subscriber left out has at most `bound` in the span, so at most that in the range (0: none left out has any).
      const bound = r.n < n ? 0 : Number(r.bound);
      const bytes = (t: ItemRow) => Number(t.up) + Number(t.down);
      const sorted = r.totals.sort((a, b) => bytes(b) - bytes(a) || Number(b.key) - Number(a.key));
      if (bound === 0 || (sorted.length >= k && bytes(sorted[k - 1]) > bound)) return { sorted, total: Number(r.count) };
    }
    return null;
  }

  /** The largest subscribers' page and the chart's ten, when `largestSubscribers` finds them. */
  async function fromLargest(q: Question) {
    const k = Math.max((q.page + 1) * q.size, USAGE_BY_TOP);
    if (!q.everything || q.dimension !== 'subscriber' || q.sortBy !== 'mb' || q.sortDir !== 'desc' || k > LARGEST_AT_MOST) return null;
    const found = await largestSubscribers(q, k);
    if (!found) return null;
    const page = found.sorted.slice(q.page * q.size, (q.page + 1) * q.size);
    const top = found.sorted.slice(0, USAGE_BY_TOP);
    const labels = await labelsOf(q, [...new Set([...page, ...top].map((t) => String(t.key)))]);
    const item = (t: ItemRow) => toItem({ ...t, label: labels.get(String(t.key)) ?? null });
    return { items: page.map(item), total: found.total, top: top.map(item) };
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
      const { items, total, top } = q.sortBy === 'label' ? await byLabel(q) : ((await fromLargest(q)) ?? (await fromKept(q)));
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
