/**
 * SIM providers and provider profiles. Everyone with SimOrders reads the providers and the profiles of the catalogue
 * (no reseller) and of the resellers they see; a reseller requests a profile of its own, which stays pending until the
 * administrator approves or denies it (a denial names its reason). Only approved profiles go into an order.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../../db/types';
import type { ProviderProfile } from '../../db/types.gen';
import { fieldError, invalid, notFound } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { pageAnswer } from '@shared/wire';
import { idParams, idSchema, INT_MIN, pageSchema, pageSizeSchema, pageNumberSchema, queryId, searchTextSchema } from '../../http/input';
import type { Principal } from '../../http/principal';
import { resellerUser, resellerVisibility } from '../../http/tenancy';
import { resellerInSubtree } from '../resellers/subtree';
import { recordProfileReview } from './profileReview';
import { profileRequestBody, profileSchema, reviewBody, simTypeSchema } from './schemas';

const tags = ['sim-providers'];
const ORDERS = { privilege: 'SimOrders' };

const PROFILE_SELECT = sql`select pp.*, p.name as provider_name, s.name as sponsor_name, r.name as reseller_name
  from provider_profile pp join sim_provider p on p.id = pp.provider_id join sponsor s on s.id = pp.sponsor_id
  left join reseller r on r.id = pp.reseller_id`;

/** Profiles of the catalogue and of the resellers the caller sees. */
function profileVisibility(principal: Principal) {
  const visible = resellerVisibility(principal, { id: 'r.id', path: 'r.path' });
  return visible ? sql`(pp.reseller_id is null or ${visible})` : sql`true`;
}

type ProfileRow = Selectable<ProviderProfile> & { providerName: string; sponsorName: string; resellerName: string | null };
const profileView = (p: ProfileRow) => ({
  id: p.id,
  providerId: p.providerId,
  providerName: p.providerName,
  name: p.name,
  sponsorId: p.sponsorId,
  sponsorName: p.sponsorName,
  slotCount: p.slotCount,
  simType: p.simType,
  imsiPrefix: p.imsiPrefix,
  resellerId: p.resellerId,
  resellerName: p.resellerName ?? null,
  status: p.status,
  comment: p.comment,
  reviewReason: p.reviewReason,
  reviewedAt: p.reviewedAt ? new Date(p.reviewedAt).toISOString() : null,
  createdAt: new Date(p.createdAt).toISOString(),
});

/** A profile the caller sees, else 404. */
export async function visibleProfile(db: Kysely<Database>, principal: Principal, id: number) {
  const { rows } = await sql<ProfileRow>`${PROFILE_SELECT} where pp.id = ${id} and ${profileVisibility(principal)}`.execute(db);
  if (!rows[0]) throw notFound();
  return rows[0];
}

/** The filters of the profile lists, as the specification names them, and `provider_id`, `status`. */
const PROFILE_FILTERS = {
  sponsor_id: idSchema(),
  slot_count: { type: 'integer', minimum: 1, maximum: 4, 'x-rule': 'range', errorMessage: 'order.slots.invalid' },
  reseller_id: idSchema({ min: INT_MIN }),
  sim_type: simTypeSchema,
  imsi_prefix: { type: 'string', maxLength: 15, pattern: '^\\d{1,15}$', errorMessage: 'validation.imsiPrefix.invalid' },
  provider_id: idSchema(),
  status: { type: 'string', maxLength: 10, enum: ['pending', 'approved', 'denied'], errorMessage: 'order.status.invalid' },
};
const profileQuery = (more: Record<string, object> = {}) => ({
  type: 'object',
  additionalProperties: false,
  properties: { ...PROFILE_FILTERS, ...more },
  errorMessage: { additionalProperties: 'validation.unknownField' },
});

