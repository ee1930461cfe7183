/**
 * Payments: saved cards, the methods and limits a caller has, card, crypto, Stripe, bank wire and manual payments,
 * the administrator's wire queue, resets and the lists of a reseller's and an account's payments. Every call names
 * rows of the caller's tenants only: a reseller's users reach its payments and those of resellers below it, an
 * account user its own account's; the administrator all. See docs/payments.md.
 */
import type { FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { fileTypeFromBuffer } from 'file-type';
import fastifyMultipart from '@fastify/multipart';
import {
  amountMessage,
  cardDigits,
  cardNumberMessage,
  feeCents,
  fromCents,
  idNumberMessage,
  PAYMENT_CURRENCIES,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  referenceMessage,
  toCents,
  type PaymentMethod,
} from '@shared/payments';
import { ADMIN_RESELLER_ID } from '@shared/privileges';
import { MAX_PAGE_SIZE, pageAnswer } from '@shared/wire';
import { createPaymentAdapters, type CardDetails, type PaymentAdapters } from '../../adapters/payments';
import type { Database } from '../../db/types';
import { conflict, englishText, fieldError, forbidden, HttpError, invalid, notFound } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { checkStorable, idParams, idSchema, INT_MIN, pageNumberSchema, pageSchema, pageSizeSchema } from '../../http/input';
import type { Principal } from '../../http/principal';
import { LEDGER_CURRENCY } from '../ledger';
import { domainPlugin } from '../plugin';
import { resellerInSubtree } from '../resellers/subtree';
import { effectiveParameters, PARAMETER_FIELDS, PROVIDER_ONLY, storedParameters, type ParameterField } from './parameters';
import { confirmPayment, endPayment, feeRateOf, recordPayment, resetPayment } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The card processor, Stripe (when configured) and the crypto gateway behind their adapters. */
    payments: PaymentAdapters;
  }
}

/** A refused or failed charge: 402 naming the field and the message, with the payment as recorded. */
class PaymentRefused extends HttpError {
  constructor(
    field: string,
    rule: string,
    messageId: string,
    public readonly payment: unknown,
  ) {
    super(402, 'PAYMENT_FAILED', messageId, [fieldError(field, rule, messageId)]);
  }
  override toJSON() {
    return { ...super.toJSON(), payment: this.payment } as ReturnType<HttpError['toJSON']>;
  }
}

const tags = ['payments'];
const PAY = { privilege: 'PaymentMethods' };
const ADMIN = { adminOnly: true };
/** The largest proof of a wire: less than 4 MB. */
export const PROOF_MAX_BYTES = 4 * 1024 * 1024;
const PROOF_TYPES = new Set(['application/pdf', 'image/png', 'image/jpeg']);
/** How long a request waits for a concurrent request with its idempotency key to finish its charge. */
const REPLAY_WAIT_MS = 20_000;

const money = { type: 'number' };
const paymentSchema = {
  type: 'object',
  required: ['id', 'resellerId', 'method', 'status', 'amount', 'paidAmount', 'fee', 'creditedAmount', 'currency', 'date'],
  properties: {
    id: { type: 'integer' },
    resellerId: { type: 'integer' },
    resellerName: { type: 'string' },
    accountId: { type: 'integer', nullable: true },
    method: { type: 'string', enum: [...PAYMENT_METHODS] },
    type: { type: 'string', enum: [...PAYMENT_METHODS], description: 'The method, as the specification names it' },
    status: { type: 'string', enum: [...PAYMENT_STATUSES] },
    amount: { ...money, description: 'What the payer paid (credited amount plus fee)' },
    paidAmount: money,
    fee: money,
    creditedAmount: { ...money, description: 'What the balance rose by' },
    currency: { type: 'string' },
    description: { type: 'string', nullable: true },
    reference: { type: 'string', nullable: true },
    confirmationCode: { type: 'string', nullable: true },
    processorRef: { type: 'string', nullable: true },
    failure: { type: 'string', nullable: true, description: 'Message id of why a payment was declined or failed' },
    failureMessage: { type: 'string', nullable: true },
    cardLast4: { type: 'string', nullable: true },
    hasProof: { type: 'boolean' },
    userId: { type: 'integer', nullable: true },
    userName: { type: 'string', nullable: true },
    date: { type: 'string', format: 'date-time' },
    bookDate: { type: 'string', format: 'date-time', nullable: true },
    balanceAfter: { ...money, nullable: true, description: 'The balance after the credit' },
    ledgerEntryId: { type: 'integer', nullable: true },
    invoiceUrl: { type: 'string', nullable: true, description: 'Where a crypto payment is paid' },
  },
};
const cardSchema = {
  type: 'object',
  required: ['id', 'last4', 'brand', 'holderName', 'expiryMonth', 'expiryYear'],
  properties: {
    id: { type: 'integer' },
    last4: { type: 'string' },
    brand: { type: 'string' },
    holderName: { type: 'string' },
    expiryMonth: { type: 'integer' },
    expiryYear: { type: 'integer' },
    createdAt: { type: 'string', format: 'date-time' },
  },
};
const newCardSchema = {
  type: 'object',
  required: ['number', 'holderName', 'holderIdNumber', 'expiryMonth', 'expiryYear'],
  properties: {
    number: { type: 'string', maxLength: 40, description: 'Digits (spaces or dashes between groups allowed); checked by Luhn' },
    holderName: { type: 'string', maxLength: 100 },
    holderIdNumber: { type: 'string', maxLength: 20, description: "The holder's 9-digit ID number with its check digit; checked, never stored" },
    expiryMonth: { type: 'integer', minimum: 1, maximum: 12, 'x-rule': 'range', errorMessage: 'validation.expiry.invalid' },
    expiryYear: { type: 'integer', minimum: 2000, maximum: 2100, 'x-rule': 'range', errorMessage: 'validation.expiry.invalid' },
    cvv: { type: 'string', maxLength: 4, description: '3 or 4 digits; sent to the processor, never stored' },
  },
  additionalProperties: false,
  errorMessage: { additionalProperties: 'validation.unknownField' },
};
const amountProperty = { type: ['number', 'string'], maxLength: 20, description: 'Dollars, at most 2 decimals' };
const idempotencyProperty = { type: 'string', minLength: 1, maxLength: 100, errorMessage: 'payment.idempotencyKey.invalid' };
const listBody = (withReseller: boolean) => ({
  type: 'object',
  properties: {
    ...(withReseller
      ? {
          resellerId: { ...idSchema({ min: INT_MIN }), description: "The reseller (default: the caller's own)" },
          includeSubResellers: { type: 'boolean', description: 'Also the payments of the resellers below it' },
          accountId: idSchema(),
        }
      : {}),
    method: { type: 'string', enum: [...PAYMENT_METHODS], errorMessage: 'payment.method.invalid' },
    status: { type: 'string', enum: [...PAYMENT_STATUSES], errorMessage: 'payment.status.invalid' },
    from: { type: 'string', format: 'date', errorMessage: 'validation.date.invalid' },
    to: { type: 'string', format: 'date', errorMessage: 'validation.date.invalid' },
    searchKey: { type: ['string', 'null'], maxLength: 100, errorMessage: 'validation.searchKey.tooLong' },
    sortBy: {
      type: ['string', 'null'],
      enum: ['id', 'date', 'amount', 'creditedAmount', 'fee', 'method', 'status', 'bookDate', null],
      errorMessage: 'validation.sortBy.invalid',
    },
    sortDir: { type: ['string', 'null'], enum: ['asc', 'desc', null], errorMessage: 'validation.sortDir.invalid' },
    page: {
      type: ['object', 'null'],
      properties: { page: pageNumberSchema(), size: pageSizeSchema() },
      additionalProperties: false,
      errorMessage: { type: 'validation.page.invalid', additionalProperties: 'validation.unknownField' },
    },
  },
  additionalProperties: false,
  errorMessage: { additionalProperties: 'validation.unknownField' },
});
type ListBody = {
  resellerId?: number;
  includeSubResellers?: boolean;
  accountId?: number;
  method?: string;
  status?: string;
  from?: string;
  to?: string;
  searchKey?: string | null;
  sortBy?: string | null;
  sortDir?: 'asc' | 'desc' | null;
  page?: { page?: number; size?: number } | null;
};
const SORT_COLUMNS: Record<string, string> = {
  id: 'p.id',
  date: 'p.created_at',
  amount: 'p.amount',
  creditedAmount: 'p.credited_amount',
  fee: 'p.fee',
  method: 'p.method',
  status: 'p.status',
  bookDate: 'p.booked_at',
};

