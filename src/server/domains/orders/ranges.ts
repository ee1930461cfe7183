/**
 * The resource ranges SIM order allocation draws from (IMSIs and MSISDNs of a sponsor, ICCIDs of a provider or of
 * any), the administrator's alone: the whole list, a page of it (sorted, filtered, searched by a number it holds),
 * adding, changing and retiring one. The rules of a range are `rangeRuleErrors` (src/shared/orders.ts), which the
 * form shows too; beside them the server refuses a range overlapping another of its kind, a change of the first
 * number once numbers were taken, a last number below what was taken, and any change of a retired range. A retired
 * range stays listed (its numbers were given out) but allocation no longer takes from it.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { RANGE_KINDS, rangeRuleErrors, type RangeKind } from '@shared/orders';
import { pageAnswer } from '@shared/wire';
import type { Database } from '../../db/types';
import { conflict, fieldError, invalid, notFound } from '../../http/errors';
import { idParams, idSchema, listRequestSchema, objectBody, pageSchema } from '../../http/input';
import { tags } from './schemas';

const ADMIN = { adminOnly: true };

export interface RangeRow {
  id: number;
  kind: string;
  sponsorId: number | null;
  sponsorName: string | null;
  providerId: number | null;
  providerName: string | null;
  first: string;
  last: string;
  next: string;
  free: string;
  total: string;
  retiredAt: Date | string | null;
  createdAt: Date | string;
}

/** Every range with its sponsor's and provider's names; numbers as text (an ICCID is beyond a JavaScript number). */
export const RANGE_SELECT = sql`select rr.id, rr.kind, rr.sponsor_id, s.name as sponsor_name, rr.provider_id, p.name as provider_name,
    rr.first_value::text as first, rr.last_value::text as last, rr.next_value::text as next,
    (rr.last_value - rr.next_value + 1)::text as free, (rr.last_value - rr.first_value + 1)::text as total, rr.retired_at, rr.created_at
  from sim_resource_range rr left join sponsor s on s.id = rr.sponsor_id left join sim_provider p on p.id = rr.provider_id`;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
export const rangeView = (r: RangeRow) => ({
  id: r.id,
  kind: r.kind,
  sponsorId: r.sponsorId,
  sponsorName: r.sponsorName ?? null,
  providerId: r.providerId,
  providerName: r.providerName ?? null,
  first: r.first,
  last: r.last,
  next: r.next,
  free: Number(r.free),
  total: Number(r.total),
  retired: r.retiredAt !== null,
  retiredAt: iso(r.retiredAt),
  createdAt: iso(r.createdAt)!,
});

const text = { type: 'string' };
const nullableText = { type: ['string', 'null'] };
const nullableInt = { type: ['integer', 'null'] };
export const rangeSchema = {
  type: 'object',
  required: ['id', 'kind', 'sponsorId', 'providerId', 'first', 'last', 'next', 'free'],
  properties: {
    id: { type: 'integer' },
    kind: { type: 'string', enum: [...RANGE_KINDS] },
    sponsorId: nullableInt,
    sponsorName: nullableText,
    providerId: nullableInt,
    providerName: nullableText,
    first: text,
    last: text,
    next: { type: 'string', description: 'The next number allocation takes (last + 1 when the range is used up)' },
    free: { type: 'integer', description: 'Numbers not yet taken' },
    total: { type: 'integer' },
    retired: { type: 'boolean', description: 'Retired: listed, never allocated from' },
    retiredAt: nullableText,
    createdAt: text,
  },
};

