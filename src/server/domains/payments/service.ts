/**
 * What happens to a payment, in transactions: it is recorded (limits checked and its idempotency key claimed
 * under the reseller's row lock), then credited exactly once: the ledger row and the payment's conditional move
 * from pending to confirmed share one transaction, and a second confirmation finds nothing pending and writes nothing.
 */
import { sql, type Kysely } from 'kysely';
import { fromCents, type PaymentMethod } from '@shared/payments';
import type { Database } from '../../db/types';
import { conflict, fieldError } from '../../http/errors';
import { LEDGER_CURRENCY, post } from '../ledger';
import { effectiveParameters } from './parameters';

/** The advisory lock every card and crypto payment takes before adding up the provider-wide totals. */
const PROVIDER_LIMIT_LOCK = 7_300_135;

/** The methods that count against the card limits, and the crypto ones. */
export const CARD_METHODS: PaymentMethod[] = ['CREDIT_CARD', 'STRIPE'];
export const CRYPTO_METHODS: PaymentMethod[] = ['BIT_PAY'];
export const limitGroup = (method: PaymentMethod) => (CARD_METHODS.includes(method) ? 'card' : CRYPTO_METHODS.includes(method) ? 'crypto' : undefined);

/** The fee rate of a method for a reseller (wire and manual payments carry none). */
export async function feeRateOf(db: Kysely<Database>, resellerId: number, method: PaymentMethod): Promise<number> {
  const group = limitGroup(method);
  if (!group) return 0;
  const p = await effectiveParameters(db, resellerId);
  return group === 'card' ? p.creditCard.feeRate : p.crypto.feeRate;
}

/** Locks the reseller's row as the ledger does, so its payments and postings happen one after the other. */
export async function lockReseller(trx: Kysely<Database>, resellerId: number) {
  await sql`select id from reseller where id = ${resellerId} for no key update`.execute(trx);
}

const limitError = (field: string, rule: string, messageId: string) => conflict([fieldError(field, rule, messageId)]);

/**
 * Refuses a payment of `credited` (cents) that would pass a limit, inside the transaction that records it: the
 * reseller's row is locked (one reseller's payments check one after another) and then the provider-wide lock (all
 * card and crypto payments add up the provider's totals one after another). Pending and confirmed payments count,
 * by their credited amounts, in UTC days and months. Crypto's total limit counts the reseller's crypto payments not
 * yet confirmed, whenever made, plus those confirmed this month.
 */
export async function checkLimits(trx: Kysely<Database>, resellerId: number, method: PaymentMethod, credited: number) {
  const group = limitGroup(method);
  if (!group) return;
  const p = await effectiveParameters(trx, resellerId);
  if (group === 'crypto' && !p.crypto.enabled) throw limitError('method', 'cryptoDisabled', 'payment.crypto.disabled');
  await sql`select pg_advisory_xact_lock(${PROVIDER_LIMIT_LOCK})`.execute(trx);
  const methods = group === 'card' ? CARD_METHODS : CRYPTO_METHODS;
  const all = [...CARD_METHODS, ...CRYPTO_METHODS];
  const { rows } = await sql<{ day: string; month: string; outstanding: string; confirmedMonth: string; providerDay: string; providerMonth: string }>`
    with bounds as (
      select date_trunc('day', now() at time zone 'UTC') at time zone 'UTC' as day,
        date_trunc('month', now() at time zone 'UTC') at time zone 'UTC' as month
    )
    select
      coalesce(sum(p.credited_amount) filter (where p.reseller_id = ${resellerId} and p.method in (${sql.join(methods)}) and p.created_at >= b.day), 0)::text as day,
      coalesce(sum(p.credited_amount) filter (where p.reseller_id = ${resellerId} and p.method in (${sql.join(methods)}) and p.created_at >= b.month), 0)::text as month,
      coalesce(sum(p.credited_amount) filter (where p.reseller_id = ${resellerId} and p.method in (${sql.join(methods)}) and p.status = 'pending'), 0)::text as outstanding,
      coalesce(sum(p.credited_amount) filter (where p.reseller_id = ${resellerId} and p.method in (${sql.join(methods)}) and p.status = 'confirmed' and p.booked_at >= b.month), 0)::text as "confirmedMonth",
      coalesce(sum(p.credited_amount) filter (where p.created_at >= b.day), 0)::text as "providerDay",
      coalesce(sum(p.credited_amount) filter (where p.created_at >= b.month), 0)::text as "providerMonth"
    from bounds b
    left join payment p on p.method in (${sql.join(all)}) and p.status in ('pending', 'confirmed')
      and (p.created_at >= b.month or p.booked_at >= b.month or (p.status = 'pending' and p.reseller_id = ${resellerId}))
    group by b.day, b.month`.execute(trx);
  const r = rows[0];
  const cents = (v: string | number) => Math.round(Number(v) * 100);
  const limits = group === 'card' ? p.creditCard : p.crypto;
  if (cents(r.day) + credited > cents(limits.dailyLimit)) throw limitError('amount', 'dailyLimit', 'payment.limit.daily');
  if (cents(r.month) + credited > cents(limits.monthlyLimit)) throw limitError('amount', 'monthlyLimit', 'payment.limit.monthly');
  if (group === 'crypto' && cents(r.outstanding) + cents(r.confirmedMonth) + credited > cents(p.crypto.totalLimit))
    throw limitError('amount', 'totalLimit', 'payment.limit.cryptoTotal');
  if (cents(r.providerDay) + credited > cents(p.provider.dailyLimit) || cents(r.providerMonth) + credited > cents(p.provider.monthlyLimit))
    throw limitError('amount', 'providerLimit', 'payment.limit.provider');
}