interface PaymentRow {
  id: string | number;
  resellerId: number;
  resellerName: string;
  accountId: number | null;
  method: PaymentMethod;
  status: string;
  amount: string;
  fee: string;
  creditedAmount: string;
  currency: string;
  description: string | null;
  reference: string | null;
  confirmationCode: string | null;
  processorRef: string | null;
  failure: string | null;
  cardLast4: string | null;
  hasProof: boolean;
  userId: number | null;
  userName: string | null;
  createdAt: Date | string;
  bookedAt: Date | string | null;
  balanceAfter: string | null;
  ledgerEntryId: string | number | null;
}

const SELECT_PAYMENT = sql`select p.id, p.reseller_id, r.name as reseller_name, p.account_id, p.method, p.status, p.amount::text as amount, p.fee::text as fee,
    p.credited_amount::text as credited_amount, p.currency, p.description, p.reference, p.confirmation_code, p.processor_ref, p.failure,
    c.last4 as card_last4, exists (select 1 from payment_proof f where f.payment_id = p.id) as has_proof, p.user_id, u.username as user_name,
    p.created_at, p.booked_at, l.balance_after::text as balance_after, p.ledger_entry_id
  from payment p
  join reseller r on r.id = p.reseller_id
  left join payment_card c on c.id = p.card_id
  left join app_user u on u.id = p.user_id
  left join ledger_entry l on l.id = p.ledger_entry_id`;

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

function view(r: PaymentRow) {
  const paid = Number(r.amount);
  return {
    id: Number(r.id),
    resellerId: r.resellerId,
    resellerName: r.resellerName,
    accountId: r.accountId,
    method: r.method,
    type: r.method,
    status: r.status,
    amount: paid,
    paidAmount: paid,
    fee: Number(r.fee),
    creditedAmount: Number(r.creditedAmount),
    currency: r.currency,
    description: r.description,
    reference: r.reference,
    confirmationCode: r.confirmationCode,
    processorRef: r.method === 'BIT_PAY' || r.method === 'STRIPE' ? r.processorRef : null,
    failure: r.failure,
    failureMessage: r.failure ? englishText(r.failure) : null,
    cardLast4: r.cardLast4,
    hasProof: r.hasProof,
    userId: r.userId,
    userName: r.userName,
    date: iso(r.createdAt)!,
    bookDate: iso(r.bookedAt),
    balanceAfter: r.balanceAfter === null ? null : Number(r.balanceAfter),
    ledgerEntryId: r.ledgerEntryId === null ? null : Number(r.ledgerEntryId),
    invoiceUrl: null as string | null,
  };
}
type PaymentView = ReturnType<typeof view>;

async function paymentById(db: Kysely<Database>, id: number): Promise<PaymentView> {
  const { rows } = await sql<PaymentRow>`${SELECT_PAYMENT} where p.id = ${id}`.execute(db);
  if (!rows[0]) throw notFound();
  return view(rows[0]);
}

/** Whether the caller may see a payment: its reseller in the caller's subtree, an account user's own account's only. */
async function visiblePayment(db: Kysely<Database>, principal: Principal, id: number): Promise<PaymentView> {
  const row = await db.selectFrom('payment').select(['resellerId', 'accountId']).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  if (!principal.isAdmin) {
    if (principal.accountId !== null && row.accountId !== principal.accountId) throw notFound();
    await resellerInSubtree(db, principal, row.resellerId);
  }
  return paymentById(db, id);
}

/** The account `id` if the caller sees it: its reseller in the caller's subtree, an account user its own only. */
async function visibleAccount(db: Kysely<Database>, principal: Principal, id: number): Promise<{ accountId: number; resellerId: number }> {
  const row = await db.selectFrom('account').select(['accountId', 'resellerId']).where('accountId', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  if (principal.accountId !== null && !principal.isAdmin && principal.accountId !== id) throw notFound();
  await resellerInSubtree(db, principal, row.resellerId);
  return row;
}

const bad = (field: string, messageId: string, rule = 'invalid') => invalid([fieldError(field, rule, messageId)]);

/** An amount of a body or form in cents, or a 400 naming `field`. */
function amountCents(value: unknown, positive: boolean, field = 'amount'): number {
  const message = amountMessage(value, positive);
  if (message) {
    const rule =
      message === 'validation.amount.required'
        ? 'required'
        : message.startsWith('payment.amount') || message === 'validation.amount.range'
          ? 'range'
          : 'format';
    throw bad(field, message, rule);
  }
  return toCents(typeof value === 'string' ? value.trim() : (value as number));
}

/** The card a body describes, checked field by field (all its mistakes at once). */
function checkCard(card: Record<string, unknown>, prefix = 'card'): CardDetails {
  const fields = [];
  const at = (name: string) => (prefix ? `${prefix}.${name}` : name);
  const numberMessage = cardNumberMessage(card.number);
  if (numberMessage) fields.push(fieldError(at('number'), numberMessage === 'validation.required' ? 'required' : 'luhn', numberMessage));
  const holder = typeof card.holderName === 'string' ? card.holderName.trim() : '';
  if (!holder) fields.push(fieldError(at('holderName'), 'required', 'validation.name.required'));
  else if (holder.length < 2 || holder.length > 50) fields.push(fieldError(at('holderName'), 'length', 'validation.name.invalid'));
  const idMessage = idNumberMessage(card.holderIdNumber);
  if (idMessage) fields.push(fieldError(at('holderIdNumber'), idMessage.endsWith('required') ? 'required' : 'checkDigit', idMessage));
  const month = Number(card.expiryMonth);
  const year = Number(card.expiryYear);
  const now = new Date();
  if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1))
    fields.push(fieldError(at('expiryYear'), 'expired', 'validation.expiry.invalid'));
  if (card.cvv !== undefined && !/^\d{3,4}$/.test(String(card.cvv))) fields.push(fieldError(at('cvv'), 'pattern', 'validation.cvv.invalid'));
  if (fields.length) throw invalid(fields);
  return { number: cardDigits(card.number as string), holderName: holder, expiryMonth: month, expiryYear: year, cvv: card.cvv as string | undefined };
}

