import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { FieldError } from '@shared/wire';
import { conflict, fieldError, invalid, notFound } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { idParams, idSchema, isId, objectBody } from '../../http/input';
import type { Principal } from '../../http/principal';
import { checkPoolNumber } from '../inventory/msisdn';
import { auditSubscriber, auditSubscribers } from './audit';
import { money, pathId, pgCode, requirePanel, scopeToCaller, visibleSubscriber, type Body, type Subscriber } from './context';
import { operationToWire, recordOperation, startNetworkOperation, type Actor, type NetworkOperation } from './network';
import type { Database } from '../../db/types';
import { plansOfCaller, subtreePattern } from '../../http/tenancy';
import { billingOperationSchema, msisdnsSchema, operationSchema, roamingProfileViewSchema, usablePlansSchema } from './schemas';

/** The operations of `POST /portal/subscriber-info/api/`, each with the detail panel (sub-privilege) it belongs to. */
export const SUBSCRIBER_OPERATIONS = {
  'charge-on-wallet': 'Services',
  'charge-on-account': 'Services',
  'pricing-plan': 'Services',
  credit: 'Services',
  suspend: 'Status',
  reactivate: 'Status',
  'refresh-sim': 'IccidSim',
  'modify-msisdn': 'Msisdn',
} as const;
type OperationName = keyof typeof SUBSCRIBER_OPERATIONS;

/** Fields each operation takes besides `operation` and `subscriberId`. */
const OPERATION_FIELDS: Record<OperationName, string[]> = {
  'charge-on-wallet': ['amount', 'description'],
  'charge-on-account': ['amount', 'description'],
  credit: ['amount', 'description'],
  'pricing-plan': ['pricingPlanId'],
  suspend: [],
  reactivate: [],
  'refresh-sim': [],
  'modify-msisdn': ['msisdn'],
};

const AMOUNT_LIMIT = 100000;
const MSISDN = /^[0-9]{8,15}$/;

/** A money amount as exact decimal text: more than 0, below 100000, at most 2 decimals. */
function amountOf(value: unknown, errors: FieldError[]): string {
  if (value === undefined || value === null || value === '') {
    errors.push(fieldError('amount', 'required', 'validation.amount.required'));
    return '';
  }
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^-?\d+(\.\d+)?$/.test(text)) errors.push(fieldError('amount', 'pattern', 'validation.amount.invalid'));
  else if (/\.\d{3,}$/.test(text)) errors.push(fieldError('amount', 'multipleOf', 'validation.amount.invalid'));
  else if (Number(text) <= 0) errors.push(fieldError('amount', 'exclusiveMinimum', 'validation.amount.range'));
  else if (Number(text) >= AMOUNT_LIMIT) errors.push(fieldError('amount', 'exclusiveMaximum', 'validation.amount.range'));
  return text;
}

/** Checks the body of `POST /portal/subscriber-info/api/` in full before anything is read or written. */
function checkOperationBody(body: Body): { operation: OperationName; subscriberId: number } {
  const errors: FieldError[] = [];
  const operation = body.operation as OperationName;
  const known = typeof operation === 'string' && Object.hasOwn(SUBSCRIBER_OPERATIONS, operation);
  if (!known) errors.push(fieldError('operation', body.operation === undefined ? 'required' : 'enum', 'validation.operation.invalid'));
  if (body.subscriberId === undefined) errors.push(fieldError('subscriberId', 'required', 'validation.subscriberId.required'));
  else if (!isId(body.subscriberId)) errors.push(fieldError('subscriberId', 'type', 'validation.subscriberId.required'));
  if (known) {
    const allowed = new Set(['operation', 'subscriberId', ...OPERATION_FIELDS[operation]]);
    for (const key of Object.keys(body)) if (!allowed.has(key)) errors.push(fieldError(key, 'additionalProperties', 'validation.unknownField'));
    if (OPERATION_FIELDS[operation].includes('amount')) amountOf(body.amount, errors);
    if (body.description !== undefined && (typeof body.description !== 'string' || body.description.length > 250)) {
      errors.push(fieldError('description', 'maxLength', 'validation.max250'));
    }
    if (operation === 'pricing-plan' && !isId(body.pricingPlanId)) {
      errors.push(fieldError('pricingPlanId', body.pricingPlanId === undefined ? 'required' : 'type', 'validation.pricingPlan.required'));
    }
    if (operation === 'modify-msisdn') {
      if (body.msisdn === undefined || body.msisdn === '') errors.push(fieldError('msisdn', 'required', 'validation.msisdn.required'));
      else if (typeof body.msisdn !== 'string' || !MSISDN.test(body.msisdn)) errors.push(fieldError('msisdn', 'pattern', 'validation.msisdn.invalid'));
    }
  }
  if (errors.length) throw invalid(errors);
  return { operation, subscriberId: body.subscriberId as number };
}

