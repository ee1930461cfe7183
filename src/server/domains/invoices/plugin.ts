/**
 * Monthly invoices of resellers (docs/invoices.md): the list, issuing a past month from above the reseller, and the
 * invoice as PDF or CSV, both streamed. Every call needs the Resellers privilege and names a reseller of the caller's
 * subtree (the reseller itself, or one below it; the administrator any); an account user reaches none. Once the
 * server is ready, and every hour after, last month's invoices are issued for resellers with movements in it.
 */
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { queryBatches, sendCsv } from '../../engine/csv';
import { fieldError, forbidden, HttpError, invalid, notFound } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { idSchema, INT_MIN, listRequestSchema, objectBody, pageSchema } from '../../http/input';
import { resellerPathIds } from '../../http/principal';
import { domainPlugin } from '../plugin';
import { resellerInSubtree } from '../resellers/subtree';
import { issueDue, issueInvoice, MONTH_PATTERN, pastPeriod, settleInvoices } from './issue';
import { invoiceFileNumber, newInvoiceDocument, writeInvoice, type Movement } from './pdf';
import { pageAnswer } from '@shared/wire';

export interface InvoiceOptions {
  /** Issue last month's invoices when the server is ready and every `intervalMs` after (default: on, hourly). */
  autoIssue?: boolean;
  intervalMs?: number;
  /** Compress the PDF's page content (default true; tests read the text of uncompressed ones). */
  compressPdf?: boolean;
}

const tags = ['resellers'];
const config = { privilege: 'Resellers' };
const resellerParams = {
  type: 'object',
  required: ['resellerId'],
  properties: { resellerId: { ...idSchema({ min: INT_MIN }), description: 'The reseller' } },
};
const invoiceParams = {
  type: 'object',
  required: ['resellerId', 'invoiceId'],
  properties: { resellerId: idSchema({ min: INT_MIN }), invoiceId: idSchema() },
};

const invoiceSchema = {
  type: 'object',
  required: ['id', 'number', 'resellerId', 'month', 'periodStart', 'periodEnd', 'currency', 'openingBalance', 'closingBalance', 'status', 'issuedAt'],
  properties: {
    id: { type: 'integer' },
    number: { type: 'integer', description: 'Sequential over all invoices, without gaps' },
    resellerId: { type: 'integer' },
    resellerName: { type: 'string', description: "The reseller's name when the invoice was issued" },
    month: { type: 'string', description: 'YYYY-MM (UTC)' },
    periodStart: { type: 'string', format: 'date-time' },
    periodEnd: { type: 'string', format: 'date-time', description: 'The start of the next month (exclusive)' },
    currency: { type: 'string' },
    openingBalance: { type: 'number' },
    credits: { type: 'number', description: 'The sum of the movements up' },
    debits: { type: 'number', description: 'The sum of the movements down (negative)' },
    fees: { type: 'number', description: 'The fees paid on top of payments' },
    closingBalance: { type: 'number' },
    lineCount: { type: 'integer' },
    issuedAt: { type: 'string', format: 'date-time' },
    issuedBy: { type: 'string', nullable: true, description: 'The user who issued it; none when the server did' },
    dueDate: { type: 'string', format: 'date' },
    status: { type: 'string', enum: ['open', 'paid'] },
    paidAt: { type: 'string', format: 'date-time', nullable: true },
    quickbooksCustomerId: { type: 'string', nullable: true },
    exportReference: { type: 'string', description: 'The customer name for the accounting export, copied at issue time' },
  },
};

/** What a list may be sorted by, and the column each means. */
const SORTS = {
  number: 'i.number',
  month: 'i.period_month',
  closingBalance: 'i.closing_balance',
  issuedAt: 'i.issued_at',
  dueDate: 'i.due_date',
  status: 'i.status',
} as const;
const SEARCHES = ['status', 'month'];

/** The movements' CSV columns (and the ledger's values behind them). */
const CSV_HEADER = ['date', 'kind', 'method', 'reference', 'amount', 'fee', 'balanceAfter', 'confirmationCode'] as const;

type ListBody = {
  sortBy?: string | null;
  sortDir?: 'asc' | 'desc' | null;
  searchBy?: string | null;
  searchKey?: string | null;
  page?: { page?: number; size?: number } | null;
};

