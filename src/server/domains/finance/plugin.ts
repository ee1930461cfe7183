/**
 * The books under the reseller ledger (docs/finance.md): the trial balance of the chart of accounts over a period,
 * the journal of one account, and the drift check that the standing of each reseller, its ledger and the reseller
 * balances account agree. The journal is written by the database (migration 0140); these calls only read it. The
 * administrator's alone.
 */
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../db/types';
import { fieldError, invalid, notFound } from '../../http/errors';
import { pageNumberSchema, pageSchema, pageSizeSchema } from '../../http/input';
import { domainPlugin } from '../plugin';
import { pageAnswer } from '@shared/wire';

const tags = ['finance'];
const config = { adminOnly: true };

/** The account reseller money is held in: its balance is the sum of every reseller's balance. */
export const RESELLER_BALANCES = '2010';
/** Accounts whose balance is on the debit side; the others' (liability, equity, revenue) is on the credit side. */
const DEBIT_NORMAL = ['asset', 'expense'];

const dateSchema = (what: string) => ({ type: 'string', format: 'date', description: what, errorMessage: 'validation.date.invalid' });
const periodQuery = {
  from: dateSchema('The first day of the period (UTC), inclusive; none for everything up to `to`'),
  to: dateSchema('The last day of the period (UTC), inclusive; none for up to now'),
};
const accountType = { type: 'string', enum: ['asset', 'liability', 'equity', 'revenue', 'expense'] };
const codeParams = {
  type: 'object',
  required: ['code'],
  properties: { code: { type: 'string', pattern: '^[0-9]{3,6}$', errorMessage: 'validation.ledgerAccount.code' } },
};

const trialBalanceSchema = {
  type: 'object',
  required: ['accounts', 'totals'],
  properties: {
    from: { type: 'string', format: 'date', nullable: true },
    to: { type: 'string', format: 'date', nullable: true },
    accounts: {
      type: 'array',
      items: {
        type: 'object',
        required: ['code', 'name', 'type', 'debit', 'credit', 'balance'],
        properties: {
          code: { type: 'string' },
          name: { type: 'string' },
          type: accountType,
          debit: { type: 'number', description: 'The debits of the period' },
          credit: { type: 'number', description: 'The credits of the period' },
          balance: { type: 'number', description: "On the account's normal side: debit - credit for assets and expenses, credit - debit for the others" },
        },
      },
    },
    totals: {
      type: 'object',
      required: ['debit', 'credit', 'difference'],
      properties: {
        debit: { type: 'number' },
        credit: { type: 'number' },
        difference: { type: 'number', description: 'Debits - credits: 0 when the books balance' },
      },
    },
  },
};

const lineSchema = {
  type: 'object',
  required: ['id', 'entryId', 'createdAt', 'kind', 'resellerId', 'debit', 'credit'],
  properties: {
    id: { type: 'integer' },
    entryId: { type: 'integer', description: 'The ledger entry the line belongs to' },
    createdAt: { type: 'string', format: 'date-time' },
    kind: { type: 'string' },
    method: { type: 'string', nullable: true },
    reference: { type: 'string', nullable: true },
    resellerId: { type: 'integer' },
    resellerName: { type: 'string' },
    amount: { type: 'number', description: "The entry's amount (the reseller's balance move)" },
    fee: { type: 'number', description: "The entry's fee" },
    debit: { type: 'number' },
    credit: { type: 'number' },
  },
};

const linesSchema = pageSchema(lineSchema, {
  account: { type: 'object', required: ['code', 'name', 'type'], properties: { code: { type: 'string' }, name: { type: 'string' }, type: accountType } },
});

