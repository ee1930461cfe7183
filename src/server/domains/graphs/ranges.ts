/**
 * The dashboard's time ranges, computed in the caller's time zone (the `X-Time-Zone` header, an IANA name; UTC by
 * default). Boundaries are found by the database (`at time zone`), so a day is the zone's day across a DST change: 23
 * or 25 hours. A range is [from, to): a named range ends at the end of the quarter hour now falls in (the rollups'
 * slot), a custom one at the end of its last day.
 */
import type { FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../db/types';
import { fieldError, invalid } from '../../http/errors';

export const RANGE_NAMES = [
  'last24Hours',
  'last3Days',
  'day',
  'week',
  'last7Days',
  'last30Days',
  'last12Months',
  'month',
  'quarter',
  'year',
  'custom',
] as const;
export type RangeName = (typeof RANGE_NAMES)[number];
export type Bucket = 'hour' | 'day' | 'month';

/** The header naming the caller's time zone. */
export const TIME_ZONE_HEADER = 'x-time-zone';
/** A custom range spans at most this many days (five years of monthly points). */
export const MAX_CUSTOM_DAYS = 5 * 366;

/**
 * Each named range's start, as SQL over the zone's wall clock `l` (the local time now) and the zone `z`: hourly ranges
 * step back whole hours from the current hour, the others from the start of the local day, week, month, quarter or year.
 */
const STARTS: Record<Exclude<RangeName, 'custom'>, { bucket: Bucket; start: string }> = {
  last24Hours: { bucket: 'hour', start: `(date_trunc('hour', l) at time zone z) - interval '23 hours'` },
  last3Days: { bucket: 'hour', start: `(date_trunc('hour', l) at time zone z) - interval '71 hours'` },
  day: { bucket: 'hour', start: `date_trunc('day', l) at time zone z` },
  week: { bucket: 'day', start: `date_trunc('week', l) at time zone z` },
  last7Days: { bucket: 'day', start: `(date_trunc('day', l) - interval '6 days') at time zone z` },
  last30Days: { bucket: 'day', start: `(date_trunc('day', l) - interval '29 days') at time zone z` },
  last12Months: { bucket: 'month', start: `(date_trunc('month', l) - interval '11 months') at time zone z` },
  month: { bucket: 'day', start: `date_trunc('month', l) at time zone z` },
  quarter: { bucket: 'day', start: `date_trunc('quarter', l) at time zone z` },
  year: { bucket: 'month', start: `date_trunc('year', l) at time zone z` },
};

/** A resolved range: its instants (ISO, UTC), bucket and zone. */
export interface ResolvedRange {
  range: RangeName;
  timeZone: string;
  bucket: Bucket;
  from: string;
  to: string;
}

export interface RangeBody {
  range?: string;
  from?: string;
  to?: string;
}

/** The body properties of a ranged call (validated again here, so each refusal names its field). */
export const rangeProperties = {
  range: { type: 'string', enum: [...RANGE_NAMES], errorMessage: 'graphs.range.invalid', description: 'The time range (last7Days by default)' },
  from: {
    type: 'string',
    format: 'date',
    errorMessage: 'validation.date.invalid',
    description: 'A custom range: its first day (YYYY-MM-DD, in the time zone)',
  },
  to: { type: 'string', format: 'date', errorMessage: 'validation.date.invalid', description: 'A custom range: its last day, included' },
};

/** Zones the database knows, checked once each (pg_timezone_names reads the zone files). */
const knownZones = new LRUCache<string, boolean>({ max: 1000 });

/** The caller's time zone from `X-Time-Zone` (UTC without one), refused with 400 naming the header when unknown. */
export async function timeZoneOf(db: Kysely<Database>, request: FastifyRequest): Promise<string> {
  const raw = request.headers[TIME_ZONE_HEADER];
  const zone = (Array.isArray(raw) ? raw[0] : raw)?.trim() || 'UTC';
  const bad = () => invalid([fieldError('X-Time-Zone', 'timeZone', 'graphs.timeZone.invalid')]);
  if (zone.length > 64 || !/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) throw bad();
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
  } catch {
    throw bad();
  }
  let known = knownZones.get(zone);
  if (known === undefined) {
    const { rows } = await sql<{ ok: boolean }>`select exists (select 1 from pg_timezone_names where name = ${zone}) as ok`.execute(db);
    known = rows[0].ok;
    knownZones.set(zone, known);
  }
  if (!known) throw bad();
  return zone;
}

