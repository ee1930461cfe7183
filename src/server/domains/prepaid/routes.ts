/**
 * Prepaid packages: a subscriber's packages, assigning (free) and purchasing (debited from the subscriber's
 * reseller through the ledger) a package from a template, expiring one, and the sales history with its CSV
 * download. Templates themselves are an entity of schemas/; this adds the calls a generic entity has not.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { ListRequestError, normaliseListRequest } from '@shared/schema';
import { packageSchema, type PackageSaleRequest, type SaleKind } from '@shared/prepaid';
import type { ListRequest } from '@shared/wire';
import type { Engine } from '../../db';
import { queryBatches, sendCsv } from '../../engine/csv';
import { EntityRepository } from '../../engine/repository';
import { entityPageSchema, entityRowSchema, pageReply } from '../../engine/routes';
import { conflict, fieldError, forbidden, invalid, notFound } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { idSchema, INT_MIN, objectBody, pathId, queryId } from '../../http/input';
import { can, type Principal } from '../../http/principal';
import type { Database } from '../../db/types';
import { subtreePattern } from '../../http/tenancy';
import { expireDue, writeSale } from './sale';

type Body = Record<string, unknown>;

const BASE = '/portal/pre-paid-packages';
const tags = ['pre-paid-packages'];

/** The subscriber, if the caller may see it (their reseller subtree, their account), with its reseller's path. */
async function visibleSubscriber(db: Kysely<Database>, principal: Principal, id: number) {
  let q = db
    .selectFrom('subscriber as s')
    .innerJoin('reseller as r', 'r.id', 's.resellerId')
    .select(['s.subscriberId', 's.resellerId', 's.accountId', 'r.path'])
    .where('s.subscriberId', '=', id);
  if (!principal.isAdmin) {
    q = q.where('r.path', 'like', subtreePattern(principal));
    if (principal.accountId !== null) q = q.where('s.accountId', '=', principal.accountId);
  }
  const row = await q.executeTakeFirst();
  if (!row) throw notFound();
  return row as { subscriberId: number; resellerId: number; accountId: number; path: string };
}

/** Templates the caller sees; with `offeredTo`, only those of the subscriber's reseller or a reseller above it. */
function visibleTemplates(db: Kysely<Database>, principal: Principal, offeredTo?: string) {
  let q = db
    .selectFrom('prepaidTemplate as t')
    .innerJoin('reseller as tr', 'tr.id', 't.resellerId')
    .leftJoin('locationZone as lz', 'lz.id', 't.locationZoneId')
    .leftJoin('destinationZone as dz', 'dz.id', 't.destinationZoneId')
    .where('tr.path', 'like', subtreePattern(principal));
  if (offeredTo !== undefined) q = q.where(sql<string>`${offeredTo}`, 'like', sql<string>`tr.path || '%'`);
  return q;
}

const TEMPLATE_LIST_FIELDS = [
  't.id',
  't.name',
  't.resellerId',
  'tr.name as resellerName',
  't.priority',
  't.locationZoneId',
  'lz.name as locationZoneName',
  't.destinationZoneId',
  'dz.name as destinationZoneName',
  't.periodDays',
  't.price',
  't.dataMb',
  't.unlimitedData',
] as const;

const withoutNulls = (row: Body): Body => Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null));

/** Bodies of named ids (each a choice of the screen: "please choose" when missing or wrong), flags, nothing else. */
const choice = { ...idSchema({}, 'type'), errorMessage: 'validation.select.required' };
const SALE_BODY = {
  body: objectBody({ subscriberId: choice, templateId: choice, activateUponFirstUse: { type: ['boolean', 'null'] } }, ['subscriberId', 'templateId'], {
    subscriberId: 'validation.select.required',
    templateId: 'validation.select.required',
  }),
};
/** A package as the sale, expiry and list calls answer it: a row of the package schema. */
const packageRow = entityRowSchema(packageSchema);
/** A template as the template list answers it; an empty field (a template without a destination zone) is left out. */
const templateRow = {
  type: 'object',
  required: ['id', 'name', 'resellerId', 'resellerName', 'priority', 'locationZoneId', 'periodDays', 'price', 'unlimitedData'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    resellerId: { type: 'integer' },
    resellerName: { type: 'string' },
    priority: { type: 'integer' },
    locationZoneId: { type: 'integer' },
    locationZoneName: { type: 'string' },
    destinationZoneId: { type: 'integer' },
    destinationZoneName: { type: 'string' },
    periodDays: { type: 'integer' },
    price: { type: 'number' },
    dataMb: { type: 'integer' },
    unlimitedData: { type: 'boolean' },
  },
};
const EXPIRE_BODY = { body: objectBody({ packageId: choice }, ['packageId'], { packageId: 'validation.select.required' }) };