/** The caller's visibility and the query's filters; `reseller_id` gives that reseller's choice (the catalogue's and its own). */
async function profileFilters(db: Kysely<Database>, request: FastifyRequest) {
  const principal = principalOf(request);
  const q = request.query as { slot_count?: number; sim_type?: string; imsi_prefix?: string; status?: string };
  const filters = [profileVisibility(principal)];
  const sponsorId = queryId(request, 'sponsor_id');
  const providerId = queryId(request, 'provider_id');
  const resellerId = queryId(request, 'reseller_id', { min: INT_MIN });
  if (sponsorId !== undefined) filters.push(sql`pp.sponsor_id = ${sponsorId}`);
  if (providerId !== undefined) filters.push(sql`pp.provider_id = ${providerId}`);
  if (q.slot_count !== undefined) filters.push(sql`pp.slot_count = ${q.slot_count}`);
  if (q.sim_type) filters.push(sql`pp.sim_type = ${q.sim_type}`);
  if (q.imsi_prefix) filters.push(sql`pp.imsi_prefix like ${`${q.imsi_prefix}%`}`);
  if (q.status) filters.push(sql`pp.status = ${q.status}`);
  // A reseller's choice: the catalogue's profiles and its own (those of resellers above it are not its own).
  if (resellerId !== undefined) {
    await resellerInSubtree(db, principal, resellerId);
    filters.push(sql`(pp.reseller_id is null or pp.reseller_id = ${resellerId})`);
  }
  return filters;
}

/** Sortable columns of the paged profile lists. */
const PROFILE_SORTS: Record<string, string> = {
  id: 'pp.id',
  name: 'pp.name',
  providerName: 'p.name',
  sponsorName: 's.name',
  slotCount: 'pp.slot_count',
  simType: 'pp.sim_type',
  imsiPrefix: 'pp.imsi_prefix',
  resellerName: 'r.name',
  status: 'pp.status',
  createdAt: 'pp.created_at',
  reviewedAt: 'pp.reviewed_at',
};

