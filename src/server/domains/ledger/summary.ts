/**
 * The dashboard's balance widget in one call: a reseller's balance, what it has paid in, what its open invoices owe,
 * its latest invoices and latest money movements (docs/dashboard.md).
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { hasPrivilege } from '@shared/privileges';
import type { Database } from '../../db/types';
import { principalOf } from '../../http/guard';
import { idSchema, INT_MIN, queryId } from '../../http/input';
import { resellerInSubtree } from '../resellers/subtree';
import { balanceOf, LEDGER_CURRENCY } from '.';

/** Invoices and movements the widget lists. */
export const SUMMARY_ROWS = 5;

const money = { type: 'number' };
const summarySchema = {
  type: 'object',
  required: ['resellerId', 'currency', 'balance', 'totalDeposit', 'openBalance', 'invoices', 'transactions'],
  properties: {
    resellerId: { type: 'integer' },
    currency: { type: 'string' },
    balance: money,
    totalDeposit: { type: 'number', description: 'Payments credited, net of payments reversed' },
    openBalance: { type: 'number', description: "What the reseller's open invoices owe (0 or more)" },
    invoices: {
      type: ['array', 'null'],
      description: 'The latest invoices (null for a caller who may not read invoices: an account user, or without the Resellers privilege)',
      items: {
        type: 'object',
        required: ['id', 'number', 'month', 'closingBalance', 'status', 'dueDate'],
        properties: {
          id: { type: 'integer' },
          number: { type: 'integer' },
          month: { type: 'string', description: 'YYYY-MM' },
          closingBalance: money,
          status: { type: 'string' },
          dueDate: { type: 'string', format: 'date-time' },
        },
      },
    },
    transactions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'kind', 'amount', 'createdAt'],
        properties: {
          id: { type: 'integer' },
          kind: { type: 'string' },
          amount: money,
          reference: { type: ['string', 'null'] },
          createdAt: { type: 'string', format: 'date-time' },
        },
      },
    },
  },
};

export function registerLedgerSummaryRoutes(app: FastifyInstance, db: Kysely<Database>) {
  app.get(
    '/portal/ledger/summary',
    {
      config: { privilege: ['PrePaidPackages', 'Resellers', 'PaymentMethods'] },
      schema: {
        tags: ['ledger'],
        summary: "A reseller's balance, total deposit, open balance, latest invoices and latest movements (reseller_id, else the caller's)",
        querystring: { type: 'object', properties: { reseller_id: idSchema({ min: INT_MIN }) } },
        response: { 200: summarySchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const resellerId = await resellerInSubtree(db, principal, queryId(request, 'reseller_id', { min: INT_MIN }) ?? principal.resellerId);
      const readsInvoices = principal.accountId === null && (principal.isAdmin || hasPrivilege(principal.privileges, 'Resellers'));
      const [balance, figures, invoices, transactions] = await Promise.all([
        balanceOf(db, resellerId),
        sql<{ deposit: string; open: string }>`select
            (select coalesce(sum(l.amount), 0) from ledger_entry l where l.reseller_id = ${resellerId} and l.kind in ('payment', 'reset'))::text as deposit,
            (select coalesce(-sum(i.closing_balance), 0) from invoice i where i.reseller_id = ${resellerId} and i.status = 'open')::text as open`.execute(db),
        readsInvoices
          ? db
              .selectFrom('invoice')
              .select(['id', 'number', 'periodMonth', 'closingBalance', 'status', 'dueDate'])
              .where('resellerId', '=', resellerId)
              .orderBy('number', 'desc')
              .limit(SUMMARY_ROWS)
              .execute()
          : null,
        db
          .selectFrom('ledgerEntry')
          .select(['id', 'kind', 'amount', 'reference', 'createdAt'])
          .where('resellerId', '=', resellerId)
          .orderBy('id', 'desc')
          .limit(SUMMARY_ROWS)
          .execute(),
      ]);
      return {
        resellerId,
        currency: LEDGER_CURRENCY,
        balance: Number(balance),
        totalDeposit: Number(figures.rows[0].deposit),
        openBalance: Number(figures.rows[0].open),
        invoices:
          invoices?.map((i) => ({
            id: i.id,
            number: i.number,
            month: new Date(i.periodMonth).toISOString().slice(0, 7),
            closingBalance: Number(i.closingBalance),
            status: i.status,
            dueDate: new Date(i.dueDate).toISOString(),
          })) ?? null,
        transactions: transactions.map((t) => ({ ...t, id: Number(t.id), amount: Number(t.amount), createdAt: new Date(t.createdAt).toISOString() })),
      };
    },
  );
}
