import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { fieldError, invalid, notFound } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { pageNumberSchema, pageSchema, pageSizeSchema, parseTime } from '../../http/input';
import type { Principal } from '../../http/principal';
import { escapeLike, resellerVisibility, subtreePattern } from '../../http/tenancy';
import type { Database } from '../../db/types';
import { pageAnswer } from '@shared/wire';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The longest custom range: a year and a day, so one request never reads more than a year of records. */
const MAX_RANGE_DAYS = 367;

export const USAGE_RANGES = ['24h', '7d', '30d', 'custom'] as const;
export const USAGE_SORTS = ['plmn', 'country', 'operator', 'brand', 'trafficBytes', 'activeSims'] as const;
type Sort = (typeof USAGE_SORTS)[number];

/** The radio technologies a network's band list names, from oldest to newest. */
const TECHNOLOGIES: [string, RegExp][] = [
  ['GSM', /\bGSM\b|\bDCS\b|\bPCS 1900\b/i],
  ['CDMA', /\bCDMA/i],
  ['UMTS', /\bUMTS\b|\bWCDMA\b|\bTD-SCDMA\b/i],
  ['LTE', /\bLTE\b/i],
  ['5G', /\b5G\b|\bNR\b/i],
];

/** GSM, UMTS, LTE, 5G… as the catalogue's bands ("GSM 900 / UMTS 2100 / LTE 800 / 5G 3500") name them. */
export function technologiesOf(bands: string | null): string[] {
  if (!bands) return [];
  return TECHNOLOGIES.filter(([, re]) => re.test(bands)).map(([name]) => name);
}

interface RangeInput {
  range: (typeof USAGE_RANGES)[number];
  from?: string;
  to?: string;
}

/** The half-open interval [from, to) a range names; custom ranges checked (order, at most a year). */
export function resolveRange(input: RangeInput, now = new Date()): { from: Date; to: Date } {
  if (input.range !== 'custom') {
    const span = input.range === '24h' ? DAY : input.range === '7d' ? 7 * DAY : 30 * DAY;
    return { from: new Date(now.getTime() - span), to: now };
  }
  if (!input.from) throw invalid([fieldError('from', 'required', 'validation.required')]);
  if (!input.to) throw invalid([fieldError('to', 'required', 'validation.required')]);
  const from = parseTime(input.from, 'from');
  const to = parseTime(input.to, 'to');
  if (to <= from) throw invalid([fieldError('to', 'order', 'network.usage.rangeOrder')]);
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY) throw invalid([fieldError('to', 'range', 'network.usage.rangeTooLong')]);
  return { from, to };
}

/**
 * Which subscribers' records the caller counts, as a condition on `s` (subscriber): the administrator all, an
 * account user its account's, a reseller user its subtree's.
 */
function subscriberScope(principal: Principal): RawBuilder<boolean> {
  if (principal.isAdmin) return sql<boolean>`true`;
  if (principal.accountId !== null) return sql<boolean>`s.account_id = ${principal.accountId}`;
  return sql<boolean>`s.reseller_id in (select id from reseller where path like ${subtreePattern(principal)})`;
}

/** Traffic and distinct subscribers per network over the range, of the caller's subscribers only. */
function usageByPlmn(principal: Principal, from: Date, to: Date) {
  return sql`select u.plmn, sum(u.bytes_up + u.bytes_down) as traffic_bytes, count(distinct u.subscriber_id) as active_sims
    from usage_record u join subscriber s on s.subscriber_id = u.subscriber_id
    where u.at >= ${from} and u.at < ${to} and u.plmn is not null and ${subscriberScope(principal)}
    group by u.plmn`;
}

const rangeProperties = {
  range: { type: 'string', enum: USAGE_RANGES, default: '24h' },
  from: { type: 'string', format: 'date-time', description: 'Start of a custom range (inclusive)' },
  to: { type: 'string', format: 'date-time', description: 'End of a custom range (exclusive)' },
};

const usageRow = {
  type: 'object',
  required: ['plmn', 'mcc', 'mnc', 'country', 'operator', 'brand', 'bands', 'technologies', 'trafficBytes', 'activeSims'],
  properties: {
    plmn: { type: 'string' },
    mcc: { type: 'string' },
    mnc: { type: 'string' },
    country: { type: 'string' },
    operator: { type: ['string', 'null'] },
    brand: { type: ['string', 'null'] },
    bands: { type: ['string', 'null'] },
    technologies: { type: 'array', items: { type: 'string' } },
    trafficBytes: { type: 'integer' },
    activeSims: { type: 'integer' },
  },
};

