import type { FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { conflict, fieldError, HttpError } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { idParams, INT_MIN, objectBody } from '../../http/input';
import { LEDGER_CURRENCY } from '../ledger';
import { resellerInSubtree, visibleResellers } from './subtree';
import { domainPlugin } from '../plugin';
import type { Database } from '../../db/types';

const tags = ['resellers'];

/** An amount of money the portal keeps: 0 to 99,999,999.99, in cents. */
const amountSchema = (messageId: string) => ({
  type: 'number',
  minimum: 0,
  maximum: 99_999_999.99,
  multipleOf: 0.01,
  'x-rule': 'range',
  errorMessage: { type: messageId, minimum: messageId, maximum: messageId, multipleOf: messageId },
});

const standingSchema = {
  type: 'object',
  required: ['resellerId', 'currency', 'balance', 'creditLimit', 'creditUsed', 'availableCredit', 'held', 'minimumCreditLimit', 'disputedAmount'],
  properties: {
    resellerId: { type: 'integer' },
    currency: { type: 'string', description: 'The ledger currency' },
    balance: { type: 'number', description: "The latest ledger row's balance after it" },
    deposit: { type: 'number', description: 'Every payment credited' },
    totalCredit: { type: 'number', description: 'Every positive movement' },
    creditLimit: { type: 'number', description: 'How far below zero purchases may take the balance' },
    creditUsed: { type: 'number', description: 'How far below zero the balance is' },
    availableCredit: { type: 'number', description: 'Credit limit + balance' },
    held: { type: 'number', description: 'Credit set aside by open SIM orders (credit holds), not yet charged' },
    minimumCreditLimit: { type: 'number', description: 'The lowest credit limit the reseller may be given: credit in use plus held' },
    disputedAmount: { type: 'number', description: 'Debt in review' },
    subscriberCount: { type: 'integer' },
    usageResetAt: { type: 'string', format: 'date-time', nullable: true },
  },
};

/** Cents of a decimal amount (numeric text or number), so sums compare exactly. */
const cents = (value: string | number | null) => Math.round(Number(value ?? 0) * 100);

/** The credit open SIM orders hold for the reseller (US dollars, exact decimal text). */
async function heldBy(db: Kysely<Database>, resellerId: number) {
  const { rows } = await sql<{ held: string }>`select coalesce(sum(amount), 0)::numeric(14, 2)::text as held from credit_hold
    where reseller_id = ${resellerId} and state = 'held'`.execute(db);
  return rows[0].held;
}

/** A reseller's standing: its money figures, kept beside it (migration 0127), and what open orders hold. */
async function standingOf(db: Kysely<Database>, resellerId: number) {
  const held = await heldBy(db, resellerId);
  const row = await db
    .selectFrom('resellerStanding')
    .select([
      'resellerId',
      'balance',
      'deposit',
      'totalCredit',
      'creditLimit',
      'creditUsed',
      'availableCredit',
      'disputedAmount',
      'subscriberCount',
      'usageResetAt',
    ])
    .where('resellerId', '=', resellerId)
    .executeTakeFirstOrThrow();
  return {
    resellerId: row.resellerId,
    currency: LEDGER_CURRENCY,
    balance: Number(row.balance),
    deposit: Number(row.deposit),
    totalCredit: Number(row.totalCredit),
    creditLimit: Number(row.creditLimit),
    creditUsed: Number(row.creditUsed),
    availableCredit: Number(row.availableCredit),
    held: Number(held),
    minimumCreditLimit: (cents(row.creditUsed) + cents(held)) / 100,
    disputedAmount: Number(row.disputedAmount),
    subscriberCount: row.subscriberCount,
    usageResetAt: row.usageResetAt,
  };
}

/**
 * A reseller's terms (credit limit, debt in review, usage date) are set from above it: by the administrator or a
 * reseller it sits under, never by the reseller itself or its accounts.
 */
async function termsTarget(db: Kysely<Database>, request: FastifyRequest, field: string) {
  const principal = principalOf(request);
  const id = (request.params as { id: number }).id;
  await resellerInSubtree(db, principal, id);
  if (!principal.isAdmin && (id === principal.resellerId || principal.accountId !== null))
    throw new HttpError(403, 'FORBIDDEN', 'validation.field.protected', [fieldError(field, 'protected', 'validation.field.protected')]);
  return id;
}

/**
 * Reseller calls beside the entity's own (schemas/reseller.json): the select list of visible resellers, and the
 * terms an ancestor sets: credit limit, debt in review and the usage reset date. A credit limit is changed with the
 * reseller's row locked as a ledger posting does, so a purchase and a lower limit never pass each other.
 */
export default domainPlugin('resellers', async (app, { database }) => {
  const { db } = database;

  app.get(
    '/portal/reseller-info/list',
    {
      config: { signedIn: true },
      schema: {
        tags,
        summary: 'Id and name of every visible reseller',
        response: {
          200: {
            type: 'array',
            items: {
              type: 'object',
              required: ['id', 'name', 'parentId'],
              properties: { id: { type: 'integer' }, name: { type: 'string' }, parentId: { type: 'integer', nullable: true } },
            },
          },
        },
      },
    },
    async (request) => {
      return visibleResellers(db, principalOf(request)).select(['id', 'name', 'parentId']).orderBy('name').execute();
    },
  );

  const params = idParams('id', { min: INT_MIN });
  const config = { privilege: 'Resellers' };

  app.get(
    '/portal/reseller-info/credit-limits/:id',
    { config, schema: { tags, summary: "A reseller's credit limit, the credit it uses and what is available", params, response: { 200: standingSchema } } },
    async (request) => {
      const id = (request.params as { id: number }).id;
      await resellerInSubtree(db, principalOf(request), id);
      return standingOf(db, id);
    },
  );

  app.post(
    '/portal/reseller-info/credit-limits/:id',
    {
      config,
      schema: {
        tags,
        summary:
          "Sets a reseller's credit limit (from above it); not below the credit it uses (rule usedCredit), nor below that plus what its open SIM orders hold (rule heldCredit)",
        params,
        body: objectBody({ creditLimit: amountSchema('entity.reseller.creditLimit.invalid') }, ['creditLimit']),
        response: { 200: standingSchema },
      },
    },
    async (request) => {
      const id = await termsTarget(db, request, 'creditLimit');
      const { creditLimit } = request.body as { creditLimit: number };
      await db.transaction().execute(async (trx) => {
        await sql`select id from reseller where id = ${id} for no key update`.execute(trx);
        const { creditUsed } = await trx.selectFrom('resellerStanding').select('creditUsed').where('resellerId', '=', id).executeTakeFirstOrThrow();
        if (cents(creditLimit) < cents(creditUsed)) throw conflict([fieldError('creditLimit', 'usedCredit', 'entity.reseller.creditLimit.tooLow')]);
        // Held credit is promised to orders the reseller has submitted: a limit that could not cover it would leave
        // those orders unpaid at delivery, so the limit stays at or above the credit in use plus what is held.
        if (cents(creditLimit) < cents(creditUsed) + cents(await heldBy(trx, id)))
          throw conflict([fieldError('creditLimit', 'heldCredit', 'entity.reseller.creditLimit.belowHeld')]);
        await trx
          .updateTable('resellerStanding')
          .set({ creditLimit: creditLimit.toFixed(2) })
          .where('resellerId', '=', id)
          .execute();
      });
      return standingOf(db, id);
    },
  );

  app.post(
    '/portal/reseller-info/:id/disputed-amount',
    {
      config,
      schema: {
        tags,
        summary: "Sets a reseller's debt in review (from above it)",
        params,
        body: objectBody({ disputedAmount: amountSchema('entity.reseller.disputedAmount.invalid') }, ['disputedAmount']),
        response: { 200: standingSchema },
      },
    },
    async (request) => {
      const id = await termsTarget(db, request, 'disputedAmount');
      const { disputedAmount } = request.body as { disputedAmount: number };
      await db
        .updateTable('resellerStanding')
        .set({ disputedAmount: disputedAmount.toFixed(2) })
        .where('resellerId', '=', id)
        .execute();
      return standingOf(db, id);
    },
  );

  app.post(
    '/portal/reseller-info/:id/reset-usage-date',
    { config, schema: { tags, summary: "Starts a reseller's usage period now (from above it)", params, response: { 200: standingSchema } } },
    async (request) => {
      const id = await termsTarget(db, request, 'usageResetAt');
      await db
        .updateTable('resellerStanding')
        .set({ usageResetAt: sql`now()` })
        .where('resellerId', '=', id)
        .execute();
      return standingOf(db, id);
    },
  );
});