export interface NewPayment {
  resellerId: number;
  accountId: number | null;
  userId: number | null;
  method: PaymentMethod;
  /** Cents credited to the balance and the fee paid on top. */
  credited: number;
  fee: number;
  description?: string | null;
  reference?: string | null;
  cardId?: number | null;
  idempotencyKey?: string | null;
}

export type Recorded = { id: number; replay: false } | { id: number; replay: true; method: string; credited: number };

/**
 * Records a pending payment, or finds the one its idempotency key already made (`replay`), under the reseller's lock;
 * card and crypto payments pass their limits first.
 */
export async function recordPayment(db: Kysely<Database>, p: NewPayment, extra?: (trx: Kysely<Database>, id: number) => Promise<void>): Promise<Recorded> {
  return db.transaction().execute(async (trx) => {
    await lockReseller(trx, p.resellerId);
    if (p.idempotencyKey) {
      const earlier = await trx
        .selectFrom('payment')
        .select(['id', 'method', 'creditedAmount'])
        .where('resellerId', '=', p.resellerId)
        .where('idempotencyKey', '=', p.idempotencyKey)
        .executeTakeFirst();
      if (earlier) return { id: Number(earlier.id), replay: true, method: earlier.method, credited: Math.round(Number(earlier.creditedAmount) * 100) };
    }
    await checkLimits(trx, p.resellerId, p.method, p.credited);
    const row = await trx
      .insertInto('payment')
      .values({
        resellerId: p.resellerId,
        accountId: p.accountId,
        userId: p.userId,
        method: p.method,
        status: 'pending',
        amount: fromCents(p.credited + p.fee),
        fee: fromCents(p.fee),
        creditedAmount: fromCents(p.credited),
        currency: LEDGER_CURRENCY,
        description: p.description ?? null,
        reference: p.reference ?? null,
        cardId: p.cardId ?? null,
        idempotencyKey: p.idempotencyKey ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await extra?.(trx, Number(row.id));
    return { id: Number(row.id), replay: false };
  });
}

class AlreadyDone extends Error {}

/**
 * Credits a pending payment: its ledger row (kind payment, its method, fee, user and confirmation) and its move to
 * confirmed in one transaction, conditional on its still being pending. Answers whether this call credited it.
 */
export async function confirmPayment(db: Kysely<Database>, id: number, confirmation: { confirmationCode?: string | null; processorRef?: string | null } = {}) {
  try {
    return await db.transaction().execute(async (trx) => {
      const p = await trx
        .selectFrom('payment')
        .select(['resellerId', 'status', 'method', 'creditedAmount', 'fee', 'userId'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!p || p.status !== 'pending') return false;
      const entry = await post(trx, {
        resellerId: p.resellerId,
        amount: String(p.creditedAmount),
        kind: 'payment',
        method: p.method as PaymentMethod,
        fee: String(p.fee),
        userId: p.userId,
        confirmationCode: confirmation.confirmationCode ?? null,
        reference: `payment ${id}`,
      });
      const done = await trx
        .updateTable('payment')
        .set({
          status: 'confirmed',
          ledgerEntryId: entry.id,
          bookedAt: sql`now()`,
          confirmationCode: confirmation.confirmationCode ?? null,
          ...(confirmation.processorRef ? { processorRef: confirmation.processorRef } : {}),
        })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      // Another confirmation got there first: this one's ledger row goes with its transaction.
      if (Number(done.numUpdatedRows) !== 1) throw new AlreadyDone();
      return true;
    });
  } catch (e) {
    if (e instanceof AlreadyDone) return false;
    throw e;
  }
}

/** Ends a pending payment without credit (declined by the processor, failed, or a wire the administrator rejected). */
export async function endPayment(db: Kysely<Database>, id: number, status: 'declined' | 'failed', failure: string, processorRef?: string | null) {
  const r = await db
    .updateTable('payment')
    .set({ status, failure, ...(processorRef ? { processorRef } : {}) })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export type ResetOutcome = 'reset' | 'notFound' | 'notConfirmed';

/** Reverses a confirmed payment with a `reset` ledger row of the credited amount, once. */
export async function resetPayment(db: Kysely<Database>, id: number, userId: number): Promise<{ outcome: ResetOutcome; ledgerEntryId?: number }> {
  try {
    return await db.transaction().execute(async (trx) => {
      const p = await trx.selectFrom('payment').select(['resellerId', 'status', 'method', 'creditedAmount']).where('id', '=', id).executeTakeFirst();
      if (!p) return { outcome: 'notFound' as const };
      if (p.status !== 'confirmed') return { outcome: 'notConfirmed' as const };
      const entry = await post(trx, {
        resellerId: p.resellerId,
        amount: fromCents(-Math.round(Number(p.creditedAmount) * 100)),
        kind: 'reset',
        method: p.method as PaymentMethod,
        userId,
        reference: `payment ${id}`,
      });
      const done = await trx
        .updateTable('payment')
        .set({ status: 'reset', resetEntryId: entry.id })
        .where('id', '=', id)
        .where('status', '=', 'confirmed')
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1) throw new AlreadyDone();
      return { outcome: 'reset' as const, ledgerEntryId: entry.id };
    });
  } catch (e) {
    if (e instanceof AlreadyDone) return { outcome: 'notConfirmed' };
    throw e;
  }
}