const number = { type: 'string', maxLength: 18, pattern: '^\\d{1,18}$', errorMessage: 'order.range.digits' };
export const rangeBody = objectBody(
  {
    kind: { type: 'string', maxLength: 10, enum: [...RANGE_KINDS], errorMessage: 'order.range.kind' },
    sponsorId: idSchema(),
    providerId: idSchema(),
    first: number,
    last: number,
  },
  ['kind', 'first', 'last'],
);
const changeBody = objectBody({ sponsorId: idSchema(), providerId: { ...idSchema(), type: ['integer', 'null'] }, first: number, last: number }, [
  'first',
  'last',
]);
const pagedBody = {
  ...listRequestSchema(['number', 'sponsor']),
  properties: {
    ...listRequestSchema().properties,
    kind: { type: ['string', 'null'], maxLength: 10, enum: [...RANGE_KINDS, null], errorMessage: 'order.range.kind' },
    sponsorId: { ...idSchema(), type: ['integer', 'null'] },
    providerId: { ...idSchema(), type: ['integer', 'null'] },
    status: {
      type: ['string', 'null'],
      maxLength: 10,
      enum: ['active', 'retired', null],
      errorMessage: 'validation.invalid',
      description: 'Active (the default) or retired ranges; null for both',
    },
  },
  additionalProperties: false,
  errorMessage: { additionalProperties: 'validation.unknownField' },
};

const SORTS: Record<string, string> = {
  id: 'rr.id',
  kind: 'rr.kind',
  sponsorName: 's.name',
  providerName: 'p.name',
  first: 'rr.first_value',
  last: 'rr.last_value',
  next: 'rr.next_value',
  free: '(rr.last_value - rr.next_value)',
  total: '(rr.last_value - rr.first_value)',
  createdAt: 'rr.created_at',
};

interface PagedBody {
  sortBy?: string | null;
  sortDir?: 'asc' | 'desc' | null;
  searchBy?: string | null;
  searchKey?: string | null;
  page?: { page?: number; size?: number } | null;
  kind?: RangeKind | null;
  sponsorId?: number | null;
  providerId?: number | null;
  status?: 'active' | 'retired' | null;
}

const bad = (field: string, rule: string, messageId: string) => invalid([fieldError(field, rule, messageId)]);

async function oneRange(db: Kysely<Database>, id: number) {
  const { rows } = await sql<RangeRow>`${RANGE_SELECT} where rr.id = ${id}`.execute(db);
  if (!rows[0]) throw notFound();
  return rangeView(rows[0]);
}

/** The range's rules, its sponsor and provider, and no overlap with another range of its kind (`except` being changed). */
async function checkRange(
  trx: Kysely<Database>,
  r: { kind: RangeKind; sponsorId: number | null; providerId: number | null; first: string; last: string },
  except?: number,
) {
  const sponsor =
    r.sponsorId === null ? undefined : await trx.selectFrom('sponsor').select(['id', 'imsiPrefix']).where('id', '=', r.sponsorId).executeTakeFirst();
  if (r.sponsorId !== null && !sponsor) throw bad('sponsorId', 'reference', 'order.sponsor.unknown');
  if (r.providerId !== null && !(await trx.selectFrom('simProvider').select('id').where('id', '=', r.providerId).executeTakeFirst()))
    throw bad('providerId', 'reference', 'order.provider.unknown');
  const errors = rangeRuleErrors({ ...r, sponsorPrefix: sponsor?.imsiPrefix });
  if (errors.length) throw invalid(errors.map((e) => fieldError(e.field, e.rule, e.messageId)));
  // Ranges of a kind are added one at a time, so two added at once cannot overlap each other.
  await sql`select pg_advisory_xact_lock(hashtext(${`sim_resource_range:${r.kind}`}))`.execute(trx);
  const { rows } = await sql<{ id: number }>`select id from sim_resource_range where kind = ${r.kind} and id <> ${except ?? 0}
    and first_value <= ${r.last}::bigint and last_value >= ${r.first}::bigint limit 1`.execute(trx);
  if (rows[0]) throw conflict([fieldError('first', 'overlap', 'order.range.overlap')]);
}