const checkSchema = {
  type: 'object',
  required: ['resellersChecked', 'accountBalance', 'resellersTotal', 'drift'],
  properties: {
    resellersChecked: { type: 'integer' },
    accountBalance: { type: 'number', description: 'The balance of the reseller balances account (2010)' },
    resellersTotal: { type: 'number', description: "The sum of every reseller's standing balance" },
    drift: {
      type: 'array',
      description: 'What disagrees; empty when nothing does',
      items: {
        type: 'object',
        required: ['kind'],
        properties: {
          kind: { type: 'string', enum: ['reseller', 'account'] },
          resellerId: { type: 'integer' },
          resellerName: { type: 'string' },
          standingBalance: { type: 'number', description: "The reseller's standing balance" },
          lastBalanceAfter: { type: 'number', description: "The balance after the reseller's latest ledger entry" },
          sumOfAmounts: { type: 'number', description: "The sum of the reseller's ledger amounts" },
          accountCode: { type: 'string' },
          accountBalance: { type: 'number' },
          resellersTotal: { type: 'number' },
        },
      },
    },
  },
};

/** The period's bounds as instants: from the start of `from` to the end of `to`, UTC days. */
function period(query: { from?: string; to?: string }) {
  if (query.from && query.to && query.from > query.to) throw invalid([fieldError('to', 'order', 'validation.endDate.afterStart')]);
  const start = query.from ? sql`and l.created_at >= (${query.from}::date)::timestamp at time zone 'UTC'` : sql``;
  const stop = query.to ? sql`and l.created_at < (${query.to}::date + 1)::timestamp at time zone 'UTC'` : sql``;
  return sql`${start} ${stop}`;
}

export async function trialBalance(db: Kysely<Database>, query: { from?: string; to?: string }) {
  const { rows } = await sql<{ code: string; name: string; type: string; debit: string; credit: string }>`
    select a.code, a.name, a.type, coalesce(sum(l.debit), 0)::text as debit, coalesce(sum(l.credit), 0)::text as credit
    from ledger_account a
    left join ledger_line l on l.account_code = a.code ${period(query)}
    group by a.code, a.name, a.type
    order by a.code`.execute(db);
  // Sums in cents, exact: numeric text to integers, never floating point sums.
  const cents = (text: string) => Math.round(Number(text) * 100);
  const accounts = rows.map((r) => {
    const debit = cents(r.debit);
    const credit = cents(r.credit);
    return { ...r, debit, credit, balance: DEBIT_NORMAL.includes(r.type) ? debit - credit : credit - debit };
  });
  const debit = accounts.reduce((s, a) => s + a.debit, 0);
  const credit = accounts.reduce((s, a) => s + a.credit, 0);
  return {
    from: query.from ?? null,
    to: query.to ?? null,
    accounts: accounts.map((a) => ({ ...a, debit: a.debit / 100, credit: a.credit / 100, balance: a.balance / 100 })),
    totals: { debit: debit / 100, credit: credit / 100, difference: (debit - credit) / 100 },
  };
}

/** Whether the standings, the ledger and the reseller balances account agree; the disagreements, if any. */
export async function ledgerCheck(db: Kysely<Database>) {
  const { rows } = await sql<{ id: number; name: string; standing: string; last: string; total: string }>`
    select r.id, r.name, st.balance::text as standing,
      coalesce((select l.balance_after from ledger_entry l where l.reseller_id = r.id order by l.id desc limit 1), 0)::text as last,
      coalesce(t.total, 0)::text as total
    from reseller r
    join reseller_standing st on st.reseller_id = r.id
    left join (select reseller_id, sum(amount) as total from ledger_entry group by reseller_id) t on t.reseller_id = r.id
    order by r.id`.execute(db);
  const { rows: sums } = await sql<{ account: string; resellers: string }>`
    select (select coalesce(sum(credit) - sum(debit), 0) from ledger_line where account_code = ${RESELLER_BALANCES})::text as account,
      (select coalesce(sum(balance), 0) from reseller_standing)::text as resellers`.execute(db);
  const drift: Record<string, unknown>[] = rows
    .filter((r) => Number(r.standing) !== Number(r.last) || Number(r.standing) !== Number(r.total))
    .map((r) => ({
      kind: 'reseller',
      resellerId: r.id,
      resellerName: r.name,
      standingBalance: Number(r.standing),
      lastBalanceAfter: Number(r.last),
      sumOfAmounts: Number(r.total),
    }));
  const accountBalance = Number(sums[0].account);
  const resellersTotal = Number(sums[0].resellers);
  if (accountBalance !== resellersTotal) {
    drift.push({ kind: 'account', accountCode: RESELLER_BALANCES, accountBalance, resellersTotal });
  }
  return { resellersChecked: rows.length, accountBalance, resellersTotal, drift };
}