const rangeEcho = { from: { type: 'string', format: 'date-time' }, to: { type: 'string', format: 'date-time' } };

/** The order of each sortable column; ties broken by PLMN so pages never overlap. */
const ORDER: Record<Sort, string> = {
  plmn: 'n.plmn',
  country: 'n.country',
  operator: 'lower(n.operator)',
  brand: 'lower(n.brand)',
  trafficBytes: 'traffic_bytes',
  activeSims: 'active_sims',
};

interface PagedBody extends RangeInput {
  page: number;
  size: number;
  searchKey?: string;
  country?: string;
  usedOnly?: boolean;
  sortBy: Sort;
  sortDirection: 'asc' | 'desc';
}

/** Usage per network and per country over a range, and the roaming profiles allowing a network. */
export function registerNetworkUsageRoutes(app: FastifyInstance, db: Kysely<Database>) {
  app.post(
    '/portal/networks/usage/paged',
    {
      config: { signedIn: true },
      schema: {
        tags: ['networks'],
        summary: "A page of networks with the caller's traffic and active SIMs on each over a range, searched and sorted",
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            ...rangeProperties,
            page: { ...pageNumberSchema(), default: 0 },
            size: { ...pageSizeSchema(200), default: 25 },
            searchKey: { type: 'string', maxLength: 100, description: 'Part of a country code, operator, brand, PLMN or MCC-MNC' },
            country: { type: 'string', pattern: '^[A-Z]{2}$' },
            usedOnly: { type: 'boolean', default: false, description: 'Only networks with traffic in the range' },
            sortBy: { type: 'string', enum: USAGE_SORTS, default: 'trafficBytes' },
            sortDirection: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
          },
        },
        response: {
          200: pageSchema(usageRow, rangeEcho),
        },
      },
    },
    async (request: FastifyRequest) => {
      const principal = principalOf(request);
      const q: PagedBody = { range: '24h', page: 0, size: 25, sortBy: 'trafficBytes', sortDirection: 'desc', ...(request.body as Partial<PagedBody>) };
      const { from, to } = resolveRange(q);
      const conditions = [sql`(n.withdrawn_at is null or u.plmn is not null)`];
      if (q.country) conditions.push(sql`n.country = ${q.country}`);
      if (q.usedOnly) conditions.push(sql`u.plmn is not null`);
      const key = q.searchKey?.trim();
      if (key) {
        const like = `%${escapeLike(key)}%`;
        conditions.push(
          sql`(n.plmn like ${like} or n.country ilike ${like} or n.operator ilike ${like} or n.brand ilike ${like} or (n.mcc || '-' || n.mnc) like ${like})`,
        );
      }
      const where = sql.join(conditions, sql` and `);
      const base = sql`from network n left join (${usageByPlmn(principal, from, to)}) u on u.plmn = n.plmn where ${where}`;
      const direction = q.sortDirection === 'asc' ? sql`asc` : sql`desc`;
      const nulls = q.sortDirection === 'asc' ? sql`nulls first` : sql`nulls last`;
      const { rows: counted } = await sql<{ n: string }>`select count(*) as n ${base}`.execute(db);
      const { rows } = await sql<{
        plmn: string;
        mcc: string;
        mnc: string;
        country: string;
        operator: string | null;
        brand: string | null;
        bands: string | null;
        trafficBytes: string | number;
        activeSims: string | number;
      }>`select n.plmn, n.mcc, n.mnc, n.country, n.operator, n.brand, n.bands,
          coalesce(u.traffic_bytes, 0) as traffic_bytes, coalesce(u.active_sims, 0) as active_sims
        ${base}
        order by ${sql.raw(ORDER[q.sortBy])} ${direction} ${nulls}, n.plmn ${direction}
        limit ${q.size} offset ${q.page * q.size}`.execute(db);
      const total = Number(counted[0].n);
      const items = rows.map((r) => ({
        plmn: r.plmn,
        mcc: r.mcc,
        mnc: r.mnc,
        country: r.country,
        operator: r.operator,
        brand: r.brand,
        bands: r.bands,
        technologies: technologiesOf(r.bands),
        trafficBytes: Number(r.trafficBytes),
        activeSims: Number(r.activeSims),
      }));
      return { ...pageAnswer(items, total, q.page, q.size), from: from.toISOString(), to: to.toISOString() };
    },
  );

  app.post(
    '/portal/networks/usage/countries',
    {
      config: { signedIn: true },
      schema: {
        tags: ['networks'],
        summary: "The caller's traffic and active SIMs per country of the visited networks over a range (the map)",
        body: { type: 'object', additionalProperties: false, properties: rangeProperties },
        response: {
          200: {
            type: 'object',
            required: ['items', 'from', 'to'],
            properties: {
              items: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['country', 'trafficBytes', 'activeSims', 'networks'],
                  properties: {
                    country: { type: 'string' },
                    trafficBytes: { type: 'integer' },
                    activeSims: { type: 'integer', description: 'Distinct subscribers seen in the country (one on two networks counts once)' },
                    networks: { type: 'integer', description: 'Networks of the country with traffic' },
                  },
                },
              },
              ...rangeEcho,
            },
          },
        },
      },
    },
    async (request: FastifyRequest) => {
      const principal = principalOf(request);
      const { from, to } = resolveRange({ range: '24h', ...(request.body as Partial<RangeInput>) });
      const { rows } = await sql<{ country: string; trafficBytes: string; activeSims: string; networks: string }>`
        select n.country, sum(u.bytes_up + u.bytes_down) as traffic_bytes, count(distinct u.subscriber_id) as active_sims,
          count(distinct n.plmn) as networks
        from usage_record u join subscriber s on s.subscriber_id = u.subscriber_id join network n on n.plmn = u.plmn
        where u.at >= ${from} and u.at < ${to} and u.plmn is not null and ${subscriberScope(principal)}
        group by n.country order by n.country`.execute(db);
      return {
        items: rows.map((r) => ({
          country: r.country,
          trafficBytes: Number(r.trafficBytes),
          activeSims: Number(r.activeSims),
          networks: Number(r.networks),
        })),
        from: from.toISOString(),
        to: to.toISOString(),
      };
    },
  );

  app.get(
    '/portal/networks/:plmn/profiles',
    {
      config: { signedIn: true },
      schema: {
        tags: ['networks'],
        summary: "The caller's roaming profiles whose allowed lists hold the network, with its state in each list",
        params: {
          type: 'object',
          required: ['plmn'],
          properties: { plmn: { type: 'string', pattern: '^\\d{5,6}$', errorMessage: 'network.plmn.invalid' } },
        },
        response: {
          200: {
            type: 'object',
            required: ['plmn', 'items'],
            properties: {
              plmn: { type: 'string' },
              items: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['roamingProfileId', 'name', 'reviewState', 'allowedListId', 'allowedListName', 'state', 'allowed'],
                  properties: {
                    roamingProfileId: { type: 'integer' },
                    name: { type: 'string' },
                    reviewState: { type: 'string' },
                    allowedListId: { type: 'integer' },
                    allowedListName: { type: 'string' },
                    state: { type: 'string', description: 'preferred, blocked, or a change waiting (pending, pendingChanges, pendingRemoval)' },
                    allowed: { type: 'boolean', description: 'Whether devices of the profile may attach to the network now' },
                  },
                },
              },
            },
          },
        },
      },
    },
    async (request: FastifyRequest) => {
      const principal = principalOf(request);
      const { plmn } = request.params as { plmn: string };
      const network = await db.selectFrom('network').select('id').where('plmn', '=', plmn).executeTakeFirst();
      if (!network) throw notFound();
      let q = db
        .selectFrom('roamingProfile as p')
        .innerJoin('reseller as r', 'r.id', 'p.resellerId')
        .innerJoin('roamingProfileAllowedList as pl', 'pl.roamingProfileId', 'p.id')
        .innerJoin('allowedList as l', 'l.allowedListId', 'pl.allowedListId')
        .innerJoin('allowedListNetwork as aln', (j) => j.onRef('aln.allowedListId', '=', 'l.allowedListId').on('aln.networkId', '=', network.id))
        .select([
          'p.id as roamingProfileId',
          'p.name',
          'p.reviewState',
          'l.allowedListId',
          'l.name as allowedListName',
          'aln.applied',
          sql<string>`case when aln.target is null then aln.applied when aln.target = 'blocked' then 'pending'
            when aln.target = 'preferred' then 'pendingChanges' else 'pendingRemoval' end`.as('state'),
        ])
        .where('aln.applied', '<>', 'removed')
        .orderBy(sql`lower(p.name)`)
        .orderBy('p.id')
        .orderBy('l.allowedListId');
      const visible = resellerVisibility(principal, { id: 'r.id', path: 'r.path' });
      if (visible) q = q.where(visible);
      const rows = await q.execute();
      return {
        plmn,
        items: rows.map((r) => ({
          roamingProfileId: r.roamingProfileId,
          name: r.name,
          reviewState: r.reviewState,
          allowedListId: r.allowedListId,
          allowedListName: r.allowedListName,
          state: r.state,
          allowed: r.applied === 'preferred',
        })),
      };
    },
  );
}