/**
 * Changes columns of one subscriber and writes the audit entry (before and after) in the caller's transaction.
 * Values read back as text (bigint) or dates are compared as the caller sends them.
 */
export async function changeSubscriber(trx: Kysely<Database>, subscriberId: number, actor: Actor, action: string, values: Record<string, unknown>) {
  await changeSubscribers(trx, [subscriberId], actor, action, values);
}

/** The same change of many subscribers (at most a few thousand) in one update, each with its audit entry. */
export async function changeSubscribers(
  trx: Kysely<Database>,
  subscriberIds: readonly number[],
  actor: Actor,
  action: string,
  values: Record<string, unknown>,
) {
  const rows = (await trx
    .selectFrom('subscriber')
    .select(['subscriberId', ...Object.keys(values)] as never[])
    .where('subscriberId', 'in', subscriberIds)
    .orderBy('subscriberId')
    .forUpdate()
    .execute()) as Record<string, unknown>[];
  if (rows.length < new Set(subscriberIds).size) throw new Error('subscriber not found');
  const changes = rows.map(({ subscriberId, ...row }) => {
    const before: Record<string, unknown> = {};
    for (const [key, was] of Object.entries(row)) {
      before[key] = typeof values[key] === 'number' && typeof was === 'string' ? Number(was) : was instanceof Date ? was.toISOString() : was;
    }
    return { subscriberId: Number(subscriberId), before, after: values };
  });
  await trx.updateTable('subscriber').set(values).where('subscriberId', 'in', subscriberIds).execute();
  await auditSubscribers(trx, actor, action, changes);
}

const pendingImsis = (db: Kysely<Database>, subscriberId: number) =>
  db
    .selectFrom('sponsorImsi')
    .select('imsi')
    .where('subscriberId', '=', subscriberId)
    .where('pending', '=', true)
    .orderBy('imsi')
    .execute()
    .then((rows) => rows.map((r) => r.imsi as string));

/**
 * Subscriber operations: billing (charges, credit, pricing plan) completes at once; everything the network
 * must carry out (status, SIM refresh, MSISDN, cancel location, HSS profile, allowed networks, pending IMSIs)
 * is recorded as pending and applied when the core network confirms it.
 */
/**
 * The local plans a subscriber may be put on by the caller: plans of the subscriber's reseller or of a reseller above
 * it (plans flow down the tree), that the caller itself sees (its subtree). An account user picks no prices of its
 * own: only the plan its account is on. The change dialog offers exactly these, and the operation accepts nothing else.
 */
export function usablePlans(db: Kysely<Database>, principal: Principal, sub: Pick<Subscriber, 'resellerPath'>) {
  const q = db
    .selectFrom('pricingPlan as p')
    .innerJoin('reseller as pr', 'pr.id', 'p.resellerId')
    .select(['p.id as pricingPlanId', 'p.name as pricingPlanName'])
    .where(sql<string>`${sub.resellerPath}`, 'like', sql<string>`pr.path || '%'`);
  return plansOfCaller(db, principal, q, 'p', 'pr');
}