export function registerRangeRoutes(app: FastifyInstance, db: Kysely<Database>) {
  app.get(
    '/portal/sim-orders/admin/resource-ranges',
    {
      config: ADMIN,
      schema: {
        tags,
        summary: 'Every IMSI, ICCID and MSISDN range allocation takes from, retired ones too',
        response: { 200: { type: 'array', items: rangeSchema } },
      },
    },
    async () => (await sql<RangeRow>`${RANGE_SELECT} order by rr.kind, rr.id`.execute(db)).rows.map(rangeView),
  );

  app.post(
    '/portal/sim-orders/admin/resource-ranges/paged',
    {
      config: ADMIN,
      schema: {
        tags,
        summary:
          'A page of the resource ranges, sorted and filtered (kind, sponsorId, providerId, status active or retired); searchKey finds the range holding a number (searchBy number) or a sponsor by name (sponsor)',
        body: pagedBody,
        response: { 200: pageSchema(rangeSchema) },
      },
    },
    async (request) => {
      const body = (request.body ?? {}) as PagedBody;
      const filters = [sql`true`];
      if (body.kind) filters.push(sql`rr.kind = ${body.kind}`);
      if (body.sponsorId != null) filters.push(sql`rr.sponsor_id = ${body.sponsorId}`);
      if (body.providerId != null) filters.push(sql`rr.provider_id = ${body.providerId}`);
      const status = body.status === undefined ? 'active' : body.status;
      if (status === 'active') filters.push(sql`rr.retired_at is null`);
      if (status === 'retired') filters.push(sql`rr.retired_at is not null`);
      const key = body.searchKey?.trim();
      if (key) {
        const by = body.searchBy ?? 'multi';
        if (!['multi', 'number', 'sponsor'].includes(by)) throw bad('searchBy', 'enum', 'validation.searchBy.invalid');
        const digits = /^\d{1,18}$/.test(key);
        if (by === 'number' && !digits) throw bad('searchKey', 'pattern', 'order.range.digits');
        const byNumber = sql`${key}::bigint between rr.first_value and rr.last_value`;
        const bySponsor = sql`s.name ilike ${`%${key.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`;
        filters.push(by === 'number' ? byNumber : by === 'sponsor' ? bySponsor : digits ? sql`(${byNumber} or ${bySponsor})` : bySponsor);
      }
      if (body.sortBy && !SORTS[body.sortBy]) throw bad('sortBy', 'enum', 'validation.sortBy.invalid');
      const dir = body.sortDir === 'desc' ? sql`desc` : sql`asc`;
      const where = sql`where ${sql.join(filters, sql` and `)}`;
      const size = body.page?.size ?? 25;
      const page = body.page?.page ?? 0;
      const [{ rows: count }, { rows }] = await Promise.all([
        sql<{ n: string }>`select count(*)::text as n from sim_resource_range rr left join sponsor s on s.id = rr.sponsor_id ${where}`.execute(db),
        sql<RangeRow>`${RANGE_SELECT} ${where} order by ${sql.raw(SORTS[body.sortBy ?? 'id'])} ${dir} nulls last, rr.id ${dir}
          limit ${size} offset ${page * size}`.execute(db),
      ]);
      return pageAnswer(rows.map(rangeView), Number(count[0].n), page, size);
    },
  );

  app.post(
    '/portal/sim-orders/admin/resource-ranges',
    {
      config: ADMIN,
      schema: {
        tags,
        summary:
          'Adds a range to allocate from: IMSIs (15 digits, starting with the sponsor’s IMSI prefix) or MSISDNs (8 to 15 digits) of a sponsor, or ICCIDs (18 digits without the check digit) of a provider or of any; never overlapping another range of its kind',
        body: rangeBody,
        response: { 201: rangeSchema },
      },
    },
    async (request, reply) => {
      const body = request.body as { kind: RangeKind; sponsorId?: number; providerId?: number; first: string; last: string };
      const range = {
        kind: body.kind,
        sponsorId: body.kind === 'iccid' ? null : (body.sponsorId ?? null),
        providerId: body.kind === 'iccid' ? (body.providerId ?? null) : null,
        first: body.first,
        last: body.last,
      };
      const id = await db.transaction().execute(async (trx) => {
        await checkRange(trx, range);
        const row = await trx
          .insertInto('simResourceRange')
          .values({
            kind: range.kind,
            sponsorId: range.sponsorId,
            providerId: range.providerId,
            firstValue: sql<number>`${range.first}::bigint`,
            lastValue: sql<number>`${range.last}::bigint`,
            nextValue: sql<number>`${range.first}::bigint`,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return row.id;
      });
      return reply.status(201).send(await oneRange(db, id));
    },
  );

  app.put(
    '/portal/sim-orders/admin/resource-ranges/:id',
    {
      config: ADMIN,
      schema: {
        tags,
        summary:
          'Changes a range (its kind stays): the sponsor or provider, and its bounds by the same rules as adding; the first number only while nothing was taken, the last not below what was taken; a retired range not at all',
        params: idParams(),
        body: changeBody,
        response: { 200: rangeSchema },
      },
    },
    async (request) => {
      const { id } = request.params as { id: number };
      const body = request.body as { sponsorId?: number; providerId?: number | null; first: string; last: string };
      await db.transaction().execute(async (trx) => {
        const { rows } = await sql<{
          kind: RangeKind;
          sponsorId: number | null;
          providerId: number | null;
          first: string;
          next: string;
          retiredAt: Date | null;
        }>`
          select kind, sponsor_id, provider_id, first_value::text as first, next_value::text as next, retired_at
          from sim_resource_range where id = ${id} for update`.execute(trx);
        const old = rows[0];
        if (!old) throw notFound();
        if (old.retiredAt !== null) throw conflict([fieldError('retired', 'retired', 'order.range.retired')]);
        const range = {
          kind: old.kind,
          sponsorId: old.kind === 'iccid' ? null : (body.sponsorId ?? old.sponsorId),
          providerId: old.kind === 'iccid' ? (body.providerId === undefined ? old.providerId : body.providerId) : null,
          first: body.first,
          last: body.last,
        };
        await checkRange(trx, range, id);
        const taken = BigInt(old.next) > BigInt(old.first);
        if (taken && BigInt(body.first) !== BigInt(old.first)) throw conflict([fieldError('first', 'allocated', 'order.range.firstTaken')]);
        if (taken && old.kind !== 'iccid' && range.sponsorId !== old.sponsorId)
          throw conflict([fieldError('sponsorId', 'allocated', 'order.range.sponsorTaken')]);
        if (BigInt(body.last) < BigInt(old.next) - 1n) throw conflict([fieldError('last', 'allocated', 'order.range.belowTaken')]);
        await sql`update sim_resource_range set sponsor_id = ${range.sponsorId}, provider_id = ${range.providerId},
          first_value = ${range.first}::bigint, last_value = ${range.last}::bigint,
          next_value = case when next_value = first_value then ${range.first}::bigint else next_value end
          where id = ${id}`.execute(trx);
      });
      return oneRange(db, id);
    },
  );

  app.post(
    '/portal/sim-orders/admin/resource-ranges/:id/retire',
    {
      config: ADMIN,
      schema: {
        tags,
        summary: 'Retires a range: it stays listed with what it gave out, and allocation no longer takes from it',
        params: idParams(),
        response: { 200: rangeSchema },
      },
    },
    async (request) => {
      const { id } = request.params as { id: number };
      const retired = await db
        .updateTable('simResourceRange')
        .set({ retiredAt: new Date() })
        .where('id', '=', id)
        .where('retiredAt', 'is', null)
        .returning('id')
        .executeTakeFirst();
      if (!retired) {
        await oneRange(db, id); // 404 when there is no such range
        throw conflict([fieldError('retired', 'retired', 'order.range.retired')]);
      }
      return oneRange(db, id);
    },
  );
}