const money = { type: 'number' };
const overviewSchema = {
  type: 'object',
  required: ['currency', 'resellers', 'invoices', 'disputed', 'pending', 'debtors'],
  properties: {
    currency: { type: 'string' },
    resellers: {
      type: 'object',
      required: ['count', 'balance', 'inDebt', 'debt', 'creditLimit', 'availableCredit'],
      properties: {
        count: { type: 'integer' },
        balance: { ...money, description: 'The sum of every reseller balance (the provider owes it when positive)' },
        inDebt: { type: 'integer', description: 'Resellers whose balance is below zero' },
        debt: { ...money, description: 'What resellers in debt owe, as a positive amount' },
        creditLimit: money,
        availableCredit: money,
      },
    },
    invoices: {
      type: 'object',
      required: ['open', 'openAmount'],
      properties: { open: { type: 'integer' }, openAmount: { ...money, description: 'What the open invoices ask for, as a positive amount' } },
    },
    disputed: { type: 'object', required: ['count', 'amount'], properties: { count: { type: 'integer' }, amount: money } },
    pending: {
      type: 'object',
      required: ['bankWires', 'bankWireAmount', 'crypto', 'cryptoAmount'],
      properties: { bankWires: { type: 'integer' }, bankWireAmount: money, crypto: { type: 'integer' }, cryptoAmount: money },
    },
    debtors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['resellerId', 'name', 'balance', 'creditLimit', 'availableCredit', 'disputedAmount', 'openInvoices'],
        properties: {
          resellerId: { type: 'integer' },
          name: { type: 'string' },
          balance: money,
          creditLimit: money,
          availableCredit: money,
          disputedAmount: money,
          openInvoices: { type: 'integer' },
        },
      },
    },
  },
};

/** The overview's figures, each one exact sum of the database (numeric), read in one statement each. */
async function financeOverview(db: Kysely<Database>, top: number) {
  const num = (v: unknown) => Number(v ?? 0);
  const { rows: standing } = await sql<Record<string, string>>`
    select count(*) as count, coalesce(sum(balance), 0) as balance, count(*) filter (where balance < 0) as in_debt,
      coalesce(-sum(balance) filter (where balance < 0), 0) as debt, coalesce(sum(credit_limit), 0) as credit_limit,
      coalesce(sum(available_credit), 0) as available_credit,
      count(*) filter (where disputed_amount > 0) as disputed_count, coalesce(sum(disputed_amount), 0) as disputed_amount
    from reseller_standing where reseller_id <> -1`.execute(db);
  const { rows: invoices } = await sql<Record<string, string>>`
    select count(*) as open, coalesce(-sum(closing_balance), 0) as amount from invoice where status = 'open'`.execute(db);
  const { rows: pending } = await sql<Record<string, string>>`
    select count(*) filter (where method = 'BANK_WIRE') as wires, coalesce(sum(credited_amount) filter (where method = 'BANK_WIRE'), 0) as wire_amount,
      count(*) filter (where method = 'BIT_PAY') as crypto, coalesce(sum(credited_amount) filter (where method = 'BIT_PAY'), 0) as crypto_amount
    from payment where status = 'pending'`.execute(db);
  const { rows: debtors } = await sql<Record<string, string>>`
    select r.id, r.name, st.balance, st.credit_limit, st.available_credit, st.disputed_amount,
      (select count(*) from invoice i where i.reseller_id = r.id and i.status = 'open') as open_invoices
    from reseller_standing st join reseller r on r.id = st.reseller_id
    where st.balance < 0 and r.id <> -1
    order by st.balance, r.id
    limit ${top}`.execute(db);
  const s = standing[0];
  return {
    currency: 'USD',
    resellers: {
      count: num(s.count),
      balance: num(s.balance),
      inDebt: num(s.inDebt),
      debt: num(s.debt),
      creditLimit: num(s.creditLimit),
      availableCredit: num(s.availableCredit),
    },
    invoices: { open: num(invoices[0].open), openAmount: num(invoices[0].amount) },
    disputed: { count: num(s.disputedCount), amount: num(s.disputedAmount) },
    pending: {
      bankWires: num(pending[0].wires),
      bankWireAmount: num(pending[0].wireAmount),
      crypto: num(pending[0].crypto),
      cryptoAmount: num(pending[0].cryptoAmount),
    },
    debtors: debtors.map((d) => ({
      resellerId: num(d.id),
      name: d.name,
      balance: num(d.balance),
      creditLimit: num(d.creditLimit),
      availableCredit: num(d.availableCredit),
      disputedAmount: num(d.disputedAmount),
      openInvoices: num(d.openInvoices),
    })),
  };
}

