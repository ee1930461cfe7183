/**
 * The reseller ledger: every movement of a reseller's money is one row with the balance after it, so the
 * balance is the latest row's and the history explains it. Amounts are exact decimals, added up by the database
 * (numeric), never by floating point. A posting locks the reseller's row, so two postings for one reseller happen
 * one after the other and each sees the other's balance.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { pageAnswer } from '@shared/wire';
import { EXACT_COUNT_LIMIT, EstimatedTotals } from '../../engine/estimates';
import { conflict, fieldError, invalid } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { idSchema, INT_MIN, objectBody, pageQuery, queryId } from '../../http/input';
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
  /** When the movement happened (ISO time), for a history written after the fact; now when not given. */
  at?: string;
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
  // A purchase may use the reseller's credit limit: it is refused only past it (available credit = limit + balance),
  // less what is held for orders not yet charged (see holds.ts).
  const { rows } = await sql<{ after: string; short: boolean }>`
    select b.after::text as after, b.after < -coalesce((select credit_limit from reseller_standing where reseller_id = ${posting.resellerId}), 0)
        + (select coalesce(sum(amount), 0) from credit_hold where reseller_id = ${posting.resellerId} and state = 'held') as short from (
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
      ...(posting.at === undefined ? {} : { createdAt: posting.at }),
    })
    .returning(['id', sql<string>`balance_after::text`.as('balanceAfter')])
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), balanceAfter: row.balanceAfter as string };
}

/** How the ledger's movement list counts; its limit is the engine's lists' (a test may lower it). */
export const movementListing = { countLimit: () => EXACT_COUNT_LIMIT };

/**
 * How many of a reseller's movements there are, counted up to the lists' count limit (an index-only walk of at most
 * that many keys): counting a million movements exactly costs more than the page it describes.
 */
function cappedCount(db: Kysely<Database>, resellerId: number) {
  const limit = movementListing.countLimit();
  const movements = db
    .selectFrom('ledgerEntry')
    .where('resellerId', '=', resellerId)
    .select(sql.lit(1).as('one'))
    .limit(limit + 1);
  return db.selectFrom(movements.as('c')).select((eb) => eb.fn.countAll().as('n'));
}

/**
 * The total of a reseller's movements from a capped count (`counted`, see `cappedCount`): exact up to the limit,
 * beyond it the planner's estimate (never below the limit), kept a while.
 */
async function movementTotal(
  db: Kysely<Database>,
  estimates: EstimatedTotals,
  resellerId: number,
  counted: number,
): Promise<{ total: number; estimate: boolean }> {
  if (counted <= movementListing.countLimit()) return { total: counted, estimate: false };
  const movements = db.selectFrom('ledgerEntry').where('resellerId', '=', resellerId).select(sql.lit(1).as('one'));
  return { total: await estimates.estimate(String(resellerId), counted, movements), estimate: true };
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
  // Estimated totals of big ledgers by reseller, kept as the engine's lists keep theirs.
  const estimates = new EstimatedTotals();

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
            required: ['resellerId', 'balance', 'currency', 'creditLimit', 'held', 'availableCredit'],
            properties: {
              resellerId: { type: 'integer' },
              balance: { type: 'number' },
              currency: { type: 'string' },
              creditLimit: { type: 'number', description: 'A purchase is refused only past -creditLimit' },
              held: { type: 'number', description: 'Credit set aside for purchases charged later (SIM orders not yet delivered)' },
              availableCredit: { type: 'number', description: 'Credit limit plus balance, less what is held' },
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
      const holds = await db
        .selectFrom('creditHold')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('amount'), sql<string>`0`).as('held'))
        .where('resellerId', '=', resellerId)
        .where('state', '=', 'held')
        .executeTakeFirstOrThrow();
      const held = Number(holds.held);
      return {
        resellerId,
        balance: Number(await balanceOf(db, resellerId)),
        currency: LEDGER_CURRENCY,
        creditLimit: Number(standing?.creditLimit ?? 0),
        held,
        availableCredit: Math.round((Number(standing?.availableCredit ?? 0) - held) * 100) / 100,
      };
    },
  );

  app.get(
    '/portal/ledger/entries',
    {
      config,
      schema: {
        tags,
        querystring: pageQuery(500, 50, resellerQuery.properties),
        summary:
          "A reseller's money movements, newest first (reseller_id, page, size); past 10,000 movements the total is the planner's estimate (totalIsEstimate)",
      },
    },
    async (request) => {
      const resellerId = await resellerOf(db, request, principalOf(request));
      const { page, size } = request.query as { page: number; size: number };
      // The page and, unless a big ledger's estimate is at hand, the capped count in one statement.
      const known = estimates.get(String(resellerId));
      const pageQuery = db
        .selectFrom('ledgerEntry')
        .select(['id', 'resellerId', 'amount', 'currency', 'kind', 'reference', 'createdAt', 'balanceAfter'])
        .where('resellerId', '=', resellerId)
        .orderBy('id', 'desc')
        .limit(size)
        .offset(page * size);
      const rows = known === undefined ? await pageQuery.select(cappedCount(db, resellerId).as('counted')).execute() : await pageQuery.execute();
      let total = known ?? 0;
      let estimate = known !== undefined;
      if (known === undefined) {
        // A page past the end has no row to carry the count: counted apart.
        const counted = rows.length
          ? Number((rows[0] as { counted?: unknown }).counted)
          : Number((await cappedCount(db, resellerId).executeTakeFirstOrThrow()).n);
        ({ total, estimate } = await movementTotal(db, estimates, resellerId, counted));
      }
      for (const row of rows) delete (row as { counted?: unknown }).counted;
      return pageAnswer(
        rows.map((r) => ({ ...r, id: Number(r.id), amount: Number(r.amount), balanceAfter: Number(r.balanceAfter) })),
        total,
        page,
        size,
        estimate,
      );
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
      // Read from the ledger's daily summaries (ledger_day, UTC days) of the span in one range of the (reseller, day)
      // key, each day put in its bucket (the day, week or month it starts in); a bucket's balance is its last day's
      // closing balance, carried forward through quiet buckets from the balance before the span (one backward probe).
      const step = sql.lit(`1 ${interval}`);
      const { rows } = await sql<{ date: string; closing: string | null; credits: string; debits: string; opening: string | null }>`
        with span as (
          select date_trunc(${interval}, ${from}::timestamp)::date as first, (date_trunc(${interval}, ${to}::timestamp) + ${step}::interval)::date as stop
        ), per as (
          select date_trunc(${interval}, d.day)::date as start, sum(d.credits) as credits, sum(d.debits) as debits,
            (array_agg(d.closing_balance order by d.day desc))[1] as closing
          from ledger_day d, span
          where d.reseller_id = ${resellerId} and d.day >= span.first and d.day < span.stop
          group by 1
        )
        select to_char(b, 'YYYY-MM-DD') as date, p.closing::text as closing,
          coalesce(p.credits, 0)::numeric(14, 2)::text as credits, coalesce(p.debits, 0)::numeric(14, 2)::text as debits,
          (select d.closing_balance from ledger_day d where d.reseller_id = ${resellerId} and d.day < date_trunc(${interval}, ${from}::timestamp)::date
            order by d.day desc limit 1)::text as opening
        from generate_series(date_trunc(${interval}, ${from}::timestamp), ${to}::timestamp, ${step}::interval) b
        left join per p on p.start = b::date
        order by b`.execute(db);
      let balance = rows[0]?.opening ?? '0';
      return {
        resellerId,
        currency: LEDGER_CURRENCY,
        interval,
        points: rows.map((r) => {
          balance = r.closing ?? balance;
          return { date: r.date, balance: Number(balance), credits: Number(r.credits), debits: Number(r.debits) };
        }),
      };
    },
  );
}
