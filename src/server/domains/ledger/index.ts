/**
 * The reseller ledger: every movement of a reseller's money is one row with the balance after it, so the
 * balance is the latest row's and the history explains it. Amounts are exact decimals, added up by the database
 * (numeric), never by floating point. A posting locks the reseller's row, so two postings for one reseller happen
 * one after the other and each sees the other's balance.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { conflict, fieldError, invalid } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { idSchema, INT_MAX, INT_MIN, objectBody, queryId } from '../../http/input';
import type { Principal } from '../../http/principal';
import type { Database } from '../../db/types';
import { resellerInSubtree } from '../resellers/subtree';

/** The portal keeps reseller money in US dollars, its default currency. */
export const LEDGER_CURRENCY = 'USD';

export type LedgerKind = 'opening' | 'purchase' | 'payment' | 'refund' | 'reset' | 'charge' | 'adjustment';

/** How a payment (or its reset) was made: the specification's method codes, and MANUAL for the administrator's. */
export type PaymentMethodCode = 'CREDIT_CARD' | 'BIT_PAY' | 'BANK_WIRE' | 'STRIPE' | 'MANUAL';

export interface Posting {
  resellerId: number;
  /** Exact decimal text or a number with at most two decimals; negative for a debit. */
  amount: string | number;
  kind: LedgerKind;
  reference?: string | null;
  /** The method of a payment or reset. */
  method?: PaymentMethodCode | null;
  /** What the payer paid on top of `amount` (exact decimal text or number, never negative). */
  fee?: string | number;
  /** The user who made the movement; none for the system's own. */
  userId?: number | null;
  /** The processor's confirmation of a payment. */
  confirmationCode?: string | null;
  /** Refuse the posting when it would take the balance below zero (a purchase). */
  mustCover?: boolean;
}

/** A reseller's balance as exact decimal text ("0.00" before any movement). */
export async function balanceOf(db: Kysely<Database>, resellerId: number): Promise<string> {
  const { rows } = await sql<{ balance: string }>`
    select coalesce((select balance_after from ledger_entry where reseller_id = ${resellerId} order by id desc limit 1), 0)::numeric(14, 2)::text as balance`.execute(
    db,
  );
  return rows[0].balance;
}

/**
 * Writes one movement inside the caller's transaction and answers its id and the balance after it. With
 * `mustCover`, a movement the balance and credit limit cannot cover is refused with 409 naming the rule, and nothing is written.
 */
export async function post(trx: Kysely<Database>, posting: Posting): Promise<{ id: number; balanceAfter: string }> {
  // `no key update`: the posting's own inserts already hold key-share locks on the reseller row (foreign keys),
  // which a plain `for update` would wait on across two postings, a deadlock.
  await sql`select id from reseller where id = ${posting.resellerId} for no key update`.execute(trx);
  const amount = String(posting.amount);
  // A purchase may use the reseller's credit limit: it is refused only past it (available credit = limit + balance).
  const { rows } = await sql<{ after: string; short: boolean }>`
    select b.after::text as after, b.after < -coalesce((select credit_limit from reseller_standing where reseller_id = ${posting.resellerId}), 0) as short from (
      select coalesce((select balance_after from ledger_entry where reseller_id = ${posting.resellerId} order by id desc limit 1), 0)
        + ${amount}::numeric(14, 2) as after) b`.execute(trx);
  if (posting.mustCover && rows[0].short) throw conflict([fieldError('balance', 'insufficientBalance', 'ledger.insufficientBalance')]);
  const row = await trx
    .insertInto('ledgerEntry')
    .values({
      resellerId: posting.resellerId,
      amount,
      currency: LEDGER_CURRENCY,
      kind: posting.kind,
      reference: posting.reference ?? null,
      method: posting.method ?? null,
      fee: String(posting.fee ?? 0),
      userId: posting.userId ?? null,
      confirmationCode: posting.confirmationCode ?? null,
      balanceAfter: rows[0].after,
    })
    .returning(['id', sql<string>`balance_after::text`.as('balanceAfter')])
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), balanceAfter: row.balanceAfter as string };
}