export function registerProviderRoutes(app: FastifyInstance, db: Kysely<Database>) {
  app.get(
    '/portal/sim-providers',
    {
      config: ORDERS,
      schema: {
        tags,
        summary: 'The SIM providers (card vendors) orders are placed with',
        response: {
          200: {
            type: 'array',
            items: {
              type: 'object',
              required: ['id', 'name', 'vendor', 'simTypes'],
              properties: {
                id: { type: 'integer' },
                name: { type: 'string' },
                vendor: { type: 'string' },
                simTypes: { type: 'array', items: { type: 'string' } },
                description: { type: ['string', 'null'] },
              },
            },
          },
        },
      },
    },
    async () => db.selectFrom('simProvider').select(['id', 'name', 'vendor', 'simTypes', 'description']).orderBy('name').execute(),
  );

  app.get(
    '/portal/sim-providers/profiles',
    {
      config: ORDERS,
      schema: {
        tags,
        summary: 'Provider profiles the caller sees, filtered by sponsor_id, slot_count, reseller_id, sim_type, imsi_prefix (a prefix), provider_id and status',
        querystring: profileQuery(),
        response: { 200: { type: 'array', items: profileSchema } },
      },
    },
    async (request) => {
      const filters = await profileFilters(db, request);
      const { rows } = await sql<ProfileRow>`${PROFILE_SELECT} where ${sql.join(filters, sql` and `)} order by pp.status, pp.name, pp.id`.execute(db);
      return rows.map(profileView);
    },
  );

  app.get(
    '/portal/sim-providers/profiles/paged',
    {
      config: ORDERS,
      schema: {
        tags,
        summary:
          'A page of the provider profiles (list=profiles: approved) or of the profile requests (list=requests: pending or denied) the caller sees, with the filters of the full list, searchKey (name, provider or sponsor), sorted (sortBy, sortDir) and paged (page from 0, size)',
        querystring: profileQuery({
          list: { type: 'string', maxLength: 10, enum: ['profiles', 'requests'], default: 'profiles', errorMessage: 'validation.invalid' },
          searchKey: { ...searchTextSchema(), type: 'string' },
          sortBy: { type: 'string', maxLength: 20, enum: Object.keys(PROFILE_SORTS), errorMessage: 'validation.sortBy.invalid' },
          sortDir: { type: 'string', maxLength: 4, enum: ['asc', 'desc'], errorMessage: 'validation.sortDir.invalid' },
          page: { ...pageNumberSchema(), default: 0 },
          size: { ...pageSizeSchema(100), default: 25 },
        }),
        response: { 200: pageSchema(profileSchema) },
      },
    },
    async (request) => {
      const q = request.query as { list: 'profiles' | 'requests'; searchKey?: string; sortBy?: string; sortDir?: 'asc' | 'desc'; page: number; size: number };
      const filters = await profileFilters(db, request);
      filters.push(q.list === 'requests' ? sql`pp.status in ('pending', 'denied')` : sql`pp.status = 'approved'`);
      const key = q.searchKey?.trim();
      if (key) {
        const like = `%${key.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        filters.push(sql`(pp.name ilike ${like} or p.name ilike ${like} or s.name ilike ${like})`);
      }
      const where = sql.join(filters, sql` and `);
      // Requests waiting for review first, then by name, unless a column is chosen.
      const order = q.sortBy
        ? sql`${sql.raw(PROFILE_SORTS[q.sortBy])} ${q.sortDir === 'desc' ? sql`desc` : sql`asc`} nulls last, pp.id`
        : sql`pp.status desc, pp.name, pp.id`;
      const [{ rows: count }, { rows }] = await Promise.all([
        sql<{ n: string }>`select count(*)::text as n from (${PROFILE_SELECT} where ${where}) c`.execute(db),
        sql<ProfileRow>`${PROFILE_SELECT} where ${where} order by ${order} limit ${q.size} offset ${q.page * q.size}`.execute(db),
      ]);
      return pageAnswer(rows.map(profileView), Number(count[0].n), q.page, q.size);
    },
  );

  app.get(
    '/portal/sim-providers/profiles/:id',
    { config: ORDERS, schema: { tags, summary: 'One provider profile the caller sees', params: idParams(), response: { 200: profileSchema } } },
    async (request) => profileView(await visibleProfile(db, principalOf(request), (request.params as { id: number }).id)),
  );

  app.post(
    '/portal/sim-providers/profiles/request',
    {
      config: ORDERS,
      schema: {
        tags,
        summary: "A reseller's request for a provider profile (resellerId, else the caller's): pending until the administrator reviews it",
        body: profileRequestBody,
        response: { 201: profileSchema },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      resellerUser(principal);
      const body = request.body as {
        providerId: number;
        name: string;
        sponsorId: number;
        slotCount?: number;
        simType: string;
        imsiPrefix: string;
        resellerId?: number;
        comment?: string;
      };
      const resellerId = await resellerInSubtree(db, principal, body.resellerId ?? principal.resellerId);
      const provider = await db.selectFrom('simProvider').select(['id', 'simTypes']).where('id', '=', body.providerId).executeTakeFirst();
      if (!provider) throw invalid([fieldError('providerId', 'reference', 'order.provider.unknown')]);
      if (!provider.simTypes.includes(body.simType)) throw invalid([fieldError('simType', 'provider', 'order.provider.simType')]);
      const sponsor = await db.selectFrom('sponsor').select(['id', 'imsiPrefix']).where('id', '=', body.sponsorId).executeTakeFirst();
      if (!sponsor) throw invalid([fieldError('sponsorId', 'reference', 'order.sponsor.unknown')]);
      const { id } = await db
        .insertInto('providerProfile')
        .values({
          providerId: body.providerId,
          name: body.name.trim(),
          sponsorId: body.sponsorId,
          slotCount: body.slotCount ?? 1,
          simType: body.simType,
          imsiPrefix: body.imsiPrefix,
          resellerId,
          status: 'pending',
          comment: body.comment ?? null,
          requestedBy: principal.userId,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return reply.status(201).send(profileView(await visibleProfile(db, principal, id)));
    },
  );

  app.post(
    '/portal/sim-providers/profiles/:id/review',
    {
      config: { adminOnly: true },
      schema: {
        tags,
        summary: 'The administrator approves or denies a pending profile request (a denial needs a reason)',
        params: idParams(),
        body: reviewBody,
        response: { 200: profileSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { id } = request.params as { id: number };
      const body = request.body as { approved: boolean; reason?: string };
      await recordProfileReview(db, principal, id, body.approved, body.reason);
      return profileView(await visibleProfile(db, principal, id));
    },
  );
}
