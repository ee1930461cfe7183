/**
 * Webhooks of resellers: a URL per event type, the signing secret, test events and the delivery log. The outbox is
 * filled by database triggers (migration 0131) and by the test call; the worker (worker.ts) delivers it. Every call
 * needs the Resellers privilege and names a reseller of the caller's subtree (its own by default); an account user
 * never reaches them.
 */
import { sql, type Kysely } from 'kysely';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/types';
import { conflict, fieldError, forbidden, invalid, notFound } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { idParams, idSchema, pageNumberSchema, pageSizeSchema } from '../../http/input';
import { domainPlugin } from '../plugin';
import { resellerInSubtree } from '../resellers/subtree';
import { resolveTarget, TargetError } from './address';
import { newSecret, secretOf, WebhookWorker } from './worker';

declare module 'fastify' {
  interface FastifyInstance {
    /** Delivers the webhook outbox (see worker.ts). */
    webhooks: WebhookWorker;
  }
}

export const WEBHOOK_EVENT_TYPES = ['MOBILE_EVENT', 'ESIM_STATUS', 'LOCATION_UPDATE', 'VOIP', 'SUBSCRIPTION_STATUS_UPDATE', 'PAYMENT'] as const;
type EventType = (typeof WEBHOOK_EVENT_TYPES)[number];

const tags = ['resellers'];
const config = { privilege: 'Resellers' };
const resellerIdSchema = { ...idSchema({ min: -1 }), description: "The reseller (default: the caller's own)" };
const eventTypeSchema = { type: 'string', enum: [...WEBHOOK_EVENT_TYPES], errorMessage: 'webhook.eventType.invalid' };
const urlSchema = { type: 'string', minLength: 1, maxLength: 2048, errorMessage: 'validation.url.https' };

const urlsSchema = {
  type: 'object',
  required: ['resellerId', 'hasSecret', 'items'],
  properties: {
    resellerId: { type: 'integer' },
    hasSecret: { type: 'boolean', description: 'Whether the reseller has a signing secret' },
    items: {
      type: 'array',
      description: 'Every event type, with its URL or null',
      items: {
        type: 'object',
        required: ['eventType', 'url'],
        properties: {
          eventType: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] },
          url: { type: 'string', nullable: true },
          updatedAt: { type: 'string', format: 'date-time', nullable: true },
        },
      },
    },
  },
};

const attemptSchema = {
  type: 'object',
  required: ['attemptedAt', 'latencyMs'],
  properties: {
    attemptedAt: { type: 'string', format: 'date-time' },
    statusCode: { type: 'integer', nullable: true },
    error: { type: 'string', nullable: true },
    latencyMs: { type: 'integer' },
  },
};

const deliverySchema = {
  type: 'object',
  required: ['id', 'eventId', 'resellerId', 'eventType', 'url', 'status', 'attempts', 'createdAt'],
  properties: {
    id: { type: 'integer' },
    eventId: { type: 'string' },
    resellerId: { type: 'integer' },
    eventType: { type: 'string' },
    url: { type: 'string' },
    status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    attempts: { type: 'integer' },
    lastStatusCode: { type: 'integer', nullable: true },
    lastError: { type: 'string', nullable: true },
    lastLatencyMs: { type: 'integer', nullable: true },
    createdAt: { type: 'string', format: 'date-time' },
    nextAttemptAt: { type: 'string', format: 'date-time', nullable: true, description: 'When a pending delivery is tried next' },
    finishedAt: { type: 'string', format: 'date-time', nullable: true },
    attemptLog: { type: 'array', items: attemptSchema, description: 'Every attempt, oldest first' },
  },
};

/** The reseller a call names (the caller's own by default) if it is in the caller's subtree, else 404. */
async function targetReseller(db: Kysely<Database>, request: FastifyRequest, resellerId: number | undefined): Promise<number> {
  const principal = principalOf(request);
  if (principal.accountId !== null && !principal.isAdmin) throw forbidden();
  return resellerInSubtree(db, principal, resellerId ?? principal.resellerId);
}

async function urlsOf(db: Kysely<Database>, resellerId: number) {
  const rows = await db.selectFrom('webhookEndpoint').select(['eventType', 'url', 'updatedAt']).where('resellerId', '=', resellerId).execute();
  const secret = await db.selectFrom('webhookSecret').select('resellerId').where('resellerId', '=', resellerId).executeTakeFirst();
  return {
    resellerId,
    hasSecret: secret !== undefined,
    items: WEBHOOK_EVENT_TYPES.map((eventType) => {
      const row = rows.find((r) => r.eventType === eventType);
      return { eventType, url: row?.url ?? null, updatedAt: row?.updatedAt ?? null };
    }),
  };
}

