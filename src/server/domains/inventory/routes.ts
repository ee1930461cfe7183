/**
 * Inventory calls: the administrator adds batches of SIM cards to a reseller's inventory; resellers read their
 * ranges (a batch each, with its counts and the stock's rate of use), list and download their cards, and assign a
 * range of cards to an account.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { inventorySimSchema, LOW_STOCK_DAYS, MAX_ASSIGN_RANGE, RATE_WINDOW_DAYS, type InventoryRange, type InventoryStock } from '@shared/inventory';
import { ListRequestError, normaliseListRequest } from '@shared/schema';
import type { ListRequest } from '@shared/wire';
import type { Engine } from '../../db';
import type { Database } from '../../db/types';
import { queryBatches, sendCsv } from '../../engine/csv';
import { EntityRepository } from '../../engine/repository';
import { entityPageSchema, pageReply } from '../../engine/routes';
import { fieldError, invalid, notFound } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { idSchema, INT_MIN, listRequestSchema, objectBody, queryId } from '../../http/input';
import type { Principal } from '../../http/principal';
import { subtreePattern } from '../../http/tenancy';
import { assignRange } from './assign';
import { addSimBatch, MAX_BATCH_QUANTITY } from './batches';
import { assignResultSchema, rangesSchema, simBatchSchema } from './schemas';

const tags = ['inventory'];

/** Resellers the caller sees, as a condition on `reseller r`. */
function visibleResellers(principal: Principal) {
  if (principal.isAdmin) return sql<boolean>`true`;
  return principal.accountId !== null ? sql<boolean>`r.id = ${principal.resellerId}` : sql<boolean>`r.path like ${subtreePattern(principal)}`;
}

/** The ranges' stock per reseller, from the subscribers created from each reseller's batches in the last window. */
export function stockOf(ranges: InventoryRange[], perDayByReseller: Map<number, number>): InventoryStock[] {
  const byReseller = new Map<number, InventoryRange[]>();
  for (const r of ranges) byReseller.set(r.resellerId, [...(byReseller.get(r.resellerId) ?? []), r]);
  return [...byReseller.values()].map((own) => {
    const available = own.reduce((sum, r) => sum + r.available, 0);
    const perDay = perDayByReseller.get(own[0].resellerId) ?? 0;
    const next = [...own].sort((a, b) => (a.rangeStart < b.rangeStart ? -1 : 1)).find((r) => r.available > 0) ?? null;
    const days = (n: number) => (perDay > 0 ? Math.floor(n / perDay) : null);
    const daysLeft = days(available);
    return {
      resellerId: own[0].resellerId,
      resellerName: own[0].resellerName,
      available,
      perDay: Math.round(perDay * 100) / 100,
      daysLeft,
      nextRange: next?.name ?? null,
      nextRangeDaysLeft: next ? days(next.available) : null,
      low: daysLeft !== null && daysLeft < LOW_STOCK_DAYS,
    };
  });
}