export default domainPlugin('invoices', async (app, { database, app: options }) => {
  const { db, engine } = database;
  const settings = { autoIssue: true, intervalMs: 3_600_000, compressPdf: true, ...options.invoices };

  /** The reseller a call names, if the caller may read its invoices (404 when it is not in the caller's subtree). */
  async function readable(request: FastifyRequest): Promise<number> {
    const principal = principalOf(request);
    if (principal.accountId !== null && !principal.isAdmin) throw forbidden();
    return resellerInSubtree(db, principal, (request.params as { resellerId: number }).resellerId);
  }

  const selectInvoices = () =>
    db
      .selectFrom('invoice as i')
      .leftJoin('appUser as u', 'u.id', 'i.issuedBy')
      .select([
        'i.id',
        'i.number',
        'i.resellerId',
        'i.resellerName',
        sql<string>`to_char(i.period_month, 'YYYY-MM')`.as('month'),
        'i.periodStart',
        'i.periodEnd',
        'i.currency',
        sql<string>`i.opening_balance::text`.as('openingBalance'),
        sql<string>`i.credits::text`.as('credits'),
        sql<string>`i.debits::text`.as('debits'),
        sql<string>`i.fees::text`.as('fees'),
        sql<string>`i.closing_balance::text`.as('closingBalance'),
        'i.lineCount',
        'i.issuedAt',
        'u.username as issuedBy',
        sql<string>`to_char(i.due_date, 'YYYY-MM-DD')`.as('dueDate'),
        'i.status',
        'i.paidAt',
        'i.quickbooksCustomerId',
        'i.exportReference',
      ]);
  type InvoiceRow = Awaited<ReturnType<ReturnType<typeof selectInvoices>['executeTakeFirstOrThrow']>>;
  const wire = (r: InvoiceRow) => ({
    ...r,
    openingBalance: Number(r.openingBalance),
    credits: Number(r.credits),
    debits: Number(r.debits),
    fees: Number(r.fees),
    closingBalance: Number(r.closingBalance),
  });

  async function invoiceOf(request: FastifyRequest): Promise<InvoiceRow> {
    const resellerId = await readable(request);
    const { invoiceId } = request.params as { invoiceId: number };
    const row = await selectInvoices().where('i.id', '=', invoiceId).where('i.resellerId', '=', resellerId).executeTakeFirst();
    if (!row) throw notFound();
    return row;
  }

  /** The month's ledger rows, in the ledger's order. */
  const movementsOf = (invoice: InvoiceRow) =>
    db
      .selectFrom('ledgerEntry')
      .select([
        'id',
        'createdAt',
        'kind',
        'method',
        'reference',
        sql<string>`amount::text`.as('amount'),
        sql<string>`fee::text`.as('fee'),
        sql<string>`balance_after::text`.as('balanceAfter'),
        'confirmationCode',
      ])
      .where('resellerId', '=', invoice.resellerId)
      .where('createdAt', '>=', invoice.periodStart)
      .where('createdAt', '<', invoice.periodEnd)
      .orderBy('createdAt')
      .orderBy('id');

  app.post(
    '/portal/reseller-info/invoices/:resellerId',
    {
      config,
      schema: {
        tags,
        summary: "A reseller's invoices, paged and sorted (sortBy number, month, closingBalance, issuedAt, dueDate, status; searchBy status or month)",
        params: resellerParams,
        body: listRequestSchema(SEARCHES),
        response: { 200: pageSchema(invoiceSchema) },
      },
    },
    async (request) => {
      const resellerId = await readable(request);
      const body = (request.body ?? {}) as ListBody;
      const sortBy = body.sortBy ?? 'number';
      if (!(sortBy in SORTS)) throw invalid([fieldError('sortBy', 'enum', 'validation.sortBy.invalid')]);
      if (body.searchBy && !SEARCHES.includes(body.searchBy)) throw invalid([fieldError('searchBy', 'enum', 'validation.searchBy.invalid')]);
      const page = body.page?.page ?? 0;
      const size = body.page?.size ?? 50;
      await settleInvoices(db, resellerId);
      let q = db.selectFrom('invoice as i').where('i.resellerId', '=', resellerId);
      const key = body.searchKey?.trim();
      if (body.searchBy && key) {
        q =
          body.searchBy === 'status'
            ? q.where('i.status', '=', key.toLowerCase())
            : q.where(sql<string>`to_char(i.period_month, 'YYYY-MM')`, 'like', `${key.replace(/[\\%_]/g, '\\$&')}%`);
      }
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const dir = body.sortDir === 'asc' ? sql`asc` : sql`desc`;
      const rows = await selectInvoices()
        .where('i.id', 'in', q.select('i.id'))
        .orderBy(sql`${sql.raw(SORTS[sortBy as keyof typeof SORTS])} ${dir}`)
        .orderBy('i.number', body.sortDir === 'asc' ? 'asc' : 'desc')
        .limit(size)
        .offset(page * size)
        .execute();
      return pageAnswer(rows.map(wire), total, page, size);
    },
  );

  app.post(
    '/portal/reseller-info/invoices/:resellerId/issue',
    {
      config,
      schema: {
        tags,
        summary: "Issues a reseller's invoice for a month that has ended (from above the reseller); 409 when that month has one",
        params: resellerParams,
        body: objectBody({ month: { type: 'string', pattern: MONTH_PATTERN, description: 'YYYY-MM (UTC)', errorMessage: 'invoice.month.invalid' } }, ['month']),
        response: { 201: invoiceSchema },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const resellerId = await readable(request);
      // Issued from above: never by the reseller itself.
      if (!principal.isAdmin && resellerId === principal.resellerId)
        throw new HttpError(403, 'FORBIDDEN', 'invoice.issue.fromAbove', [fieldError('resellerId', 'protected', 'invoice.issue.fromAbove')]);
      const period = pastPeriod((request.body as { month: string }).month);
      const { id } = await issueInvoice(db, resellerId, period, principal.userId);
      return reply.status(201).send(wire(await selectInvoices().where('i.id', '=', id).executeTakeFirstOrThrow()));
    },
  );

  app.get(
    '/portal/reseller-info/invoices/:resellerId/:invoiceId/pdf',
    { config, schema: { tags, summary: 'An invoice as PDF (streamed)', params: invoiceParams } },
    async (request, reply) => {
      const invoice = await invoiceOf(request);
      const reseller = await db.selectFrom('reseller').select('path').where('id', '=', invoice.resellerId).executeTakeFirstOrThrow();
      const ids = resellerPathIds(reseller.path);
      const provider = await db.selectFrom('reseller').select('name').where('id', '=', ids[0]).executeTakeFirst();
      // The reseller's logo, else its nearest ancestor's, as the top bar shows it; an SVG one is left out.
      const logo = await db
        .selectFrom('resellerLogo as l')
        .innerJoin('reseller as r', 'r.id', 'l.resellerId')
        .select(['l.contentType', 'l.bytes'])
        .where('l.resellerId', 'in', ids)
        .orderBy(sql`length(r.path)`, 'desc')
        .limit(1)
        .executeTakeFirst();
      const head = {
        ...invoice,
        providerName: provider?.name ?? '',
        periodStart: new Date(invoice.periodStart),
        periodEnd: new Date(invoice.periodEnd),
        issuedAt: new Date(invoice.issuedAt),
      };
      const doc = newInvoiceDocument(head, settings.compressPdf);
      const picture = logo && logo.contentType !== 'image/svg+xml' ? Buffer.from(logo.bytes) : undefined;
      writeInvoice(doc, head, picture, queryBatches(db, engine, movementsOf(invoice)) as AsyncIterable<Movement[]>).catch((e: Error) => {
        request.log.error(e, 'invoice PDF');
        doc.destroy(e);
      });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="invoice-${invoiceFileNumber(invoice.number)}.pdf"`)
        .header('cache-control', 'no-store')
        .send(doc);
    },
  );

  app.get(
    '/portal/reseller-info/invoices/:resellerId/:invoiceId/csv',
    { config, schema: { tags, summary: "An invoice's movements as CSV (streamed)", params: invoiceParams } },
    async (request, reply) => {
      const invoice = await invoiceOf(request);
      return sendCsv(reply, `invoice-${invoiceFileNumber(invoice.number)}.csv`, CSV_HEADER, queryBatches(db, engine, movementsOf(invoice)), (r) => [
        new Date(r.createdAt as string).toISOString(),
        r.kind,
        r.method,
        r.reference,
        r.amount,
        r.fee,
        r.balanceAfter,
        r.confirmationCode,
      ]);
    },
  );

  // Last month's invoices: when the server is ready, then hourly. A failure is logged and tried again next hour.
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let closing = false;
  const tick = () => {
    running = running
      .then(async () => {
        if (closing) return;
        const issued = await issueDue(db);
        await settleInvoices(db);
        if (issued.length) app.log.info({ count: issued.length }, 'invoices issued');
      })
      .catch((e: unknown) => app.log.error(e, 'issuing invoices'));
  };
  app.addHook('onReady', async () => {
    if (!settings.autoIssue) return;
    tick();
    timer = setInterval(tick, settings.intervalMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    closing = true;
    clearInterval(timer);
    await running;
  });
});