const DELIVERY_COLUMNS = [
  'id',
  'eventId',
  'resellerId',
  'eventType',
  'url',
  'status',
  'attempts',
  'lastStatusCode',
  'lastError',
  'lastLatencyMs',
  'createdAt',
  'nextAttemptAt',
  'finishedAt',
] as const;

export default domainPlugin('webhooks', async (app, { database, app: options }) => {
  const { db } = database;
  const worker = new WebhookWorker(db, app.log, options.webhooks);
  app.decorate('webhooks', worker);
  app.addHook('onReady', async () => worker.start());
  app.addHook('onClose', async () => worker.stop());

  const resellerQuery = (more: Record<string, object> = {}, required: string[] = []) => ({
    type: 'object',
    properties: { reseller_id: resellerIdSchema, ...more },
    required,
    additionalProperties: false,
    errorMessage: { additionalProperties: 'validation.unknownField' },
  });
  type Query = { reseller_id?: number; event_type?: EventType; page?: number; size?: number };

  app.get(
    '/portal/reseller-info/webhook-urls',
    { config, schema: { tags, summary: "A reseller's webhook URL per event type", querystring: resellerQuery(), response: { 200: urlsSchema } } },
    async (request) => urlsOf(db, await targetReseller(db, request, (request.query as Query).reseller_id)),
  );

  app.post(
    '/portal/reseller-info/webhook-urls',
    {
      config,
      schema: {
        tags,
        summary: "Sets a reseller's webhook URL for an event type (HTTPS, public addresses only), replacing the one it had",
        body: {
          type: 'object',
          required: ['eventType', 'url'],
          properties: { resellerId: resellerIdSchema, eventType: eventTypeSchema, url: urlSchema },
          additionalProperties: false,
          errorMessage: { required: { eventType: 'validation.required', url: 'validation.required' }, additionalProperties: 'validation.unknownField' },
        },
        response: { 200: urlsSchema },
      },
    },
    async (request) => {
      const body = request.body as { resellerId?: number; eventType: EventType; url: string };
      const resellerId = await targetReseller(db, request, body.resellerId);
      const url = body.url.trim();
      try {
        await resolveTarget(url, worker.privateAllowed);
      } catch (e) {
        if (!(e instanceof TargetError)) throw e;
        throw invalid([fieldError('url', e.rule, e.rule === 'https' ? 'validation.url.https' : `webhook.url.${e.rule}`)]);
      }
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('webhookEndpoint')
          .values({ resellerId, eventType: body.eventType, url })
          .onConflict((oc) => oc.columns(['resellerId', 'eventType']).doUpdateSet({ url, updatedAt: sql`now()` }))
          .execute();
        await secretOf(trx, resellerId);
      });
      return urlsOf(db, resellerId);
    },
  );

  app.delete(
    '/portal/reseller-info/webhook-urls',
    {
      config,
      schema: {
        tags,
        summary: "Removes a reseller's webhook URL for an event type",
        querystring: resellerQuery({ event_type: eventTypeSchema }, ['event_type']),
        response: { 200: urlsSchema },
      },
    },
    async (request) => {
      const q = request.query as Query;
      const resellerId = await targetReseller(db, request, q.reseller_id);
      await db.deleteFrom('webhookEndpoint').where('resellerId', '=', resellerId).where('eventType', '=', q.event_type!).execute();
      return urlsOf(db, resellerId);
    },
  );

  app.post(
    '/portal/reseller-info/webhook-secret',
    {
      config,
      schema: {
        tags,
        summary: "Replaces a reseller's signing secret and shows the new one, this once",
        querystring: resellerQuery(),
        response: { 200: { type: 'object', required: ['resellerId', 'secret'], properties: { resellerId: { type: 'integer' }, secret: { type: 'string' } } } },
      },
    },
    async (request) => {
      const resellerId = await targetReseller(db, request, (request.query as Query).reseller_id);
      const secret = newSecret();
      await db
        .insertInto('webhookSecret')
        .values({ resellerId, secret })
        .onConflict((oc) => oc.column('resellerId').doUpdateSet({ secret, createdAt: sql`now()` }))
        .execute();
      return { resellerId, secret };
    },
  );

  app.post(
    '/portal/reseller-info/webhook-urls/test',
    {
      config,
      schema: {
        tags,
        summary: "Sends a TEST event to a reseller's webhook URL of an event type",
        querystring: resellerQuery({ event_type: eventTypeSchema }, ['event_type']),
        response: { 202: deliverySchema },
      },
    },
    async (request, reply) => {
      const q = request.query as Query;
      const resellerId = await targetReseller(db, request, q.reseller_id);
      const endpoint = await db
        .selectFrom('webhookEndpoint')
        .select('url')
        .where('resellerId', '=', resellerId)
        .where('eventType', '=', q.event_type!)
        .executeTakeFirst();
      if (!endpoint) throw conflict([fieldError('event_type', 'missing', 'webhook.url.missing')]);
      const { id } = await db
        .insertInto('webhookDelivery')
        .values({ resellerId, eventType: 'TEST', url: endpoint.url, data: JSON.stringify({ eventType: q.event_type, message: 'Test event from the portal' }) })
        .returning('id')
        .executeTakeFirstOrThrow();
      worker.poke();
      reply.code(202);
      return (await deliveries(db, { id: Number(id) }))[0];
    },
  );

  app.get(
    '/portal/reseller-info/webhook-deliveries',
    {
      config,
      schema: {
        tags,
        summary: "A reseller's webhook deliveries, newest first, with their attempts",
        querystring: resellerQuery({
          page: { ...pageNumberSchema(), default: 0 },
          size: { ...pageSizeSchema(100), default: 20 },
        }),
        response: {
          200: {
            type: 'object',
            required: ['items', 'total', 'page', 'size'],
            properties: { items: { type: 'array', items: deliverySchema }, total: { type: 'integer' }, page: { type: 'integer' }, size: { type: 'integer' } },
          },
        },
      },
    },
    async (request) => {
      const q = request.query as Query & { page: number; size: number };
      const resellerId = await targetReseller(db, request, q.reseller_id);
      const { total } = await db
        .selectFrom('webhookDelivery')
        .select((eb) => eb.fn.countAll<string>().as('total'))
        .where('resellerId', '=', resellerId)
        .executeTakeFirstOrThrow();
      return { items: await deliveries(db, { resellerId, page: q.page, size: q.size }), total: Number(total), page: q.page, size: q.size };
    },
  );

  app.post(
    '/portal/reseller-info/webhook-deliveries/:id/redeliver',
    {
      config,
      schema: { tags, summary: 'Queues a webhook delivery again, to the URL its reseller has now', params: idParams('id'), response: { 202: deliverySchema } },
    },
    async (request, reply) => {
      const id = (request.params as { id: number }).id;
      const row = await db.selectFrom('webhookDelivery').select(['resellerId', 'eventType', 'data']).where('id', '=', id).executeTakeFirst();
      if (!row) throw notFound();
      await targetReseller(db, request, row.resellerId);
      // A test event goes to the URL of the type it tested; any event to the URL its reseller has now, if any.
      const data = (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as { eventType?: string };
      const eventType = row.eventType === 'TEST' ? (data.eventType ?? '') : row.eventType;
      const current = await db
        .selectFrom('webhookEndpoint')
        .select('url')
        .where('resellerId', '=', row.resellerId)
        .where('eventType', '=', eventType)
        .executeTakeFirst();
      const updated = await db
        .updateTable('webhookDelivery')
        .set({ status: 'pending', attempts: 0, nextAttemptAt: sql`now()`, finishedAt: null, ...(current ? { url: current.url } : {}) })
        .where('id', '=', id)
        .where('status', '<>', 'pending')
        .returning('id')
        .executeTakeFirst();
      if (!updated) throw conflict([fieldError('id', 'pending', 'webhook.delivery.pending')]);
      worker.poke();
      reply.code(202);
      return (await deliveries(db, { id }))[0];
    },
  );
});

/** Deliveries (one by id, or a reseller's page, newest first) with their attempts. */
async function deliveries(db: Kysely<Database>, by: { id: number } | { resellerId: number; page: number; size: number }) {
  let q = db.selectFrom('webhookDelivery').select(DELIVERY_COLUMNS).orderBy('id', 'desc');
  q =
    'id' in by
      ? q.where('id', '=', by.id)
      : q
          .where('resellerId', '=', by.resellerId)
          .limit(by.size)
          .offset(by.page * by.size);
  const rows = await q.execute();
  const attempts = rows.length
    ? await db
        .selectFrom('webhookAttempt')
        .select(['deliveryId', 'attemptedAt', 'statusCode', 'error', 'latencyMs'])
        .where(
          'deliveryId',
          'in',
          rows.map((r) => r.id),
        )
        .orderBy('id')
        .execute()
    : [];
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    nextAttemptAt: r.status === 'pending' ? r.nextAttemptAt : null,
    attemptLog: attempts.filter((a) => a.deliveryId === r.id).map(({ deliveryId: _, ...a }) => a),
  }));
}