export function registerPrepaidRoutes(app: FastifyInstance, db: Kysely<Database>, engine: Engine) {
  const packages = new EntityRepository(db, packageSchema);
  const sellers = { privilege: 'PrePaidPackages' };

  /** The sales screen needs the Sales sub-privilege of PrePaidPackages; the administrator holds it. */
  const salesCaller = (request: FastifyRequest) => {
    const principal = principalOf(request);
    if (!principal.isAdmin && !can(principal, 'PrePaidPackages', 'Sales')) throw forbidden();
    return principal;
  };

  const listRequest = (request: FastifyRequest) => {
    try {
      return normaliseListRequest(packageSchema, (request.body ?? {}) as ListRequest, principalOf(request).isAdmin);
    } catch (e) {
      if (e instanceof ListRequestError) throw invalid([fieldError(e.field, e.rule, e.messageId)]);
      throw e;
    }
  };

  app.get(
    `${BASE}/templates`,
    {
      config: { privilege: ['PrePaidTemplates', 'PrePaidPackages'] },
      schema: {
        tags,
        summary: "Templates the caller may use: a reseller's (reseller_id), those offered to a subscriber (subscriber_id), or all",
        querystring: { type: 'object', properties: { reseller_id: idSchema({ min: INT_MIN }), subscriber_id: idSchema() } },
        response: { 200: { type: 'array', items: templateRow } },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const resellerId = queryId(request, 'reseller_id', { min: INT_MIN });
      const subscriberId = queryId(request, 'subscriber_id');
      let q;
      if (subscriberId !== undefined) {
        const subscriber = await visibleSubscriber(db, principal, subscriberId);
        q = visibleTemplates(db, principal, subscriber.path);
      } else {
        q = visibleTemplates(db, principal);
        if (resellerId !== undefined) {
          const reseller = await db
            .selectFrom('reseller')
            .select('id')
            .where('id', '=', resellerId)
            .where('path', 'like', subtreePattern(principal))
            .executeTakeFirst();
          if (!reseller) throw notFound();
          q = q.where('t.resellerId', '=', resellerId);
        }
      }
      const rows = await q
        .select([...TEMPLATE_LIST_FIELDS])
        .orderBy('t.priority', 'desc')
        .orderBy('t.name')
        .execute();
      return rows.map((r) => withoutNulls({ ...r, price: Number(r.price) }));
    },
  );

  app.get(
    `${BASE}/location-zones/:id/countries`,
    {
      config: { privilege: ['PrePaidTemplates', 'PrePaidPackages'] },
      schema: { tags, summary: 'The countries of a location zone the caller sees' },
    },
    async (request) => {
      const principal = principalOf(request);
      const id = pathId(request, 'id');
      const zone = await db
        .selectFrom('locationZone as z')
        .innerJoin('reseller as r', 'r.id', 'z.resellerId')
        .select(['z.id', 'z.name', 'z.countries'])
        .where('z.id', '=', id)
        .where('r.path', 'like', subtreePattern(principal))
        .executeTakeFirst();
      if (!zone) throw notFound();
      return { locationZoneId: zone.id, name: zone.name, countries: JSON.parse(String(zone.countries)) as string[] };
    },
  );

  app.get(
    `${BASE}/list/:subscriberId`,
    {
      config: sellers,
      schema: {
        tags,
        summary: "A subscriber's packages, newest first; expired ones only with show_expired=true",
        querystring: { type: 'object', properties: { show_expired: { type: 'boolean', default: false } } },
        response: {
          200: { type: 'object', required: ['subscriberPackages'], properties: { subscriberPackages: { type: 'array', items: packageRow } } },
        },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const subscriber = await visibleSubscriber(db, principal, pathId(request, 'subscriberId'));
      const showExpired = (request.query as { show_expired: boolean }).show_expired;
      await expireDue(db);
      const page = await packages.page(
        { sortBy: 'id', sortDir: 'desc', searchBy: { by: 'subscriberId' }, searchKey: String(subscriber.subscriberId), page: 0, size: 500 },
        { principal },
      );
      return { subscriberPackages: page.items.filter((p) => showExpired || p.status !== 'expired') };
    },
  );

  async function sell(request: FastifyRequest, kind: SaleKind) {
    const principal = principalOf(request);
    const body = request.body as PackageSaleRequest;
    const id = await db.transaction().execute(async (trx) => {
      const subscriber = await visibleSubscriber(trx, principal, body.subscriberId);
      const template = await trx
        .selectFrom('prepaidTemplate as t')
        .innerJoin('reseller as tr', 'tr.id', 't.resellerId')
        .selectAll('t')
        .select('tr.path as resellerPath')
        .where('t.id', '=', body.templateId)
        .where('tr.path', 'like', subtreePattern(principal))
        .executeTakeFirst();
      if (!template) throw notFound();
      if (!subscriber.path.startsWith(String(template.resellerPath))) throw invalid([fieldError('templateId', 'offered', 'prepaid.template.notOffered')]);
      return writeSale(trx, {
        subscriber,
        template,
        kind,
        activateUponFirstUse: body.activateUponFirstUse,
        soldBy: principal.username,
        userId: principal.userId,
      });
    });
    return packages.get(id, { principal });
  }

  app.post(
    `${BASE}/assign`,
    { config: sellers, schema: { tags, ...SALE_BODY, summary: 'Gives a subscriber a package from a template, free of charge', response: { 201: packageRow } } },
    async (request, reply) => reply.status(201).send(await sell(request, 'assign')),
  );

  app.post(
    `${BASE}/purchase`,
    {
      config: sellers,
      schema: {
        tags,
        ...SALE_BODY,
        summary: "Sells a subscriber a package from a template, debited from the subscriber's reseller",
        response: { 201: packageRow },
      },
    },
    async (request, reply) => reply.status(201).send(await sell(request, 'purchase')),
  );

  app.post(
    `${BASE}/api/expire`,
    { config: sellers, schema: { tags, ...EXPIRE_BODY, summary: 'Ends a package now', response: { 200: packageRow } } },
    async (request) => {
      const principal = principalOf(request);
      const id = (request.body as { packageId: number }).packageId;
      await db.transaction().execute(async (trx) => {
        await expireDue(trx);
        const existing = await packages.get(id, { principal }, trx);
        if (!existing) throw notFound();
        if (existing.status === 'expired') throw conflict([fieldError('packageId', 'expired', 'prepaid.package.alreadyExpired')]);
        await trx
          .updateTable('prepaidPackage')
          .set({ status: 'expired', expirationDate: sql`now()` })
          .where('id', '=', id)
          .execute();
      });
      return packages.get(id, { principal });
    },
  );

  app.post(
    `${BASE}/sales`,
    {
      config: sellers,
      schema: { tags, summary: 'The sales history, paged, sorted and searched like every list', response: { 200: entityPageSchema(packageSchema) } },
    },
    async (request, reply) => {
      const principal = salesCaller(request);
      const req = listRequest(request);
      await expireDue(db);
      return pageReply(reply, await packages.pageBody(req, { principal }));
    },
  );

  app.post(
    `${BASE}/sales/download`,
    { config: sellers, schema: { tags, summary: 'The whole sales search as CSV (streamed)', produces: ['text/csv'] } },
    async (request, reply) => {
      const principal = salesCaller(request);
      const req = listRequest(request);
      await expireDue(db);
      const fields = packages.exportFields();
      const day = new Date().toISOString().slice(0, 10);
      return sendCsv(reply, `package-sales-${day}.csv`, fields, queryBatches(db, engine, packages.exportQuery(req, { principal })), (row) =>
        fields.map((f) => row[f]),
      );
    },
  );
}