export function registerInventoryRoutes(app: FastifyInstance, db: Kysely<Database>, engine: Engine) {
  const sims = new EntityRepository(db, inventorySimSchema);

  app.post(
    '/portal/inventory/batches/sim-cards',
    {
      config: { adminOnly: true },
      schema: {
        tags,
        summary: "Adds a batch of SIM cards with consecutive ICCIDs to a reseller's inventory (the provider's next free range without iccidStart)",
        body: objectBody(
          {
            resellerId: { ...idSchema({ min: INT_MIN }), errorMessage: 'validation.select.required' },
            name: { type: 'string', minLength: 1, maxLength: 60, errorMessage: 'validation.required' },
            iccidStart: { type: ['string', 'null'], pattern: '^[0-9]{19}$', maxLength: 19, errorMessage: 'inventory.iccidFormat' },
            quantity: { type: 'integer', minimum: 1, maximum: MAX_BATCH_QUANTITY, errorMessage: 'inventory.quantityRange' },
            simType: { type: 'string', enum: ['physical', 'esim'], maxLength: 20, errorMessage: 'validation.select.required' },
            profileType: { type: ['string', 'null'], maxLength: 50, errorMessage: 'validation.max50' },
            cost: { type: ['number', 'null'], minimum: 0, maximum: 99_999_999.99, multipleOf: 0.01, errorMessage: 'validation.amount.invalid' },
            serviceProviderName: { type: ['string', 'null'], maxLength: 100, errorMessage: 'validation.max100' },
            orderUuid: { type: ['string', 'null'], format: 'uuid', maxLength: 36, errorMessage: 'validation.invalid' },
          },
          ['resellerId', 'name', 'quantity', 'simType'],
          { resellerId: 'validation.select.required', quantity: 'inventory.quantityRange', simType: 'validation.select.required' },
        ),
        response: { 201: simBatchSchema },
      },
    },
    async (request, reply) => {
      const body = request.body as Parameters<typeof addSimBatch>[1];
      const principal = principalOf(request);
      const reseller = await db.selectFrom('reseller').select('id').where('id', '=', body.resellerId).executeTakeFirst();
      if (!reseller) throw invalid([fieldError('resellerId', 'exists', 'validation.select.required')]);
      const batch = await db.transaction().execute((trx) => addSimBatch(trx, { ...body, userId: principal.userId }));
      request.log.info({ batchId: batch.batchId, quantity: batch.quantity }, 'SIM batch added');
      return reply.code(201).send(batch);
    },
  );

  app.get(
    '/portal/inventory/ranges',
    {
      config: { privilege: ['Inventory', 'MoveSubscribers'] },
      schema: {
        tags,
        summary: "The caller's inventory ranges (a batch each) with allocated, available and total cards, and each reseller's stock and rate of use",
        querystring: { type: 'object', properties: { reseller_id: idSchema({ min: INT_MIN }) } },
        response: { 200: rangesSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const resellerId = queryId(request, 'reseller_id', { min: INT_MIN });
      const only = resellerId === undefined ? sql<boolean>`true` : sql<boolean>`b.reseller_id = ${resellerId}`;
      const ranges = (
        await sql<InventoryRange>`select b.id as batch_id, b.name, b.reseller_id, r.name as reseller_name, b.sim_type,
          b.iccid_start as range_start, b.iccid_end as range_end, count(c.iccid)::int as total,
          count(c.iccid) filter (where c.status <> 'inventory')::int as allocated,
          count(c.iccid) filter (where c.status = 'inventory')::int as available, min(c.iccid) filter (where c.status = 'inventory') as first_available, b.service_provider_name, b.created_at
          from sim_batch b join reseller r on r.id = b.reseller_id left join sim_card c on c.batch_id = b.id
          where ${visibleResellers(principal)} and ${only}
          group by b.id, r.name order by r.name, b.iccid_start`.execute(db)
      ).rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt).toISOString() }));
      const rates = await sql<{ resellerId: number; n: number }>`select b.reseller_id, count(*)::int as n
        from subscriber s join sim_card c on c.iccid = s.iccid join sim_batch b on b.id = c.batch_id join reseller r on r.id = b.reseller_id
        where s.created_at > now() - make_interval(days => ${RATE_WINDOW_DAYS}) and ${visibleResellers(principal)} and ${only}
        group by b.reseller_id`.execute(db);
      const perDay = new Map(rates.rows.map((r) => [r.resellerId, r.n / RATE_WINDOW_DAYS]));
      return { ranges, stock: stockOf(ranges, perDay) };
    },
  );

  const listRequest = (request: FastifyRequest) => {
    // Pages by number only: the key is text, so keyset paging (`page.after`) is not offered.
    const body = (request.body ?? {}) as ListRequest;
    if (body.page && typeof body.page === 'object' && (body.page as { after?: unknown }).after !== undefined)
      throw invalid([fieldError('page.after', 'unsupported', 'validation.page.after')]);
    try {
      return normaliseListRequest(inventorySimSchema, (request.body ?? {}) as ListRequest, principalOf(request).isAdmin);
    } catch (e) {
      if (e instanceof ListRequestError) throw invalid([fieldError(e.field, e.rule, e.messageId)]);
      throw e;
    }
  };
  const simQuery = { type: 'object', properties: { batch_id: idSchema() } };
  const visibility = (request: FastifyRequest) => {
    const batchId = queryId(request, 'batch_id');
    return { principal: principalOf(request), ...(batchId === undefined ? {} : { where: { batchId } }) };
  };

  app.post(
    '/portal/inventory/sim-cards',
    {
      config: { privilege: 'Inventory' },
      schema: {
        tags,
        summary: "A page of the caller's SIM cards (of one batch with batch_id), sorted and searched like every list",
        querystring: simQuery,
        body: listRequestSchema(inventorySimSchema['x-list'].search.map((s) => s.by)),
        response: { 200: entityPageSchema(inventorySimSchema) },
      },
    },
    async (request, reply) => pageReply(reply, await sims.pageBody(listRequest(request), visibility(request))),
  );

  app.post(
    '/portal/inventory/sim-cards/download',
    {
      config: { privilege: 'Inventory' },
      schema: { tags, summary: 'The whole SIM card search as CSV (streamed)', querystring: simQuery, body: listRequestSchema(), produces: ['text/csv'] },
    },
    async (request, reply) => {
      const req = listRequest(request);
      const fields = sims.exportFields();
      const day = new Date().toISOString().slice(0, 10);
      return sendCsv(reply, `sim-cards-${day}.csv`, fields, queryBatches(db, engine, sims.exportQuery(req, visibility(request))), (row) =>
        fields.map((f) => row[f]),
      );
    },
  );

  app.post(
    '/portal/inventory/assign',
    {
      config: { privilege: 'MoveSubscribers' },
      schema: {
        tags,
        summary: `Assigns a range of inventory SIM cards (at most ${MAX_ASSIGN_RANGE}) to an account: a subscriber each, in one transaction`,
        body: objectBody(
          {
            accountId: { ...idSchema(), errorMessage: 'validation.select.required' },
            iccidStart: { type: 'string', pattern: '^[0-9]{18,22}$', maxLength: 22, errorMessage: 'validation.iccid.invalid' },
            iccidEnd: { type: 'string', pattern: '^[0-9]{18,22}$', maxLength: 22, errorMessage: 'validation.iccid.invalid' },
            quantity: { type: 'integer', minimum: 1, maximum: MAX_ASSIGN_RANGE, errorMessage: 'inventory.assign.quantityMismatch' },
          },
          ['accountId', 'iccidStart', 'iccidEnd', 'quantity'],
          {
            accountId: 'validation.select.required',
            iccidStart: 'validation.iccid.invalid',
            iccidEnd: 'validation.iccid.invalid',
            quantity: 'validation.required',
          },
        ),
        response: { 200: assignResultSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const result = await db.transaction().execute((trx) => assignRange(trx, principal, request.body as Parameters<typeof assignRange>[2]));
      if (!result) throw notFound();
      request.log.info({ accountId: result.accountId, assigned: result.assigned }, 'SIM range assigned from inventory');
      return result;
    },
  );
}