/** The idempotency key of a request: the `Idempotency-Key` header, else the body's `idempotencyKey`. */
function idempotencyKeyOf(request: FastifyRequest, body?: { idempotencyKey?: string }): string | null {
  const header = request.headers['idempotency-key'];
  const key = (Array.isArray(header) ? header[0] : header) ?? body?.idempotencyKey;
  if (key === undefined || key === '') return null;
  if (key.length > 100 || !/^[\x21-\x7e]+$/.test(key)) throw bad('idempotencyKey', 'payment.idempotencyKey.invalid');
  return key;
}

export default domainPlugin('payments', async (app, { database, app: options }) => {
  const { db } = database;
  const adapters = createPaymentAdapters(options.payments);
  app.decorate('payments', adapters);
  const settings = options.payments ?? {};

  /** Asks the gateway about a pending crypto payment and credits or fails it; answers the invoice's status. */
  async function settleInvoice(id: number, invoiceId: string) {
    const invoice = await adapters.crypto.getInvoice(invoiceId);
    if (invoice.status === 'confirmed' || invoice.status === 'complete') await confirmPayment(db, id, { confirmationCode: invoice.id });
    else if (invoice.status === 'expired' || invoice.status === 'invalid') await endPayment(db, id, 'failed', 'payment.crypto.failure');
    return invoice;
  }

  /**
   * Charges a recorded card or Stripe payment and credits, declines or fails it by the answer. The idempotency key is
   * the payment's, so charging it again (a retry after the server stopped mid-charge) charges once.
   */
  async function chargePayment(id: number, method: PaymentMethod, source: string, amountCents: number, description: string) {
    const processor = method === 'STRIPE' ? adapters.stripe : adapters.card;
    if (!processor) return endPayment(db, id, 'failed', 'payment.processor.failed');
    let result;
    try {
      result = await processor.charge({ source, amountCents, currency: LEDGER_CURRENCY, description, idempotencyKey: `payment-${id}` });
    } catch (e) {
      app.log.warn({ err: e, paymentId: id }, 'card charge failed');
      result = { outcome: 'failed' as const, reason: 'exception' };
    }
    if (result.outcome === 'succeeded') return confirmPayment(db, id, { confirmationCode: result.confirmationCode, processorRef: result.processorRef });
    if (result.outcome === 'declined') return endPayment(db, id, 'declined', 'payment.failure', result.processorRef);
    return endPayment(db, id, 'failed', 'payment.processor.failed');
  }

  // The sweep credits crypto payments whose invoices have confirmed, whether or not anyone asks about them, and
  // finishes card charges left open longer than `staleChargeSeconds` (a server stopped between recording and answer).
  const sweepMs = settings.sweepMs ?? 15_000;
  const staleChargeSeconds = settings.staleChargeSeconds ?? 120;
  let sweeping: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const sweep = async () => {
    const pending = await db
      .selectFrom('payment')
      .select(['id', 'processorRef'])
      .where('method', '=', 'BIT_PAY')
      .where('status', '=', 'pending')
      .where('processorRef', 'is not', null)
      .orderBy('id')
      .limit(500)
      .execute();
    for (const p of pending) {
      try {
        await settleInvoice(Number(p.id), p.processorRef!);
      } catch (e) {
        app.log.warn({ err: e, paymentId: p.id }, 'crypto invoice check failed');
      }
    }
    const open = await db
      .selectFrom('payment')
      .select(['id', 'method', 'processorRef', 'amount', 'description'])
      .where('method', 'in', ['CREDIT_CARD', 'STRIPE'])
      .where('status', '=', 'pending')
      .where('processorRef', 'is not', null)
      .where('createdAt', '<', sql<Date>`now() - make_interval(secs => ${staleChargeSeconds})`)
      .orderBy('id')
      .limit(100)
      .execute();
    for (const p of open) {
      const id = Number(p.id);
      await chargePayment(id, p.method as PaymentMethod, p.processorRef!, toCents(String(p.amount)), p.description ?? `Payment ${id}`);
    }
  };
  if (sweepMs > 0) {
    app.addHook('onReady', async () => {
      timer = setInterval(() => {
        sweeping ??= sweep()
          .catch((e) => app.log.error(e, 'crypto payment sweep failed'))
          .finally(() => (sweeping = undefined));
      }, sweepMs);
      timer.unref();
    });
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await sweeping;
    });
  }

  /** The caller's saved cards: a reseller's users share the reseller's, an account's users the account's. */
  const cardsOf = (principal: Principal) => {
    const q = db.selectFrom('paymentCard').where('resellerId', '=', principal.resellerId).where('kept', '=', true);
    return principal.accountId === null ? q.where('accountId', 'is', null) : q.where('accountId', '=', principal.accountId);
  };
  const CARD_COLUMNS = ['id', 'last4', 'brand', 'holderName', 'expiryMonth', 'expiryYear', 'createdAt'] as const;
  const cardView = (c: {
    id: number | string;
    last4: string;
    brand: string;
    holderName: string;
    expiryMonth: number;
    expiryYear: number;
    createdAt: Date | string;
  }) => ({
    ...c,
    id: Number(c.id),
    createdAt: iso(c.createdAt)!,
  });

  /** Tokenises a card and records it; `kept` offers it for later payments. */
  async function saveCard(principal: Principal, card: CardDetails, kept = true) {
    const token = await adapters.card.tokenise(card);
    const row = await db
      .insertInto('paymentCard')
      .values({
        resellerId: principal.resellerId,
        accountId: principal.accountId,
        userId: principal.userId,
        processor: adapters.card.name,
        token: token.token,
        last4: token.last4,
        brand: token.brand,
        holderName: card.holderName,
        expiryMonth: card.expiryMonth,
        expiryYear: card.expiryYear,
        kept,
      })
      .returning([...CARD_COLUMNS])
      .executeTakeFirstOrThrow();
    return cardView(row);
  }

  app.get(
    '/portal/payments/methods/credit-cards',
    {
      config: PAY,
      schema: { tags, summary: "The caller's saved cards (last four digits, brand, holder, expiry)", response: { 200: { type: 'array', items: cardSchema } } },
    },
    async (request) =>
      (
        await cardsOf(principalOf(request))
          .select([...CARD_COLUMNS])
          .orderBy('id')
          .execute()
      ).map(cardView),
  );

  app.post(
    '/portal/payments/methods/credit-cards',
    {
      config: PAY,
      schema: {
        tags,
        summary: 'Saves a card: the processor tokenises it; the portal keeps the token, last four digits, brand, holder and expiry only',
        body: newCardSchema,
        response: { 201: cardSchema },
      },
    },
    async (request, reply) => {
      const card = checkCard(request.body as Record<string, unknown>, '');
      reply.code(201);
      return saveCard(principalOf(request), card);
    },
  );

  app.delete(
    '/portal/payments/methods/credit-cards/:id',
    {
      config: PAY,
      schema: { tags, summary: 'Removes a saved card', params: idParams('id', { max: Number.MAX_SAFE_INTEGER }), response: { 204: { type: 'null' } } },
    },
    async (request, reply) => {
      const { id } = request.params as { id: number };
      const r = await db
        .deleteFrom('paymentCard')
        .where('id', 'in', cardsOf(principalOf(request)).select('id').where('id', '=', id))
        .executeTakeFirst();
      if (!Number(r.numDeletedRows)) throw notFound();
      return reply.code(204).send();
    },
  );

  app.get(
    '/portal/payments/methods',
    {
      config: PAY,
      schema: {
        tags,
        summary: 'The methods the caller may pay with now, with their fee rates (STRIPE only when configured, MANUAL for the administrator)',
        response: {
          200: {
            type: 'array',
            items: {
              type: 'object',
              required: ['code', 'feeRate', 'credited'],
              properties: {
                code: { type: 'string', enum: [...PAYMENT_METHODS] },
                feeRate: { type: 'number' },
                credited: { type: 'string', enum: ['immediately', 'onConfirmation', 'afterReview'] },
              },
            },
          },
        },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const p = await effectiveParameters(db, principal.resellerId);
      const out: { code: PaymentMethod; feeRate: number; credited: string }[] = [
        { code: 'CREDIT_CARD', feeRate: p.creditCard.feeRate, credited: 'immediately' },
      ];
      if (adapters.stripe) out.push({ code: 'STRIPE', feeRate: p.creditCard.feeRate, credited: 'immediately' });
      if (p.crypto.enabled) out.push({ code: 'BIT_PAY', feeRate: p.crypto.feeRate, credited: 'onConfirmation' });
      out.push({ code: 'BANK_WIRE', feeRate: 0, credited: 'afterReview' });
      if (principal.isAdmin) out.push({ code: 'MANUAL', feeRate: 0, credited: 'immediately' });
      return out;
    },
  );

  app.get(
    '/portal/payments/currencies',
    {
      config: PAY,
      schema: {
        tags,
        summary: 'The currencies payments are made in (the ledge keeps US dollars)',
        response: {
          200: { type: 'array', items: { type: 'object', required: ['code', 'symbol'], properties: { code: { type: 'string' }, symbol: { type: 'string' } } } },
        },
      },
    },
    async () => PAYMENT_CURRENCIES.map((c) => ({ ...c })),
  );

  // Limits and fees.
  const limitsSchema = {
    type: 'object',
    required: ['dailyLimit', 'monthlyLimit', 'feeRate'],
    properties: { dailyLimit: money, monthlyLimit: money, feeRate: money, totalLimit: money, enabled: { type: 'boolean' } },
  };
  const parameterProps = Object.fromEntries(
    (Object.keys(PARAMETER_FIELDS) as ParameterField[]).map((f) => [
      f,
      f === 'cryptoEnabled'
        ? { type: ['boolean', 'null'], errorMessage: 'validation.invalid' }
        : f.endsWith('FeeRate')
          ? { type: ['number', 'null'], minimum: 0, maximum: 1, multipleOf: 0.0001, 'x-rule': 'range', errorMessage: 'payment.feeRate.invalid' }
          : { type: ['number', 'null'], minimum: 0, maximum: 99999999.99, multipleOf: 0.01, 'x-rule': 'range', errorMessage: 'payment.limit.invalid' },
    ]),
  );
  const parametersSchema = {
    type: 'object',
    required: ['resellerId', 'creditCard', 'crypto'],
    properties: {
      resellerId: { type: 'integer' },
      creditCard: limitsSchema,
      crypto: limitsSchema,
      provider: { type: 'object', properties: { dailyLimit: money, monthlyLimit: money }, description: "The provider-wide limits (the administrator's view)" },
      overrides: { type: 'object', properties: parameterProps, description: "The reseller's own settings; null takes the provider's default" },
      used: {
        type: 'object',
        description: "What the reseller's pending and confirmed payments already use",
        properties: { cardToday: money, cardMonth: money, cryptoToday: money, cryptoMonth: money, cryptoOutstanding: money },
      },
    },
  };

  async function parametersOf(principal: Principal, resellerId: number) {
    const p = await effectiveParameters(db, resellerId);
    const { rows } = await sql<Record<string, string>>`
      select
        coalesce(sum(credited_amount) filter (where method in ('CREDIT_CARD', 'STRIPE') and created_at >= date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'), 0)::text as "cardToday",
        coalesce(sum(credited_amount) filter (where method in ('CREDIT_CARD', 'STRIPE') and created_at >= date_trunc('month', now() at time zone 'UTC') at time zone 'UTC'), 0)::text as "cardMonth",
        coalesce(sum(credited_amount) filter (where method = 'BIT_PAY' and created_at >= date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'), 0)::text as "cryptoToday",
        coalesce(sum(credited_amount) filter (where method = 'BIT_PAY' and created_at >= date_trunc('month', now() at time zone 'UTC') at time zone 'UTC'), 0)::text as "cryptoMonth",
        coalesce(sum(credited_amount) filter (where method = 'BIT_PAY' and status = 'pending'), 0)::text as "cryptoOutstanding"
      from payment where reseller_id = ${resellerId} and status in ('pending', 'confirmed')`.execute(db);
    return {
      resellerId,
      creditCard: p.creditCard,
      crypto: p.crypto,
      ...(principal.isAdmin ? { provider: p.provider } : {}),
      overrides: await storedParameters(db, resellerId),
      used: Object.fromEntries(Object.entries(rows[0] ?? {}).map(([k, v]) => [k, Number(v)])),
    };
  }

  app.get(
    '/portal/payments/parameters',
    {
      config: PAY,
      schema: {
        tags,
        summary: "A reseller's effective limits and fee rates (reseller_id, else the caller's), its own settings and what it has used",
        querystring: {
          type: 'object',
          properties: { reseller_id: idSchema({ min: INT_MIN }) },
          additionalProperties: false,
          errorMessage: { additionalProperties: 'validation.unknownField' },
        },
        response: { 200: parametersSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const resellerId = await resellerInSubtree(db, principal, (request.query as { reseller_id?: number }).reseller_id ?? principal.resellerId);
      return parametersOf(principal, resellerId);
    },
  );

  app.put(
    '/portal/payments/parameters/resellers/:resellerId',
    {
      config: { privilege: ['PaymentMethods', 'Resellers'] },
      schema: {
        tags,
        summary:
          "Sets a reseller's limits and fee rates (null takes the default); only from above the reseller. Reseller -1: the provider's defaults and provider-wide limits (administrator)",
        params: idParams('resellerId', { min: INT_MIN }),
        body: { type: 'object', properties: parameterProps, additionalProperties: false, errorMessage: { additionalProperties: 'validation.unknownField' } },
        response: { 200: parametersSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { resellerId } = request.params as { resellerId: number };
      const body = request.body as Partial<Record<ParameterField, number | boolean | null>>;
      const defaults = resellerId === ADMIN_RESELLER_ID;
      if (principal.accountId !== null && !principal.isAdmin) throw forbidden();
      if (defaults) {
        if (!principal.isAdmin) throw forbidden();
      } else {
        await resellerInSubtree(db, principal, resellerId);
        // Nobody sets its own limits: a reseller's are set from above it.
        if (resellerId === principal.resellerId) throw forbidden();
        const misplaced = PROVIDER_ONLY.filter((f) => body[f] !== undefined && body[f] !== null);
        if (misplaced.length) throw invalid(misplaced.map((f) => fieldError(f, 'providerOnly', 'payment.parameters.providerOnly')));
      }
      const values: Record<string, unknown> = {};
      for (const [field, col] of Object.entries(PARAMETER_FIELDS)) {
        const v = body[field as ParameterField];
        if (v === undefined) continue;
        if (defaults && v === null) throw bad(field, 'validation.required', 'required');
        values[col] = v;
      }
      const cols = Object.keys(values);
      await db.transaction().execute(async (trx) => {
        await sql`insert into payment_parameters (reseller_id) values (${resellerId}) on conflict do nothing`.execute(trx);
        if (cols.length)
          await sql`update payment_parameters set ${sql.join(
            cols.map((c) => sql`${sql.ref(c)} = ${values[c]}`),
          )}, updated_at = now(), updated_by = ${principal.userId} where reseller_id = ${resellerId}`.execute(trx);
      });
      return parametersOf(principal, resellerId);
    },
  );

  // Paying.
  app.post(
    '/portal/payments/submit/calculate-fee',
    {
      config: PAY,
      schema: {
        tags,
        summary: 'Previews a payment: the amount credited, the fee on top and what the payer pays',
        body: {
          type: 'object',
          required: ['method', 'amount'],
          properties: { method: { type: 'string', enum: [...PAYMENT_METHODS], errorMessage: 'payment.method.invalid' }, amount: amountProperty },
          additionalProperties: false,
          errorMessage: { additionalProperties: 'validation.unknownField', required: { amount: 'validation.amount.required', method: 'validation.required' } },
        },
        response: {
          200: {
            type: 'object',
            required: ['method', 'amount', 'fee', 'creditedAmount', 'paidAmount', 'feeRate', 'currency'],
            properties: {
              method: { type: 'string' },
              amount: money,
              fee: money,
              creditedAmount: money,
              paidAmount: money,
              feeRate: money,
              currency: { type: 'string' },
            },
          },
        },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const body = request.body as { method: PaymentMethod; amount: unknown };
      const cents = amountCents(body.amount, body.method !== 'MANUAL');
      const rate = await feeRateOf(db, principal.resellerId, body.method);
      const fee = feeCents(cents, rate);
      return {
        method: body.method,
        amount: cents / 100,
        fee: fee / 100,
        creditedAmount: cents / 100,
        paidAmount: (cents + fee) / 100,
        feeRate: rate,
        currency: LEDGER_CURRENCY,
      };
    },
  );

  /** Waits for a payment another request is charging (the same idempotency key) to leave pending. */
  async function settled(id: number): Promise<PaymentView> {
    const end = Date.now() + REPLAY_WAIT_MS;
    for (;;) {
      const p = await paymentById(db, id);
      if (p.status !== 'pending' || p.method === 'BIT_PAY' || p.method === 'BANK_WIRE' || Date.now() > end) return p;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** The answer for a payment as it stands: 201 (or 200 for a replay) with the payment, 402 when it was refused. */
  function answer(p: PaymentView) {
    if (p.status === 'declined') throw new PaymentRefused(p.method === 'BIT_PAY' ? 'method' : 'card', 'declined', p.failure ?? 'payment.failure', p);
    if (p.status === 'failed') throw new PaymentRefused(p.method === 'BIT_PAY' ? 'method' : 'card', 'failed', p.failure ?? 'payment.failure', p);
    return p;
  }

  app.post(
    '/portal/payments/submit',
    {
      config: PAY,
      schema: {
        tags,
        summary:
          'Pays into the balance: CREDIT_CARD (a saved card by cardId, or a new card, saved with saveCard) credited at once; BIT_PAY answers an invoice and is credited when it confirms; STRIPE charges a Stripe payment method (pm_…). Idempotency-Key header (or idempotencyKey): the same key answers the first payment',
        body: {
          type: 'object',
          required: ['method', 'amount'],
          properties: {
            method: { type: 'string', enum: ['CREDIT_CARD', 'BIT_PAY', 'STRIPE'], errorMessage: 'payment.method.invalid' },
            amount: amountProperty,
            cardId: { ...idSchema({ max: Number.MAX_SAFE_INTEGER }, 'type'), description: 'A saved card of the caller' },
            card: { ...newCardSchema, description: 'A new card (instead of cardId)' },
            saveCard: { type: 'boolean', description: 'Keep the new card for later payments' },
            paymentMethodId: { type: 'string', minLength: 1, maxLength: 255, description: 'STRIPE: the payment method Stripe.js made' },
            description: { type: 'string', maxLength: 250, errorMessage: 'validation.description.invalid' },
            idempotencyKey: idempotencyProperty,
          },
          additionalProperties: false,
          errorMessage: { additionalProperties: 'validation.unknownField', required: { amount: 'validation.amount.required', method: 'validation.required' } },
        },
        response: { 200: paymentSchema, 201: paymentSchema },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const body = request.body as {
        method: 'CREDIT_CARD' | 'BIT_PAY' | 'STRIPE';
        amount: unknown;
        cardId?: number;
        card?: Record<string, unknown>;
        saveCard?: boolean;
        paymentMethodId?: string;
        description?: string;
        idempotencyKey?: string;
      };
      const key = idempotencyKeyOf(request, body);
      const cents = amountCents(body.amount, true);
      let source = '';
      let cardId: number | null = null;
      if (body.method === 'CREDIT_CARD') {
        if (body.cardId !== undefined && body.card) throw bad('card', 'payment.card.oneOf', 'oneOf');
        if (body.cardId !== undefined) {
          const saved = await cardsOf(principal).select(['id', 'token']).where('id', '=', body.cardId).executeTakeFirst();
          if (!saved) throw bad('cardId', 'validation.reference.unknown', 'reference');
          source = saved.token;
          cardId = Number(saved.id);
        } else if (body.card) {
          // Recorded for the payment's sake, kept for later ones only once its charge goes through (below).
          const saved = await saveCard(principal, checkCard(body.card), false);
          cardId = saved.id;
          source = (await db.selectFrom('paymentCard').select('token').where('id', '=', saved.id).executeTakeFirstOrThrow()).token;
        } else throw bad('cardId', 'payment.card.required', 'required');
      } else if (body.method === 'STRIPE') {
        if (!adapters.stripe) throw bad('method', 'payment.method.unavailable', 'unavailable');
        if (!body.paymentMethodId) throw bad('paymentMethodId', 'validation.required', 'required');
        source = body.paymentMethodId;
      }
      const rate = await feeRateOf(db, principal.resellerId, body.method);
      const fee = feeCents(cents, rate);
      const recorded = await recordPayment(db, {
        resellerId: principal.resellerId,
        accountId: principal.accountId,
        userId: principal.userId,
        method: body.method,
        credited: cents,
        fee,
        description: body.description?.trim() || null,
        cardId,
        idempotencyKey: key,
      });
      if (recorded.replay) {
        if (recorded.method !== body.method || recorded.credited !== cents)
          throw conflict([fieldError('idempotencyKey', 'reused', 'payment.idempotencyKey.reused')]);
        const p = await settled(recorded.id);
        const out = answer(await withInvoice(p));
        return reply.code(200).send(out);
      }
      const id = recorded.id;
      if (body.method === 'BIT_PAY') {
        try {
          const invoice = await adapters.crypto.createInvoice({
            amount: fromCents(cents + fee),
            currency: LEDGER_CURRENCY,
            orderId: `payment-${id}`,
            description: body.description ?? 'Balance top up',
          });
          await db.updateTable('payment').set({ processorRef: invoice.id }).where('id', '=', id).execute();
        } catch (e) {
          request.log.warn({ err: e, paymentId: id }, 'crypto invoice not created');
          await endPayment(db, id, 'failed', 'payment.crypto.failure');
        }
        return reply.code(201).send(answer(await withInvoice(await paymentById(db, id))));
      }
      // The source is kept (a processor's token or payment method, never a card number) so a charge a stopped server left
      // open can be driven again with the same idempotency key.
      await db.updateTable('payment').set({ processorRef: source }).where('id', '=', id).where('status', '=', 'pending').execute();
      await chargePayment(id, body.method, source, cents + fee, body.description ?? `Payment ${id}`);
      const charged = await paymentById(db, id);
      if (body.card && body.saveCard && cardId !== null && charged.status === 'confirmed')
        await db.updateTable('paymentCard').set({ kept: true }).where('id', '=', cardId).execute();
      return reply.code(201).send(answer(charged));
    },
  );

  /** A crypto payment with where its invoice is paid. */
  async function withInvoice(p: PaymentView): Promise<PaymentView> {
    if (p.method !== 'BIT_PAY' || !p.processorRef) return p;
    const invoice = await adapters.crypto.getInvoice(p.processorRef).catch(() => undefined);
    return { ...p, invoiceUrl: invoice?.url ?? null };
  }

  app.get(
    '/portal/payments/bit-pay/:id',
    {
      config: PAY,
      schema: {
        tags,
        summary: "A crypto payment's invoice status; a confirmed invoice credits the payment (once), an expired or invalid one fails it",
        params: idParams('id', { max: Number.MAX_SAFE_INTEGER }),
        response: {
          200: {
            type: 'object',
            required: ['paymentId', 'invoiceStatus', 'payment'],
            properties: {
              paymentId: { type: 'integer' },
              invoiceId: { type: 'string', nullable: true },
              invoiceStatus: { type: 'string', enum: ['new', 'paid', 'confirmed', 'complete', 'expired', 'invalid'] },
              invoiceUrl: { type: 'string', nullable: true },
              payment: paymentSchema,
            },
          },
        },
      },
    },
    async (request) => {
      const { id } = request.params as { id: number };
      const p = await visiblePayment(db, principalOf(request), id);
      if (p.method !== 'BIT_PAY') throw notFound();
      const ref = (await db.selectFrom('payment').select('processorRef').where('id', '=', id).executeTakeFirstOrThrow()).processorRef;
      if (!ref) return { paymentId: id, invoiceId: null, invoiceStatus: 'invalid', invoiceUrl: null, payment: p };
      const invoice = p.status === 'pending' ? await settleInvoice(id, ref) : await adapters.crypto.getInvoice(ref);
      return { paymentId: id, invoiceId: invoice.id, invoiceStatus: invoice.status, invoiceUrl: invoice.url || null, payment: await paymentById(db, id) };
    },
  );

  // Bank wire: amount, reference and proof in one multipart form.
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, { limits: { fileSize: PROOF_MAX_BYTES - 1, files: 1, fields: 5, fieldSize: 1000 } });
    scope.post(
      '/portal/payments/submit/bank-wire',
      {
        config: PAY,
        schema: {
          tags,
          consumes: ['multipart/form-data'],
          summary:
            'Records a bank wire awaiting the administrator: multipart fields amount, reference (6 to 16 characters), description (optional) and file (the proof: PDF, PNG or JPEG by content, less than 4 MB). Idempotency-Key header accepted',
          response: { 200: paymentSchema, 201: paymentSchema },
        },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        if (!request.isMultipart()) throw bad('file', 'validation.file.required', 'required');
        const fields: Record<string, string> = {};
        let file: { bytes: Buffer; filename: string } | undefined;
        try {
          for await (const part of request.parts()) {
            if (part.type === 'file') {
              if (part.fieldname !== 'file') {
                await part.toBuffer();
                continue;
              }
              file = { bytes: await part.toBuffer(), filename: part.filename };
            } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
          }
        } catch (e) {
          const code = (e as { code?: string }).code;
          if (code === 'FST_REQ_FILE_TOO_LARGE') throw bad('file', 'validation.file.tooLarge', 'size');
          if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_FILES_LIMIT') throw bad('file', 'validation.invalid', 'parts');
          throw e;
        }
        checkStorable(fields, '');
        const errors = [];
        const amountMsg = amountMessage(fields.amount, true);
        if (amountMsg) errors.push(fieldError('amount', amountMsg === 'validation.amount.required' ? 'required' : 'range', amountMsg));
        const referenceMsg = referenceMessage(fields.reference);
        if (referenceMsg) errors.push(fieldError('reference', referenceMsg.endsWith('required') ? 'required' : 'length', referenceMsg));
        const description = fields.description?.trim() || null;
        if (description && description.length > 250) errors.push(fieldError('description', 'maxLength', 'validation.description.invalid'));
        if (!file || !file.bytes.length) errors.push(fieldError('file', 'required', 'validation.file.required'));
        let mime: string | undefined;
        if (file?.bytes.length) {
          mime = (await fileTypeFromBuffer(file.bytes))?.mime;
          if (!mime || !PROOF_TYPES.has(mime)) errors.push(fieldError('file', 'type', 'payment.proof.type'));
        }
        if (errors.length) throw invalid(errors);
        // Control characters and path separators leave the stored name.
        const filename = Array.from(file!.filename || 'proof', (c) => (c < ' ' || c === '/' || c === '\\' ? '_' : c))
          .join('')
          .slice(0, 200);
        const key = idempotencyKeyOf(request);
        const cents = toCents(fields.amount.trim());
        const recorded = await recordPayment(
          db,
          {
            resellerId: principal.resellerId,
            accountId: principal.accountId,
            userId: principal.userId,
            method: 'BANK_WIRE',
            credited: cents,
            fee: 0,
            reference: fields.reference.trim(),
            description,
            idempotencyKey: key,
          },
          async (trx, id) => {
            await trx
              .insertInto('paymentProof')
              .values({ paymentId: id, fileName: filename, mimeType: mime!, size: file!.bytes.length, content: file!.bytes })
              .execute();
          },
        );
        if (recorded.replay && (recorded.method !== 'BANK_WIRE' || recorded.credited !== cents))
          throw conflict([fieldError('idempotencyKey', 'reused', 'payment.idempotencyKey.reused')]);
        reply.code(recorded.replay ? 200 : 201);
        return paymentById(db, recorded.id);
      },
    );
  });

  app.post(
    '/portal/payments/submit/manual',
    {
      config: ADMIN,
      schema: {
        tags,
        summary: "The administrator's manual payment (negative to take money back), credited at once",
        body: {
          type: 'object',
          required: ['resellerId', 'amount', 'description'],
          properties: {
            resellerId: idSchema({ min: INT_MIN }, 'type'),
            amount: amountProperty,
            description: { type: 'string', maxLength: 250, errorMessage: 'validation.description.invalid' },
            idempotencyKey: idempotencyProperty,
          },
          additionalProperties: false,
          errorMessage: {
            additionalProperties: 'validation.unknownField',
            required: { amount: 'validation.amount.required', resellerId: 'validation.required', description: 'validation.description.invalid' },
          },
        },
        response: { 200: paymentSchema, 201: paymentSchema },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const body = request.body as { resellerId: number; amount: unknown; description: string; idempotencyKey?: string };
      const errors = [];
      const amountMsg = amountMessage(body.amount, false);
      if (amountMsg) errors.push(fieldError('amount', amountMsg === 'validation.amount.required' ? 'required' : 'range', amountMsg));
      const description = body.description.trim();
      if (description.length < 2 || description.length > 250) errors.push(fieldError('description', 'length', 'validation.description.invalid'));
      const reseller = await db.selectFrom('reseller').select('id').where('id', '=', body.resellerId).executeTakeFirst();
      if (!reseller) errors.push(fieldError('resellerId', 'reference', 'validation.reference.unknown'));
      if (errors.length) throw invalid(errors);
      const cents = toCents(typeof body.amount === 'string' ? body.amount.trim() : (body.amount as number));
      const recorded = await recordPayment(db, {
        resellerId: body.resellerId,
        accountId: null,
        userId: principal.userId,
        method: 'MANUAL',
        credited: cents,
        fee: 0,
        description,
        idempotencyKey: idempotencyKeyOf(request, body),
      });
      if (recorded.replay) {
        if (recorded.method !== 'MANUAL' || recorded.credited !== cents)
          throw conflict([fieldError('idempotencyKey', 'reused', 'payment.idempotencyKey.reused')]);
      } else await confirmPayment(db, recorded.id, { confirmationCode: `MANUAL-${recorded.id}` });
      reply.code(recorded.replay ? 200 : 201);
      return paymentById(db, recorded.id);
    },
  );

  app.post(
    '/portal/payments/reset',
    {
      config: ADMIN,
      schema: {
        tags,
        summary: 'Reverses confirmed payments, each with a reset row of its credited amount in the ledger; answers the outcome of each id',
        body: {
          type: 'object',
          required: ['paymentIds'],
          properties: {
            paymentIds: {
              type: 'array',
              minItems: 1,
              maxItems: 100,
              uniqueItems: true,
              items: idSchema({ max: Number.MAX_SAFE_INTEGER }, 'type'),
              errorMessage: { minItems: 'validation.required', maxItems: 'payment.reset.tooMany', uniqueItems: 'validation.invalid' },
            },
          },
          additionalProperties: false,
          errorMessage: { additionalProperties: 'validation.unknownField', required: { paymentIds: 'validation.required' } },
        },
        response: {
          200: {
            type: 'object',
            required: ['results'],
            properties: {
              results: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['paymentId', 'outcome'],
                  properties: {
                    paymentId: { type: 'integer' },
                    outcome: { type: 'string', enum: ['reset', 'notFound', 'notConfirmed'] },
                    ledgerEntryId: { type: 'integer' },
                  },
                },
              },
            },
          },
        },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const results = [];
      for (const paymentId of (request.body as { paymentIds: number[] }).paymentIds)
        results.push({ paymentId, ...(await resetPayment(db, paymentId, principal.userId)) });
      return { results };
    },
  );

  // The administrator's wire queue.
  app.get(
    '/portal/payments/bank-wires/pending',
    {
      config: ADMIN,
      schema: {
        tags,
        summary: 'Bank wires awaiting confirmation, oldest first',
        querystring: {
          type: 'object',
          properties: { page: { ...pageNumberSchema(), default: 0 }, size: { ...pageSizeSchema(), default: 50 } },
          additionalProperties: false,
          errorMessage: { additionalProperties: 'validation.unknownField' },
        },
        response: { 200: pageSchema(paymentSchema) },
      },
    },
    async (request) => {
      const { page, size } = request.query as { page: number; size: number };
      const where = sql`where p.method = 'BANK_WIRE' and p.status = 'pending'`;
      const { rows: count } = await sql<{ n: string }>`select count(*)::text as n from payment p ${where}`.execute(db);
      const { rows } = await sql<PaymentRow>`${SELECT_PAYMENT} ${where} order by p.id limit ${size} offset ${page * size}`.execute(db);
      const total = Number(count[0].n);
      return pageAnswer(rows.map(view), total, page, size);
    },
  );

  /** The administrator's decision on a pending bank wire: `settle` ends it, or says it was not pending. */
  const decisions = [
    {
      action: 'confirm',
      summary: 'Confirms a pending bank wire: credits it once',
      settle: (id: number, p: { reference: string | null }) => confirmPayment(db, id, { confirmationCode: `WIRE-${p.reference ?? id}` }),
    },
    {
      action: 'reject',
      summary: 'Rejects a pending bank wire: nothing is credited',
      settle: (id: number) => endPayment(db, id, 'declined', 'payment.wire.rejected'),
    },
  ];
  for (const { action, summary, settle } of decisions) {
    app.post(
      `/portal/payments/bank-wires/:id/${action}`,
      {
        config: ADMIN,
        schema: { tags, summary, params: idParams('id', { max: Number.MAX_SAFE_INTEGER }), response: { 200: paymentSchema } },
      },
      async (request) => {
        const { id } = request.params as { id: number };
        const p = await paymentById(db, id);
        if (p.method !== 'BANK_WIRE') throw conflict([fieldError('id', 'method', 'payment.wire.only')]);
        if (!(await settle(id, p))) throw conflict([fieldError('id', 'status', 'payment.notPending')]);
        return paymentById(db, id);
      },
    );
  }

  app.get(
    '/portal/payments/bank-wires/:id/proof',
    {
      config: ADMIN,
      schema: { tags, summary: "A bank wire's proof, as uploaded (PDF, PNG or JPEG)", params: idParams('id', { max: Number.MAX_SAFE_INTEGER }) },
    },
    async (request, reply) => {
      const { id } = request.params as { id: number };
      const proof = await db.selectFrom('paymentProof').select(['fileName', 'mimeType', 'content', 'size']).where('paymentId', '=', id).executeTakeFirst();
      if (!proof) throw notFound();
      const ascii = proof.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
      return reply
        .header('Content-Type', proof.mimeType)
        .header('Content-Length', String(proof.content.length))
        .header('Content-Disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(proof.fileName)}`)
        .header('X-Content-Type-Options', 'nosniff')
        .send(proof.content);
    },
  );

  // Lists.
  async function page(where: ReturnType<typeof sql>, body: ListBody) {
    const filters = [where];
    if (body.method) filters.push(sql`p.method = ${body.method}`);
    if (body.status) filters.push(sql`p.status = ${body.status}`);
    if (body.from) filters.push(sql`p.created_at >= ${body.from}::date at time zone 'UTC'`);
    if (body.to) filters.push(sql`p.created_at < (${body.to}::date + 1) at time zone 'UTC'`);
    if (body.from && body.to && body.from > body.to) throw bad('to', 'validation.endDate.afterStart', 'order');
    const search = body.searchKey?.trim();
    if (search) {
      const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      filters.push(sql`(p.reference ilike ${like} or p.description ilike ${like} or p.confirmation_code ilike ${like} or p.id::text = ${search})`);
    }
    const clause = sql`where ${sql.join(filters, sql` and `)}`;
    const size = body.page?.size ?? 50;
    const number = body.page?.page ?? 0;
    const column = SORT_COLUMNS[body.sortBy ?? 'id'] ?? 'p.id';
    const dir = body.sortDir === 'asc' ? sql`asc` : sql`desc`;
    const { rows: count } = await sql<{ n: string }>`select count(*)::text as n from payment p ${clause}`.execute(db);
    const { rows } = await sql<PaymentRow>`${SELECT_PAYMENT} ${clause}
      order by ${sql.raw(column)} ${dir} nulls last, p.id ${dir} limit ${size} offset ${number * size}`.execute(db);
    const total = Number(count[0].n);
    return pageAnswer(rows.map(view), total, number, size);
  }

  app.post(
    '/portal/payments/paged',
    {
      config: PAY,
      schema: {
        tags,
        summary:
          "A reseller's payments (resellerId, else the caller's; includeSubResellers for those below it), filtered by method, status, dates (from, to, UTC) and searchKey (reference, description, confirmation or id), sorted and paged",
        body: listBody(true),
        response: { 200: pageSchema(paymentSchema) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const body = (request.body ?? {}) as ListBody;
      const resellerId = await resellerInSubtree(db, principal, body.resellerId ?? principal.resellerId);
      const filters = [];
      if (body.includeSubResellers && principal.accountId === null) {
        const path = (await db.selectFrom('reseller').select('path').where('id', '=', resellerId).executeTakeFirstOrThrow()).path;
        filters.push(sql`p.reseller_id in (select id from reseller where path like ${`${path}%`})`);
      } else filters.push(sql`p.reseller_id = ${resellerId}`);
      if (principal.accountId !== null && !principal.isAdmin) filters.push(sql`p.account_id = ${principal.accountId}`);
      if (body.accountId !== undefined) {
        await visibleAccount(db, principal, body.accountId);
        filters.push(sql`p.account_id = ${body.accountId}`);
      }
      return page(sql.join(filters, sql` and `), body);
    },
  );

  app.get(
    '/portal/payments/:id',
    {
      config: PAY,
      schema: { tags, summary: 'One payment the caller may see', params: idParams('id', { max: Number.MAX_SAFE_INTEGER }), response: { 200: paymentSchema } },
    },
    async (request) => withInvoice(await visiblePayment(db, principalOf(request), (request.params as { id: number }).id)),
  );

  const ACCOUNT_READERS = { privilege: ['PaymentMethods', 'Accounts'] };
  app.post(
    '/portal/accounts/:id/payments/paged',
    {
      config: ACCOUNT_READERS,
      schema: {
        tags,
        summary: "An account's payments, filtered, sorted and paged as the reseller's",
        body: listBody(false),
        response: { 200: pageSchema(paymentSchema) },
      },
    },
    async (request) => {
      const account = await visibleAccount(db, principalOf(request), (request.params as { id: number }).id);
      return page(sql`p.account_id = ${account.accountId}`, (request.body ?? {}) as ListBody);
    },
  );

  app.get(
    '/portal/accounts/:id/payments',
    {
      config: ACCOUNT_READERS,
      schema: {
        tags,
        summary: "An account's payments, newest first (at most 500); unprocessedOnly: those still awaiting credit",
        querystring: {
          type: 'object',
          properties: { unprocessedOnly: { type: 'boolean', default: false } },
          additionalProperties: false,
          errorMessage: { additionalProperties: 'validation.unknownField' },
        },
        response: { 200: { type: 'array', items: paymentSchema } },
      },
    },
    async (request) => {
      const account = await visibleAccount(db, principalOf(request), (request.params as { id: number }).id);
      const pending = (request.query as { unprocessedOnly?: boolean }).unprocessedOnly === true;
      const { rows } = await sql<PaymentRow>`${SELECT_PAYMENT} where p.account_id = ${account.accountId} ${pending ? sql`and p.status = 'pending'` : sql``}
        order by p.id desc limit ${MAX_PAGE_SIZE}`.execute(db);
      return rows.map(view);
    },
  );
});