/** The bucket of a custom range: hours up to three days, days up to three months, months beyond. */
export function bucketForDays(days: number): Bucket {
  return days <= 3 ? 'hour' : days <= 92 ? 'day' : 'month';
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** The range a body names, in `zone` (see `timeZoneOf`); 400 naming `range`, `from` or `to` when it cannot be. */
export async function resolveRange(db: Kysely<Database>, body: RangeBody, zone: string): Promise<ResolvedRange> {
  const range = (body.range ?? 'last7Days') as RangeName;
  if (!RANGE_NAMES.includes(range)) throw invalid([fieldError('range', 'enum', 'graphs.range.invalid')]);
  let start: RawBuilder<string>;
  let stop: RawBuilder<string>;
  let bucket: Bucket;
  if (range === 'custom') {
    const { from, to } = body;
    if (!from) throw invalid([fieldError('from', 'required', 'validation.required')]);
    if (!to) throw invalid([fieldError('to', 'required', 'validation.required')]);
    if (!DATE.test(from) || Number.isNaN(Date.parse(from))) throw invalid([fieldError('from', 'format', 'validation.date.invalid')]);
    if (!DATE.test(to) || Number.isNaN(Date.parse(to))) throw invalid([fieldError('to', 'format', 'validation.date.invalid')]);
    if (from > to) throw invalid([fieldError('to', 'order', 'validation.endDate.afterStart')]);
    const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
    if (days > MAX_CUSTOM_DAYS) throw invalid([fieldError('from', 'maxItems', 'graphs.range.tooLong')]);
    bucket = bucketForDays(days);
    start = sql<string>`${from}::date::timestamp at time zone z`;
    stop = sql<string>`(${to}::date + 1)::timestamp at time zone z`;
  } else {
    if (body.from !== undefined) throw invalid([fieldError('from', 'customOnly', 'graphs.range.customOnly')]);
    if (body.to !== undefined) throw invalid([fieldError('to', 'customOnly', 'graphs.range.customOnly')]);
    ({ bucket } = STARTS[range]);
    start = sql.raw<string>(STARTS[range].start);
    stop = sql<string>`graph_slot(now()) + interval '15 minutes'`;
  }
  const { rows } = await sql<{ from: string; to: string }>`
    select to_char((${start}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "from",
      to_char((${stop}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "to"
    from (select now() at time zone ${zone} as l, ${zone}::text as z) n`.execute(db);
  return { range, timeZone: zone, bucket, from: rows[0].from, to: rows[0].to };
}

/** The start (an instant) of the bucket a slot (or any instant) `column` falls in, as SQL. */
export function bucketOf(column: RawBuilder<unknown>, r: ResolvedRange): RawBuilder<Date> {
  if (r.bucket === 'hour')
    // Whole hours from the range's start, counted in absolute time (a DST day keeps its 23 or 25 hours apart).
    return sql<Date>`(${r.from}::timestamptz + floor(extract(epoch from ${column} - ${r.from}::timestamptz) / 3600) * interval '1 hour')`;
  return sql<Date>`(date_trunc(${r.bucket}, ${column} at time zone ${r.timeZone}) at time zone ${r.timeZone})`;
}

/** Every bucket's start of the range as a subquery of one column, `start`. */
export function bucketSeries(r: ResolvedRange): RawBuilder<Date> {
  if (r.bucket === 'hour')
    return sql<Date>`(select generate_series(${r.from}::timestamptz, ${r.to}::timestamptz - interval '1 second', interval '1 hour') as start)`;
  const step = sql.lit(`1 ${r.bucket}`);
  return sql<Date>`(select distinct date_trunc(${r.bucket}, g) at time zone ${r.timeZone} as start from generate_series(
      date_trunc(${r.bucket}, ${r.from}::timestamptz at time zone ${r.timeZone}),
      ${r.to}::timestamptz at time zone ${r.timeZone} - interval '1 second', ${step}::interval) g)`;
}