/** The reseller a ledger call names (`reseller_id`, the caller's own by default), if the caller may see it. */
const resellerOf = (db: Kysely<Database>, request: FastifyRequest, principal: Principal) =>
  resellerInSubtree(db, principal, queryId(request, 'reseller_id', { min: INT_MIN }) ?? principal.resellerId);

/** The optional `reseller_id` query of the ledger reads. */
const resellerQuery = { type: 'object', properties: { reseller_id: idSchema({ min: INT_MIN }) } };

const DAY_MS = 86_400_000;
const INTERVAL_DAYS = { day: 1, week: 7, month: 28 } as const;
/** A balance history has at most this many points (a year and a half of days). */
const MAX_POINTS = 550;

const balanceHistorySchema = {
  type: 'object',
  required: ['resellerId', 'currency', 'interval', 'points'],
  properties: {
    resellerId: { type: 'integer' },
    currency: { type: 'string' },
    interval: { type: 'string', enum: ['day', 'week', 'month'] },
    points: {
      type: 'array',
      items: {
        type: 'object',
        required: ['date', 'balance', 'credits', 'debits'],
        properties: {
          date: { type: 'string', format: 'date', description: 'The first day of the period (UTC)' },
          balance: { type: 'number', description: 'The balance at the end of the period' },
          credits: { type: 'number', description: 'The sum of the movements up in the period' },
          debits: { type: 'number', description: 'The sum of the movements down in the period (negative)' },
        },
      },
    },
  },
};

/** Who reads balances: those who sell packages, manage resellers or pay. */
const READERS = ['PrePaidPackages', 'Resellers', 'PaymentMethods'];

