/**
 * Issuing invoices: one per reseller and calendar month (UTC), its figures summed by the database from the ledger
 * (numeric, never floating point). The number comes from the one-row `invoice_counter`, locked and raised in the
 * issuing transaction: issues happen one after the other, a rolled-back issue gives its number back, and the unique
 * (reseller, month) constraint backs the check for an invoice already there when two servers issue at once.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { conflict, fieldError, HttpError, invalid } from '../../http/errors';
import { LEDGER_CURRENCY } from '../ledger';

/** An invoice is due this many days after its month ends. */
export const PAYMENT_TERM_DAYS = 30;

/** A month as the API names it. */
export const MONTH_PATTERN = '^[0-9]{4}-(0[1-9]|1[0-2])$';
/** The first month an invoice may be issued for. */
const FIRST_YEAR = 2000;

export interface Period {
  /** 'YYYY-MM' */
  month: string;
  /** The first day of the month, 00:00 UTC. */
  start: Date;
  /** The first day of the next month, 00:00 UTC (exclusive). */
  end: Date;
}

export function periodOf(month: string): Period {
  const [year, m] = month.split('-').map(Number);
  return { month, start: new Date(Date.UTC(year, m - 1, 1)), end: new Date(Date.UTC(year, m, 1)) };
}

/** The month before the one `now` falls in (UTC). */
export function previousMonth(now: Date): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** A month that has ended (before the current UTC month), else 400 naming `month`. */
export function pastPeriod(month: string, now = new Date()): Period {
  if (!new RegExp(MONTH_PATTERN).test(month)) throw invalid([fieldError('month', 'pattern', 'invoice.month.invalid')]);
  const period = periodOf(month);
  if (period.start.getUTCFullYear() < FIRST_YEAR) throw invalid([fieldError('month', 'range', 'invoice.month.invalid')]);
  if (period.end.getTime() > Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)) throw invalid([fieldError('month', 'past', 'invoice.month.notEnded')]);
  return period;
}

/** The invoice of a reseller's month is already there. */
const alreadyIssued = () => conflict([fieldError('month', 'unique', 'invoice.month.issued')]);

/** The invoice issued: its id and number. */
export interface Issued {
  id: number;
  number: number;
}

/**
 * Issues the invoice of `resellerId` for the month of `period` (which has ended), by `userId` or the system. Refuses
 * with 409 naming `month` when it is already issued; nothing is written then.
 */
export async function issueInvoice(db: Kysely<Database>, resellerId: number, period: Period, userId: number | null): Promise<Issued> {
  try {
    return await db.transaction().execute(async (trx) => {
      // Every issue waits here for the one before it: the number it takes is the last one plus one.
      const { lastNumber } = await trx.selectFrom('invoiceCounter').select('lastNumber').forUpdate().executeTakeFirstOrThrow();
      const monthDate = period.start.toISOString().slice(0, 10);
      const taken = await trx
        .selectFrom('invoice')
        .select('id')
        .where('resellerId', '=', resellerId)
        .where('periodMonth', '=', sql<Date>`${monthDate}::date`)
        .executeTakeFirst();
      if (taken) throw alreadyIssued();
      const reseller = await trx.selectFrom('reseller').select(['name', 'legalName', 'quickbooksId']).where('id', '=', resellerId).executeTakeFirstOrThrow();
      const number = lastNumber + 1;
      await trx.updateTable('invoiceCounter').set({ lastNumber: number }).execute();
      const start = period.start.toISOString();
      const end = period.end.toISOString();
      // The opening balance is the balance after the last movement before the month; the rest are the month's sums.
      const { rows } = await sql<{ id: number }>`
        with opening as (
          select coalesce((select balance_after from ledger_entry
            where reseller_id = ${resellerId} and created_at < ${start}::timestamptz
            order by created_at desc, id desc limit 1), 0)::numeric(14, 2) as balance
        ), month as (
          select coalesce(sum(greatest(amount, 0)), 0)::numeric(14, 2) as credits,
            coalesce(sum(least(amount, 0)), 0)::numeric(14, 2) as debits,
            coalesce(sum(fee), 0)::numeric(14, 2) as fees,
            count(*)::integer as lines
          from ledger_entry
          where reseller_id = ${resellerId} and created_at >= ${start}::timestamptz and created_at < ${end}::timestamptz
        )
        insert into invoice (number, reseller_id, period_month, period_start, period_end, currency, opening_balance, credits, debits, fees,
          closing_balance, line_count, issued_by, due_date, status, paid_at, reseller_name, quickbooks_customer_id, export_reference)
        select ${number}, ${resellerId}, ${monthDate}::date, ${start}::timestamptz, ${end}::timestamptz, ${LEDGER_CURRENCY}, o.balance, m.credits, m.debits,
          m.fees, o.balance + m.credits + m.debits, m.lines, ${userId}, (${end}::timestamptz at time zone 'UTC')::date + ${sql.lit(PAYMENT_TERM_DAYS)},
          case when o.balance + m.credits + m.debits >= 0 then 'paid' else 'open' end,
          case when o.balance + m.credits + m.debits >= 0 then now() end,
          ${reseller.name}, ${reseller.quickbooksId}, ${reseller.legalName ?? reseller.name}
        from opening o, month m
        returning id`.execute(trx);
      return { id: rows[0].id, number };
    });
  } catch (e) {
    // Another server issued the same month between our check and insert: the constraint says so.
    if (!(e instanceof HttpError) && (e as { code?: string }).code === '23505') throw alreadyIssued();
    throw e;
  }
}

/**
 * Marks open invoices paid once the payments after their month (net of payments reversed) cover the debt they
 * closed with. Of one reseller, or of all.
 */
export async function settleInvoices(db: Kysely<Database>, resellerId?: number): Promise<number> {
  const result = await sql`
    update invoice i set status = 'paid', paid_at = now()
    where i.status = 'open' ${resellerId === undefined ? sql`` : sql`and i.reseller_id = ${resellerId}`}
      and coalesce((select sum(l.amount) from ledger_entry l
        where l.reseller_id = i.reseller_id and l.kind in ('payment', 'reset') and l.created_at >= i.period_end), 0) >= -i.closing_balance`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Issues last month's invoice of every reseller that had ledger movements in it and has none yet. Safe beside another
 * server doing the same: the second finds the invoice there (or the constraint refuses it) and moves on.
 */
export async function issueDue(db: Kysely<Database>, now = new Date()): Promise<Issued[]> {
  const period = periodOf(previousMonth(now));
  const monthDate = period.start.toISOString().slice(0, 10);
  const { rows } = await sql<{ id: number }>`
    select r.id from reseller r
    where exists (select 1 from ledger_entry l where l.reseller_id = r.id
        and l.created_at >= ${period.start.toISOString()}::timestamptz and l.created_at < ${period.end.toISOString()}::timestamptz)
      and not exists (select 1 from invoice i where i.reseller_id = r.id and i.period_month = ${monthDate}::date)
    order by r.id`.execute(db);
  const issued: Issued[] = [];
  for (const { id } of rows) {
    try {
      issued.push(await issueInvoice(db, id, period, null));
    } catch (e) {
      if (!(e instanceof HttpError && e.statusCode === 409)) throw e;
    }
  }
  return issued;
}