export default domainPlugin('finance', async (app, { database }) => {
  const db = database.db;

  app.get(
    '/portal/finance/trial-balance',
    {
      config,
      schema: {
        tags,
        summary: 'Debits, credits and balance of every account over a period (or to date), with the totals and their difference',
        querystring: { type: 'object', properties: periodQuery },
        response: { 200: trialBalanceSchema },
      },
    },
    async (request) => trialBalance(db, request.query as { from?: string; to?: string }),
  );

  app.get(
    '/portal/finance/accounts/:code/lines',
    {
      config,
      schema: {
        tags,
        summary: "One account's journal lines, newest first, with each line's reseller and ledger entry",
        params: codeParams,
        querystring: {
          type: 'object',
          properties: { ...periodQuery, page: { ...pageNumberSchema(), default: 0 }, size: { ...pageSizeSchema(200), default: 50 } },
        },
        response: { 200: linesSchema },
      },
    },
    async (request) => {
      const { code } = request.params as { code: string };
      const query = request.query as { from?: string; to?: string; page: number; size: number };
      const range = period(query);
      const account = await db.selectFrom('ledgerAccount').select(['code', 'name', 'type']).where('code', '=', code).executeTakeFirst();
      if (!account) throw notFound();
      const { rows: count } = await sql<{ n: string }>`
        select count(*)::text as n from ledger_line l where l.account_code = ${code} ${range}`.execute(db);
      const total = Number(count[0].n);
      const { rows } = await sql<{
        id: string;
        entryId: string;
        createdAt: Date;
        kind: string;
        method: string | null;
        reference: string | null;
        resellerId: number;
        resellerName: string;
        amount: string;
        fee: string;
        debit: string;
        credit: string;
      }>`
        select l.id::text, e.id::text as entry_id, l.created_at, e.kind, e.method, e.reference, e.reseller_id, r.name as reseller_name,
          e.amount::text, e.fee::text, l.debit::text, l.credit::text
        from ledger_line l
        join ledger_entry e on e.id = l.ledger_entry_id
        join reseller r on r.id = e.reseller_id
        where l.account_code = ${code} ${range}
        order by l.created_at desc, l.id desc
        limit ${query.size} offset ${query.page * query.size}`.execute(db);
      const items = rows.map((r) => ({
        ...r,
        id: Number(r.id),
        entryId: Number(r.entryId),
        amount: Number(r.amount),
        fee: Number(r.fee),
        debit: Number(r.debit),
        credit: Number(r.credit),
      }));
      return { ...pageAnswer(items, total, query.page, query.size), account };
    },
  );

  app.get(
    '/portal/finance/overview',
    {
      config,
      schema: {
        tags,
        summary:
          "The provider's money at a glance: resellers' balances and debt, open invoices, debt in review, payments awaiting confirmation, the resellers owing most",
        querystring: {
          type: 'object',
          properties: { top: { type: 'integer', minimum: 1, maximum: 50, default: 10, errorMessage: 'validation.pageSize.invalid' } },
        },
        response: { 200: overviewSchema },
      },
    },
    async (request) => financeOverview(db, (request.query as { top: number }).top),
  );

  app.get(
    '/portal/finance/ledger-check',
    {
      config,
      schema: {
        tags,
        summary: "Drift check: each reseller's standing against its ledger, and the reseller balances account against every standing",
        response: { 200: checkSchema },
      },
    },
    async () => ledgerCheck(db),
  );
});