export function registerSubscriberOperationRoutes(app: FastifyInstance, db: Kysely<Database>) {
  const config = { privilege: 'Subscribers' };
  const tags = ['subscribers'];
  const network = (principal: Principal, subscriber: Subscriber, op: NetworkOperation) => startNetworkOperation(app, db, principal, subscriber, op);

  /** A billing operation: the change, the charge row, the audit entry and the operation record in one transaction. */
  async function billing(principal: Principal, operation: OperationName, subscriberId: number, body: Body) {
    return db.transaction().execute(async (trx) => {
      const sub = await visibleSubscriber(trx, principal, subscriberId, true);
      const amount = typeof body.amount === 'number' ? String(body.amount) : String(body.amount ?? '').trim();
      const description = (body.description as string | undefined) ?? null;
      const charge = (kind: string) =>
        trx
          .insertInto('subscriberCharge')
          .values({ subscriberId, kind, amount, description, accountId: sub.accountId, username: principal.username })
          .execute();
      if (operation === 'pricing-plan') {
        const plan = await usablePlans(trx, principal, sub)
          .where('p.id', '=', body.pricingPlanId as number)
          .executeTakeFirst();
        if (!plan) throw invalid([fieldError('pricingPlanId', 'reference', 'validation.pricingPlan.unknown')]);
        await changeSubscriber(trx, subscriberId, principal, operation, { pricingPlanId: plan.pricingPlanId });
      } else if (operation === 'credit') {
        if (sub.pricingPlanId === null) throw invalid([fieldError('pricingPlanId', 'planBeforeCredit', 'validation.credit.planRequired')]);
        const { balance } = await trx
          .updateTable('subscriber')
          .set({ balance: sql`balance + cast(${amount} as numeric)` })
          .where('subscriberId', '=', subscriberId)
          .returning('balance')
          .executeTakeFirstOrThrow();
        await auditSubscriber(trx, principal, subscriberId, operation, { balance: money(sub.balance) }, { balance: money(balance) });
        await charge('credit');
      } else if (operation === 'charge-on-wallet') {
        const updated = await trx
          .updateTable('subscriber')
          .set({ balance: sql`balance - cast(${amount} as numeric)` })
          .where('subscriberId', '=', subscriberId)
          .where('balance', '>=', sql<string>`cast(${amount} as numeric)`)
          .returning('balance')
          .executeTakeFirst();
        if (!updated) throw invalid([fieldError('amount', 'balance', 'validation.balance.insufficient')]);
        await auditSubscriber(trx, principal, subscriberId, operation, { balance: money(sub.balance) }, { balance: money(updated.balance) });
        await charge('wallet');
      } else {
        // Billed to the subscriber's account: the subscriber's own balance stays; the log still shows the charge.
        await auditSubscriber(trx, principal, subscriberId, operation, { accountCharge: null }, { accountCharge: money(amount) });
        await charge('account');
      }
      const record = await recordOperation(trx, principal, subscriberId, operation, body);
      const after = await trx
        .selectFrom('subscriber')
        .select(['subscriberId', 'balance', 'pricingPlanId', 'status'])
        .where('subscriberId', '=', subscriberId)
        .executeTakeFirstOrThrow();
      return { ...record, subscriber: { ...after, balance: money(after.balance) } };
    });
  }

  app.get(
    '/portal/subscriber-info/:id/pricing-plans',
    {
      config,
      schema: {
        tags,
        summary: 'The local plans the caller may put this subscriber on (what the pricing-plan operation accepts), by name',
        response: { 200: usablePlansSchema },
      },
    },
    async (request) => {
      const principal = requirePanel(request, SUBSCRIBER_OPERATIONS['pricing-plan']);
      const sub = await visibleSubscriber(db, principal, pathId(request));
      return usablePlans(db, principal, sub).orderBy('p.name').orderBy('p.id').execute();
    },
  );

  app.post(
    '/portal/subscriber-info/api/',
    {
      config,
      schema: {
        tags,
        summary: 'Run an operation on a subscriber',
        description: [
          'Body `{ operation, subscriberId, ... }`:',
          '`charge-on-wallet`, `charge-on-account`, `credit` take `amount` (more than 0, below 100000, at most 2 decimals) and an optional `description`;',
          '`pricing-plan` takes `pricingPlanId`; `modify-msisdn` takes `msisdn` (8 to 15 digits); `suspend`, `reactivate` and `refresh-sim` take nothing more.',
          'Credit needs a pricing plan chosen first. Billing operations answer 200 with the finished operation; network operations answer 202 with',
          'the pending operation, to poll at `GET /portal/subscriber-info/operations/{id}` until it is `success` or `failed`.',
        ].join(' '),
        body: {
          type: 'object',
          required: ['operation', 'subscriberId'],
          // The operation and the subscriber here; which other fields an operation takes, and their rules (an amount
          // may come as exact decimal text), in checkOperationBody.
          properties: {
            operation: { type: 'string', enum: Object.keys(SUBSCRIBER_OPERATIONS), errorMessage: 'validation.operation.invalid' },
            subscriberId: { ...idSchema({}, 'type'), errorMessage: 'validation.subscriberId.required' },
            amount: {
              type: ['number', 'string', 'null'],
              maxLength: 50,
              description: `More than 0, below ${AMOUNT_LIMIT}, at most 2 decimals`,
              errorMessage: 'validation.amount.invalid',
            },
            description: { type: 'string', maxLength: 250, errorMessage: 'validation.max250' },
            pricingPlanId: { description: 'An id of a visible pricing plan (operation pricing-plan)' },
            msisdn: { description: `Digits: ${MSISDN.source} (operation modify-msisdn)` },
          },
          errorMessage: { required: { operation: 'validation.operation.invalid', subscriberId: 'validation.subscriberId.required' } },
        },
        response: { 200: billingOperationSchema, 202: operationSchema },
      },
    },
    async (request, reply) => {
      const body = request.body as Body;
      const { operation, subscriberId } = checkOperationBody(body);
      const principal = requirePanel(request, SUBSCRIBER_OPERATIONS[operation]);
      if (SUBSCRIBER_OPERATIONS[operation] === 'Services') return billing(principal, operation, subscriberId, body);
      const sub = await visibleSubscriber(db, principal, subscriberId);
      let op: NetworkOperation;
      if (operation === 'suspend' || operation === 'reactivate') {
        const target = operation === 'suspend' ? 'suspended' : 'active';
        if (sub.status === target)
          throw conflict([
            fieldError('operation', 'state', operation === 'suspend' ? 'validation.status.alreadySuspended' : 'validation.status.alreadyActive'),
          ]);
        op = {
          name: operation,
          network: operation === 'suspend' ? 'suspendSubscriber' : 'reactivateSubscriber',
          async apply(trx, id, actor) {
            await changeSubscriber(trx, id, actor, operation, { status: target });
            await trx
              .updateTable('simCard')
              .set({ status: target, statusDate: sql`now()` })
              .where('iccid', '=', sub.iccid)
              .execute();
          },
        };
      } else if (operation === 'refresh-sim') {
        op = { name: operation, network: 'refreshSim', request: { iccid: sub.iccid } };
      } else {
        const msisdn = body.msisdn as string;
        // A number of the MSISDN pool goes only to subscribers of its owner's subtree.
        await checkPoolNumber(db, principal, sub.resellerId, msisdn);
        if (await db.selectFrom('subscriberMsisdn').select('msisdn').where('msisdn', '=', msisdn).executeTakeFirst()) {
          throw conflict([fieldError('msisdn', 'unique', 'validation.msisdn.inUse')]);
        }
        op = {
          name: operation,
          network: 'modifyMsisdn',
          request: { msisdn, previous: sub.msisdn },
          async apply(trx, id, actor) {
            const { msisdn: old } = await trx.selectFrom('subscriber').select('msisdn').where('subscriberId', '=', id).forUpdate().executeTakeFirstOrThrow();
            if (old) await trx.deleteFrom('subscriberMsisdn').where('msisdn', '=', old).where('subscriberId', '=', id).execute();
            try {
              await trx.insertInto('subscriberMsisdn').values({ msisdn, subscriberId: id }).execute();
            } catch (e) {
              if (pgCode(e) === '23505') throw conflict([fieldError('msisdn', 'unique', 'validation.msisdn.inUse')]);
              throw e;
            }
            await changeSubscriber(trx, id, actor, operation, { msisdn });
          },
        };
      }
      return reply.code(202).send(await network(principal, sub, op));
    },
  );

  app.get(
    '/portal/subscriber-info/operations/:id',
    { config, schema: { tags, summary: 'An operation and its outcome: pending, success or failed (with its error)', response: { 200: operationSchema } } },
    async (request) => {
      const principal = principalOf(request);
      let q = db
        .selectFrom('subscriberOperation as o')
        .innerJoin('subscriber as s', 's.subscriberId', 'o.subscriberId')
        .innerJoin('reseller as r', 'r.id', 's.resellerId')
        .selectAll('o')
        .where('o.id', '=', pathId(request));
      q = scopeToCaller(q, principal);
      const row = await q.executeTakeFirst();
      if (!row) throw notFound();
      return operationToWire(row);
    },
  );

  app.get(
    '/portal/subscriber-info/:id/operations',
    { config, schema: { tags, summary: "The subscriber's latest 50 operations, newest first", response: { 200: { type: 'array', items: operationSchema } } } },
    async (request) => {
      const sub = await visibleSubscriber(db, principalOf(request), pathId(request));
      const rows = await db
        .selectFrom('subscriberOperation')
        .selectAll()
        .where('subscriberId', '=', sub.subscriberId)
        .orderBy('id', 'desc')
        .limit(50)
        .execute();
      return rows.map(operationToWire);
    },
  );

  const withPanel = async (request: FastifyRequest, panel: string) => {
    const principal = requirePanel(request, panel);
    return { principal, sub: await visibleSubscriber(db, principal, pathId(request)) };
  };

  app.post(
    '/portal/subscriber-info/:id/cancel-location',
    {
      config,
      schema: { tags, summary: 'Cancel location: the serving network drops the subscriber, which registers afresh (202, pending operation)' },
    },
    async (request, reply) => {
      const { principal, sub } = await withPanel(request, 'Location');
      return reply.code(202).send(
        await network(principal, sub, {
          name: 'cancel-location',
          network: 'cancelLocation',
          request: { network: sub.network, country: sub.country },
          apply: (trx, id, actor) => changeSubscriber(trx, id, actor, 'cancel-location', { network: null, country: null }),
        }),
      );
    },
  );

  app.get(
    '/portal/subscribers/:id/roaming-profile',
    { config, schema: { tags, summary: "The subscriber's roaming profile and the latest HSS update", response: { 200: roamingProfileViewSchema } } },
    async (request) => {
      const { sub } = await withPanel(request, 'RoamingProfile');
      const profile =
        sub.roamingProfileId === null
          ? undefined
          : await db
              .selectFrom('roamingProfile')
              .select(['id', 'name', 'reference', 'slots', 'reviewState'])
              .where('id', '=', sub.roamingProfileId)
              .executeTakeFirst();
      const last = await db
        .selectFrom('subscriberOperation')
        .selectAll()
        .where('subscriberId', '=', sub.subscriberId)
        .where('operation', '=', 'roaming-profile-hss')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return {
        subscriberId: sub.subscriberId,
        roamingProfileId: sub.roamingProfileId,
        roamingProfile: profile ?? null,
        multiImsi: (await db.selectFrom('sponsorImsi').select('imsi').where('subscriberId', '=', sub.subscriberId).limit(1).executeTakeFirst()) !== undefined,
        lastHssUpdate: last ? operationToWire(last) : null,
      };
    },
  );

  app.put(
    '/portal/subscribers/:id/roaming-profile/hss',
    {
      config,
      schema: {
        tags,
        summary: "Write the subscriber's roaming profile to the HSS, optionally changing it (202, pending operation)",
        description:
          "Body `{ roamingProfileId? }`: an approved profile of the subscriber's reseller or its parents that the caller sees; without it the current profile is written again.",
        params: idParams(),
        body: { type: 'object', properties: { roamingProfileId: { ...idSchema({}, 'type'), errorMessage: 'validation.roamingProfile.unknown' } } },
      },
    },
    async (request, reply) => {
      const given = (request.body as { roamingProfileId?: number }).roamingProfileId;
      const { principal, sub } = await withPanel(request, 'RoamingProfile');
      const profileId = (given as number | undefined) ?? sub.roamingProfileId;
      if (profileId === null) throw invalid([fieldError('roamingProfileId', 'required', 'validation.roamingProfile.required')]);
      let found = db
        .selectFrom('roamingProfile as p')
        .innerJoin('reseller as pr', 'pr.id', 'p.resellerId')
        .select(['p.id', 'p.slots', 'p.reviewState'])
        .where('p.id', '=', profileId)
        .where(sql<string>`${sub.resellerPath}`, 'like', sql<string>`pr.path || '%'`);
      // A profile the body names must be one the caller sees (its subtree's); the current one may be written again
      // whoever set it.
      if (given !== undefined && !principal.isAdmin) found = found.where('pr.path', 'like', subtreePattern(principal));
      const profile = await found.executeTakeFirst();
      if (!profile) throw invalid([fieldError('roamingProfileId', 'exists', 'validation.roamingProfile.unknown')]);
      if (profile.reviewState !== 'approved') throw invalid([fieldError('roamingProfileId', 'approved', 'validation.roamingProfile.notApproved')]);
      const sponsors = await db.selectFrom('sponsorImsi').select('imsi').where('subscriberId', '=', sub.subscriberId).limit(1).executeTakeFirst();
      if (sponsors && Number(profile.slots) < 2) throw invalid([fieldError('roamingProfileId', 'multiImsi', 'validation.roamingProfile.singleImsi')]);
      return reply.code(202).send(
        await network(principal, sub, {
          name: 'roaming-profile-hss',
          network: 'updateHssProfile',
          request: { roamingProfileId: profileId, previous: sub.roamingProfileId },
          apply: (trx, id, actor) => changeSubscriber(trx, id, actor, 'roaming-profile-hss', { roamingProfileId: profileId }),
        }),
      );
    },
  );

  app.post(
    '/portal/subscribers/:id/allowed-networks',
    {
      config,
      schema: { tags, summary: "Reset the subscriber's allowed networks in the HSS to its roaming profile's lists (202, pending operation)" },
    },
    async (request, reply) => {
      const { principal, sub } = await withPanel(request, 'AllowedNetworks');
      return reply.code(202).send(
        await network(principal, sub, {
          name: 'reset-allowed-networks',
          network: 'resetAllowedNetworks',
          request: { roamingProfileId: sub.roamingProfileId },
        }),
      );
    },
  );

  app.post(
    '/portal/subscribers/:id/push-pending-imsis',
    {
      config,
      schema: { tags, summary: 'Send the sponsor IMSIs waiting for provisioning to the SIM over the air (202, pending operation)' },
    },
    async (request, reply) => {
      const { principal, sub } = await withPanel(request, 'SponsorImsis');
      const imsis = await pendingImsis(db, sub.subscriberId);
      if (!imsis.length) throw conflict([fieldError('subscriberId', 'pending', 'validation.sponsorImsi.nonePending')]);
      return reply.code(202).send(
        await network(principal, sub, {
          name: 'push-pending-imsis',
          network: 'pushPendingImsis',
          request: { imsis },
          async apply(trx, id, actor) {
            await trx.updateTable('sponsorImsi').set({ pending: false }).where('subscriberId', '=', id).where('imsi', 'in', imsis).execute();
            await auditSubscriber(trx, actor, id, 'push-pending-imsis', { pendingImsis: imsis }, { pendingImsis: await pendingImsis(trx, id) });
          },
        }),
      );
    },
  );

  app.put(
    '/portal/subscribers/:id/:imsi/pending',
    {
      config,
      schema: { tags, summary: "Set one of the subscriber's sponsor IMSIs back to pending, for provisioning on the fly" },
    },
    async (request) => {
      const imsi = (request.params as { imsi: string }).imsi;
      if (!/^\d{15}$/.test(imsi)) throw invalid([fieldError('imsi', 'pattern', 'validation.imsi.invalid')]);
      const { principal, sub } = await withPanel(request, 'SponsorImsis');
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('sponsorImsi')
          .select(['imsi', 'pending'])
          .where('subscriberId', '=', sub.subscriberId)
          .where('imsi', '=', imsi)
          .forUpdate()
          .executeTakeFirst();
        if (!row) throw notFound();
        const before = await pendingImsis(trx, sub.subscriberId);
        await trx.updateTable('sponsorImsi').set({ pending: true }).where('imsi', '=', imsi).execute();
        await auditSubscriber(
          trx,
          principal,
          sub.subscriberId,
          'imsi-pending',
          { pendingImsis: before },
          { pendingImsis: await pendingImsis(trx, sub.subscriberId) },
        );
        await recordOperation(trx, principal, sub.subscriberId, 'imsi-pending', { imsi });
        return trx.selectFrom('sponsorImsi').select(['imsi', 'sponsorId', 'sponsorName', 'pending']).where('imsi', '=', imsi).executeTakeFirstOrThrow();
      });
    },
  );

  const numbers = async (trx: Kysely<Database>, sub: Pick<Subscriber, 'subscriberId'>) => {
    const { msisdn } = await trx.selectFrom('subscriber').select('msisdn').where('subscriberId', '=', sub.subscriberId).executeTakeFirstOrThrow();
    const rows = await trx.selectFrom('subscriberMsisdn').select('msisdn').where('subscriberId', '=', sub.subscriberId).orderBy('msisdn').execute();
    return rows.map((r) => ({ msisdn: r.msisdn as string, isDefault: r.msisdn === msisdn }));
  };

  app.get(
    '/portal/msisdn/:id',
    { config, schema: { tags, summary: "The subscriber's MSISDNs; one is the default", response: { 200: msisdnsSchema } } },
    async (request) => {
      const { sub } = await withPanel(request, 'Msisdn');
      return numbers(db, sub);
    },
  );

  app.post(
    '/portal/msisdn/:id/modify-default',
    {
      config,
      schema: {
        tags,
        summary: "Make another of the subscriber's MSISDNs the default, through the core network (202, pending operation)",
        description: "Body `{ msisdn }`: one of the subscriber's numbers other than the default. The HSS is told first; only its success changes the default.",
        params: idParams(),
        // Empty text counts as missing, so the pattern is checked in the handler, after that.
        body: objectBody(
          { msisdn: { type: 'string', maxLength: 50, description: `Digits: ${MSISDN.source}`, errorMessage: 'validation.msisdn.invalid' } },
          ['msisdn'],
          { msisdn: 'validation.msisdn.required' },
        ),
      },
    },
    async (request, reply) => {
      const { msisdn } = request.body as { msisdn: string };
      if (msisdn === '') throw invalid([fieldError('msisdn', 'required', 'validation.msisdn.required')]);
      if (!MSISDN.test(msisdn)) throw invalid([fieldError('msisdn', 'pattern', 'validation.msisdn.invalid')]);
      const { principal, sub } = await withPanel(request, 'Msisdn');
      const owns = (trx: Kysely<Database>, id: number) =>
        trx.selectFrom('subscriberMsisdn').select('msisdn').where('subscriberId', '=', id).where('msisdn', '=', msisdn).executeTakeFirst();
      if (!(await owns(db, sub.subscriberId))) throw invalid([fieldError('msisdn', 'own', 'validation.msisdn.notOwn')]);
      if (sub.msisdn === msisdn) throw conflict([fieldError('msisdn', 'state', 'validation.msisdn.alreadyDefault')]);
      return reply.code(202).send(
        await network(principal, sub, {
          name: 'msisdn-default',
          network: 'modifyMsisdn',
          request: { msisdn, previous: sub.msisdn },
          async apply(trx, id, actor) {
            // The number may have left the subscriber while the network worked: then nothing changes.
            if (!(await owns(trx, id))) throw invalid([fieldError('msisdn', 'own', 'validation.msisdn.notOwn')]);
            await changeSubscriber(trx, id, actor, 'msisdn-default', { msisdn });
          },
        }),
      );
    },
  );
}