export function registerLedgerRoutes(app: FastifyInstance, db: Kysely<Database>) {
  const config = { privilege: READERS };
  const tags = ['ledger'];

  app.get(
    '/portal/ledger/balance',
    {
      config,
      schema: {
        tags,
        querystring: resellerQuery,
        summary: "A reseller's balance (reseller_id, else the caller's), with its credit limit and available credit",
        response: {
          200: {
            type: 'object',
            required: ['resellerId', 'balance', 'currency', 'creditLimit', 'availableCredit'],
            properties: {
              resellerId: { type: 'integer' },
              balance: { type: 'number' },
              currency: { type: 'string' },
              creditLimit: { type: 'number', description: 'A purchase is refused only past -creditLimit' },
              availableCredit: { type: 'number', description: 'Credit limit plus balance' },
            },
          },
        },
      },
    },
    async (request) => {
      const resellerId = await resellerOf(db, request, principalOf(request));
      const standing = await db
        .selectFrom('resellerStanding')
        .select(['creditLimit', 'availableCredit'])
        .where('resellerId', '=', resellerId)
        .executeTakeFirst();
      return {
        resellerId,
        balance: Number(await balanceOf(db, resellerId)),
        currency: LEDGER_CURRENCY,
        creditLimit: Number(standing?.creditLimit ?? 0),
        availableCredit: Number(standing?.availableCredit ?? 0),
      };
    },
  );

  app.get(
    '/portal/ledger/entries',
    { config, schema: { tags, querystring: resellerQuery, summary: "A reseller's money movements, newest first (reseller_id, page, size)" } },
    async (request) => {
      const resellerId = await resellerOf(db, request, principalOf(request));
      const query = request.query as { page?: string; size?: string };
      const page = Number(query.page ?? 0);
      const size = Number(query.size ?? 50);
      if (!Number.isInteger(page) || page < 0 || page > INT_MAX) throw invalid([fieldError('page', 'minimum', 'validation.page.invalid')]);
      if (!Number.isInteger(size) || size < 1 || size > 500) throw invalid([fieldError('size', 'maximum', 'validation.pageSize.invalid')]);
      const total = Number(
        (
          await db
            .selectFrom('ledgerEntry')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('resellerId', '=', resellerId)
            .executeTakeFirst()
        )?.n ?? 0,
      );
      const rows = await db
        .selectFrom('ledgerEntry')
        .select(['id', 'resellerId', 'amount', 'currency', 'kind', 'reference', 'createdAt', 'balanceAfter'])
        .where('resellerId', '=', resellerId)
        .orderBy('id', 'desc')
        .limit(size)
        .offset(page * size)
        .execute();
      return {
        items: rows.map((r) => ({ ...r, id: Number(r.id), amount: Number(r.amount), balanceAfter: Number(r.balanceAfter) })),
        totalItemsCount: total,
        totalPageCount: Math.max(1, Math.ceil(total / size)),
        currentPage: page,
      };
    },
  );

  app.post(
    '/portal/graphs/balanceHistory',
    {
      config: { privilege: [...READERS, 'Dashboard'] },
      schema: {
        tags: ['graphs'],
        summary: "A reseller's closing balance per day, week or month, with the credits and debits of each",
        body: objectBody({
          resellerId: idSchema({ min: INT_MIN }),
          from: { type: 'string', format: 'date', errorMessage: 'validation.date.invalid' },
          to: { type: 'string', format: 'date', errorMessage: 'validation.date.invalid' },
          interval: { type: 'string', enum: ['day', 'week', 'month'], errorMessage: 'validation.interval.invalid' },
        }),
        response: { 200: balanceHistorySchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const body = request.body as { resellerId?: number; from?: string; to?: string; interval?: 'day' | 'week' | 'month' };
      const resellerId = await resellerInSubtree(db, principal, body.resellerId ?? principal.resellerId);
      const interval = body.interval ?? 'day';
      const to = body.to ?? new Date().toISOString().slice(0, 10);
      const from = body.from ?? new Date(Date.parse(`${to}T00:00:00Z`) - 29 * DAY_MS).toISOString().slice(0, 10);
      if (from > to) throw invalid([fieldError('to', 'order', 'validation.endDate.afterStart')]);
      const points = (Date.parse(to) - Date.parse(from)) / DAY_MS / INTERVAL_DAYS[interval] + 1;
      if (points > MAX_POINTS) throw invalid([fieldError('from', 'maxItems', 'validation.history.tooLong')]);
      // Buckets in UTC; each point's balance is the last movement's balance after, before the bucket ends (carried
      // forward through quiet days), found by a backward probe of the (reseller, time) index.
      const { rows } = await sql<{ date: string; balance: string; credits: string; debits: string }>`
        with buckets as (
          select b as start, b + ${sql.lit(`1 ${interval}`)}::interval as stop
          from generate_series(date_trunc(${interval}, ${from}::timestamp), ${to}::timestamp, ${sql.lit(`1 ${interval}`)}::interval) b
        )
        select to_char(k.start, 'YYYY-MM-DD') as date,
          coalesce((select l.balance_after from ledger_entry l
            where l.reseller_id = ${resellerId} and l.created_at < k.stop at time zone 'UTC'
            order by l.created_at desc, l.id desc limit 1), 0)::numeric(14, 2)::text as balance,
          coalesce(sum(greatest(m.amount, 0)), 0)::numeric(14, 2)::text as credits,
          coalesce(sum(least(m.amount, 0)), 0)::numeric(14, 2)::text as debits
        from buckets k
        left join ledger_entry m on m.reseller_id = ${resellerId}
          and m.created_at >= k.start at time zone 'UTC' and m.created_at < k.stop at time zone 'UTC'
        group by k.start, k.stop
        order by k.start`.execute(db);
      return {
        resellerId,
        currency: LEDGER_CURRENCY,
        interval,
        points: rows.map((r) => ({ date: r.date, balance: Number(r.balance), credits: Number(r.credits), debits: Number(r.debits) })),
      };
    },
  );
}
