import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { post, type Posting } from '@server/domains/ledger';
import { issueDue, previousMonth } from '@server/domains/invoices/issue';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;
type Row = Record<string, any>;

/** 'YYYY-MM' of the month `back` months before the current one (UTC). */
const monthsAgo = (back: number) => {
  const now = new Date();
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
};
const cents = (text: string) => Math.round(Number(text) * 100);
const fieldsOf = (res: { json(): { fields?: { field: string; rule: string }[] } }) => res.json().fields?.map((f) => `${f.field}:${f.rule}`);

/** The text a PDF shows: the glyph strings of its (uncompressed) text operators, joined. */
function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  return [...raw.matchAll(/\[((?:<[0-9a-f]*>|\s|-?[\d.]+)*)\]\s*TJ/g)]
    .map((m) => [...m[1].matchAll(/<([0-9a-f]*)>/g)].map((h) => Buffer.from(h[1], 'hex').toString('latin1')).join(''))
    .join('\n');
}
const pageCount = (pdf: Buffer) => pdf.toString('latin1').match(/\/Type \/Page\b/g)?.length ?? 0;

describe.each(engines)('invoices on %s', (engine) => {
  let ctx: Ctx;
  let admin: Client;
  let northwind: Client;
  let iot: Client;
  let bluesky: Client;
  let harbor: Client;
  const ids: Record<string, number> = {};

  /** Posts the movements, then dates them inside `month`, a minute apart in the order they were written. */
  async function movements(resellerId: number, month: string, postings: Omit<Posting, 'resellerId'>[]) {
    const written: number[] = [];
    for (const p of postings) written.push((await post(ctx.db, { ...p, resellerId })).id);
    await sql`update ledger_entry set created_at = ${`${month}-01T00:00:00Z`}::timestamptz + (id - ${written[0]}) * interval '1 minute'
      where id in (${sql.join(written)})`.execute(ctx.db);
    return written;
  }

  async function newReseller(name: string, parentId?: number) {
    const res = await admin.post('/portal/reseller-info', { name, ...(parentId === undefined ? {} : { parentId }) });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  }

  const issue = (c: Client, resellerId: number, month: string) => c.post(`/portal/reseller-info/invoices/${resellerId}/issue`, { month });
  const list = (c: Client, resellerId: number, body: Row = {}) => c.post(`/portal/reseller-info/invoices/${resellerId}`, body);

  beforeAll(async () => {
    ctx = await testApp(engine, { invoices: { autoIssue: false, compressPdf: false } });
    [admin, northwind, iot, bluesky, harbor] = await Promise.all(['admin', 'northwind', 'northwind-iot', 'bluesky', 'harbor'].map((u) => ctx.as(u)));
    for (const r of await ctx.db.selectFrom('reseller').select(['id', 'name']).execute()) ids[r.name] = r.id;
  });
  afterAll(async () => ctx?.close());

  it("sums the month's ledger exactly: opening, credits, debits, fees, closing; the PDF and CSV show its rows", async () => {
    const id = await newReseller('Invoice Exact');
    await ctx.db.updateTable('reseller').set({ quickbooksId: 'QB-7788', legalName: 'Invoice Exact Ltd' }).where('id', '=', id).execute();
    const before = monthsAgo(3);
    const month = monthsAgo(2);
    await movements(id, before, [
      { kind: 'opening', amount: '100.10' },
      { kind: 'payment', amount: '200.07', method: 'BANK_WIRE', fee: '0.33' },
    ]);
    // A long month: enough rows for several pages, with every kind and awkward cents.
    const postings: Omit<Posting, 'resellerId'>[] = [];
    for (let i = 0; i < 130; i++) {
      const k = i % 5;
      if (k === 0)
        postings.push({
          kind: 'payment',
          amount: `${(i % 7) + 10}.${String((i * 13) % 100).padStart(2, '0')}`,
          method: 'STRIPE',
          fee: '0.41',
          reference: `pi_${i}`,
        });
      else if (k === 1) postings.push({ kind: 'purchase', amount: `-${(i % 11) + 9}.${String((i * 29) % 100).padStart(2, '0')}`, reference: `package ${i}` });
      else if (k === 2) postings.push({ kind: 'charge', amount: '-3.01', reference: `usage ${i}` });
      else if (k === 3) postings.push({ kind: 'refund', amount: '0.99', reference: `refund ${i}` });
      else postings.push({ kind: 'adjustment', amount: i % 2 ? '-0.07' : '0.03' });
    }
    const written = await movements(id, month, postings);
    await movements(id, monthsAgo(1), [{ kind: 'charge', amount: '-1.00' }]);

    const res = await issue(admin, id, month);
    expect(res.statusCode, res.body).toBe(201);
    const invoice = res.json() as Row;

    const ledger = await ctx.db
      .selectFrom('ledgerEntry')
      .select([
        'id',
        sql<string>`amount::text`.as('amount'),
        sql<string>`fee::text`.as('fee'),
        sql<string>`balance_after::text`.as('balanceAfter'),
        'kind',
        'reference',
        'method',
      ])
      .where('resellerId', '=', id)
      .orderBy('id')
      .execute();
    const inMonth = ledger.filter((r) => written.includes(Number(r.id)));
    const credits = inMonth.reduce((s, r) => s + Math.max(cents(r.amount), 0), 0);
    const debits = inMonth.reduce((s, r) => s + Math.min(cents(r.amount), 0), 0);
    const fees = inMonth.reduce((s, r) => s + cents(r.fee), 0);
    const opening = ledger[1].balanceAfter;
    expect(inMonth).toHaveLength(130);
    // Exact figures as the database keeps them (numeric text), against the sums in whole cents.
    const stored = await ctx.db
      .selectFrom('invoice')
      .select([
        sql<string>`opening_balance::text`.as('opening'),
        sql<string>`credits::text`.as('credits'),
        sql<string>`debits::text`.as('debits'),
        sql<string>`fees::text`.as('fees'),
        sql<string>`closing_balance::text`.as('closing'),
        'lineCount',
        'quickbooksCustomerId',
        'exportReference',
        'number',
      ])
      .where('id', '=', invoice.id)
      .executeTakeFirstOrThrow();
    expect(cents(stored.opening)).toBe(cents(opening));
    expect(cents(stored.credits)).toBe(credits);
    expect(cents(stored.debits)).toBe(debits);
    expect(cents(stored.fees)).toBe(fees);
    expect(stored.closing).toBe(inMonth.at(-1)!.balanceAfter);
    expect(cents(stored.closing)).toBe(cents(opening) + credits + debits);
    expect(stored).toMatchObject({ lineCount: 130, quickbooksCustomerId: 'QB-7788', exportReference: 'Invoice Exact Ltd' });
    expect(invoice).toMatchObject({ month, resellerId: id, lineCount: 130, closingBalance: Number(stored.closing), issuedBy: 'admin', currency: 'USD' });
    expect(invoice.dueDate > `${month}-28`).toBe(true);

    // The CSV: one line per ledger row of the month, the same values.
    const csv = await admin.get(`/portal/reseller-info/invoices/${id}/${invoice.id}/csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="invoice-${String(stored.number).padStart(6, '0')}.csv"`);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe('date,kind,method,reference,amount,fee,balanceAfter,confirmationCode');
    expect(lines).toHaveLength(131);
    const cells = lines.slice(1).map((l) => l.split(','));
    expect(cells.map((c) => [c[1], c[2], c[3], c[4], c[5], c[6]])).toEqual(
      inMonth.map((r) => [r.kind, r.method ?? '', r.reference ?? '', r.amount, r.fee, r.balanceAfter]),
    );

    // The PDF: a real document with the number, the QuickBooks id and the balances, over more than one page.
    const pdf = await admin.get(`/portal/reseller-info/invoices/${id}/${invoice.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const number = String(stored.number).padStart(6, '0');
    expect(pdf.headers['content-disposition']).toBe(`attachment; filename="invoice-${number}.pdf"`);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain(`No. ${number}`);
    expect(text).toContain('QB-7788');
    expect(text).toContain('Connectivity Provider');
    expect(text).toContain('Invoice Exact');
    expect(text).toContain('pi_125');
    expect(pageCount(pdf.rawPayload)).toBeGreaterThan(2);
    expect(pdf.rawPayload.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);

    // Open while the reseller owes; paid once later payments cover the debt.
    if (cents(stored.closing) < 0) {
      expect((await list(admin, id)).json().items[0].status).toBe('open');
      await post(ctx.db, { resellerId: id, kind: 'payment', amount: (-cents(stored.closing) / 100).toFixed(2), method: 'MANUAL' });
    }
    const after = (await list(admin, id)).json().items.find((i: Row) => i.id === invoice.id);
    expect(after.status).toBe('paid');
    expect(after.paidAt).toBeTruthy();
  });

  it('refuses the current month, a future one, a malformed one and one already issued, writing nothing', async () => {
    const id = await newReseller('Invoice Refusals');
    await movements(id, monthsAgo(1), [{ kind: 'opening', amount: '5.00' }]);
    const count = async () =>
      (
        await ctx.db
          .selectFrom('invoice')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    const counter = async () => (await ctx.db.selectFrom('invoiceCounter').select('lastNumber').executeTakeFirstOrThrow()).lastNumber;
    const [n0, c0] = [await count(), await counter()];
    for (const [month, rule] of [
      [monthsAgo(0), 'past'],
      [monthsAgo(-1), 'past'],
      ['2026-13', 'pattern'],
      ['26-01', 'pattern'],
      ['1999-12', 'range'],
    ]) {
      const res = await issue(admin, id, month);
      expect(res.statusCode, month).toBe(400);
      expect(fieldsOf(res), month).toEqual([`month:${rule}`]);
    }
    expect(fieldsOf(await admin.post(`/portal/reseller-info/invoices/${id}/issue`, {}))).toEqual(['month:required']);
    expect((await admin.post(`/portal/reseller-info/invoices/${id}/issue`, { month: monthsAgo(1), extra: 1 })).statusCode).toBe(400);
    expect([await count(), await counter()]).toEqual([n0, c0]);

    expect((await issue(admin, id, monthsAgo(1))).statusCode).toBe(201);
    const again = await issue(admin, id, monthsAgo(1));
    expect(again.statusCode).toBe(409);
    expect(fieldsOf(again)).toEqual(['month:unique']);
    expect(again.json().fields[0].messageId).toBe('invoice.month.issued');
    // A month without movements may still be issued by hand: nothing moved, opening = closing.
    const quiet = await issue(admin, id, monthsAgo(5));
    expect(quiet.statusCode).toBe(201);
    expect(quiet.json()).toMatchObject({ lineCount: 0, openingBalance: 0, closingBalance: 0, credits: 0, debits: 0 });
    expect([await count(), await counter()]).toEqual([Number(n0) + 2, c0 + 2]);
  });

  it('numbers invoices one after the other without gaps when many are issued at once, and issues a month once', async () => {
    const month = monthsAgo(4);
    const resellers: number[] = [];
    for (let i = 0; i < 20; i++) resellers.push(await newReseller(`Invoice Batch ${i}`));
    for (const id of resellers) await movements(id, month, [{ kind: 'opening', amount: `${resellers.indexOf(id) + 1}.00` }]);
    const before = (await ctx.db.selectFrom('invoiceCounter').select('lastNumber').executeTakeFirstOrThrow()).lastNumber;

    const answers = await Promise.all([...resellers.map((id) => issue(admin, id, month)), ...[1, 2, 3, 4].map(() => issue(admin, resellers[0], month))]);
    const created = answers.filter((a) => a.statusCode === 201);
    expect(created).toHaveLength(20);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(4);
    const numbers = created.map((a) => a.json().number as number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => before + 1 + i));

    // Every number ever given is there once: 1 to the counter's last, no gap.
    const all = (await ctx.db.selectFrom('invoice').select('number').orderBy('number').execute()).map((r) => r.number);
    expect(all).toEqual(Array.from({ length: all.length }, (_, i) => i + 1));
    expect((await ctx.db.selectFrom('invoiceCounter').select('lastNumber').executeTakeFirstOrThrow()).lastNumber).toBe(all.length);
  });

  it("issues last month's invoices by itself, once, however many servers try at the same time", async () => {
    const a = await newReseller('Invoice Auto A');
    const b = await newReseller('Invoice Auto B');
    const last = previousMonth(new Date());
    await movements(a, last, [{ kind: 'opening', amount: '10.00' }]);
    await movements(b, last, [
      { kind: 'opening', amount: '1.00' },
      { kind: 'purchase', amount: '-4.50' },
    ]);
    const [first, second] = await Promise.all([issueDue(ctx.db), issueDue(ctx.db)]);
    const mine = await ctx.db.selectFrom('invoice').select(['resellerId', 'status']).where('resellerId', 'in', [a, b]).orderBy('resellerId').execute();
    expect(mine).toEqual([
      { resellerId: a, status: 'paid' },
      { resellerId: b, status: 'open' },
    ]);
    expect(first.length + second.length).toBeGreaterThanOrEqual(2);
    expect(await issueDue(ctx.db)).toEqual([]);
    const invoices = (await list(admin, b)).json();
    expect(invoices.items[0]).toMatchObject({ month: last, issuedBy: null, closingBalance: -3.5, status: 'open' });
  });

  it('lets the reseller, those above it and the administrator read; a sibling, a child and an account user not', async () => {
    const iotId = ids['Northwind IoT'];
    const northwindId = ids['Northwind Mobile'];
    await movements(iotId, monthsAgo(6), [{ kind: 'adjustment', amount: '2.00' }]);
    await movements(northwindId, monthsAgo(6), [{ kind: 'adjustment', amount: '3.00' }]);

    // The parent issues its child's; a reseller never its own.
    const own = await issue(iot, iotId, monthsAgo(6));
    expect(own.statusCode).toBe(403);
    expect(fieldsOf(own)).toEqual(['resellerId:protected']);
    const child = await issue(northwind, iotId, monthsAgo(6));
    expect(child.statusCode, child.body).toBe(201);
    const invoiceId = child.json().id as number;
    expect((await issue(iot, northwindId, monthsAgo(6))).statusCode).toBe(404);
    expect((await issue(bluesky, northwindId, monthsAgo(6))).statusCode).toBe(404);
    expect((await issue(harbor, northwindId, monthsAgo(6))).statusCode).toBe(403);
    const parent = await issue(admin, northwindId, monthsAgo(6));
    expect(parent.statusCode).toBe(201);

    for (const c of [admin, northwind, iot]) {
      const page = await list(c, iotId);
      expect(page.statusCode).toBe(200);
      expect(page.json().items.map((i: Row) => i.id)).toContain(invoiceId);
      expect((await c.get(`/portal/reseller-info/invoices/${iotId}/${invoiceId}/pdf`)).statusCode).toBe(200);
      expect((await c.get(`/portal/reseller-info/invoices/${iotId}/${invoiceId}/csv`)).statusCode).toBe(200);
    }
    // A sibling tenant and a child see nothing of it; an account user has no invoices at all.
    expect((await list(bluesky, iotId)).statusCode).toBe(404);
    expect((await bluesky.get(`/portal/reseller-info/invoices/${iotId}/${invoiceId}/pdf`)).statusCode).toBe(404);
    expect((await bluesky.get(`/portal/reseller-info/invoices/${iotId}/${invoiceId}/csv`)).statusCode).toBe(404);
    expect((await list(iot, northwindId)).statusCode).toBe(404);
    expect((await iot.get(`/portal/reseller-info/invoices/${northwindId}/${parent.json().id}/pdf`)).statusCode).toBe(404);
    expect((await list(harbor, northwindId)).statusCode).toBe(403);
    // An invoice named under another reseller than its own is not found, even by the administrator.
    expect((await admin.get(`/portal/reseller-info/invoices/${northwindId}/${invoiceId}/pdf`)).statusCode).toBe(404);
  });

  it('pages, sorts and narrows on the server, and refuses sorts and searches it does not know', async () => {
    const id = await newReseller('Invoice Pages');
    for (const back of [7, 8, 9]) {
      await movements(id, monthsAgo(back), [{ kind: 'adjustment', amount: `${back}.00` }]);
      expect((await issue(admin, id, monthsAgo(back))).statusCode).toBe(201);
    }
    const first = (await list(admin, id, { sortBy: 'month', sortDir: 'asc', page: { page: 0, size: 2 } })).json();
    expect(first).toMatchObject({ totalItemsCount: 3, totalPageCount: 2, currentPage: 0 });
    expect(first.items.map((i: Row) => i.month)).toEqual([monthsAgo(9), monthsAgo(8)]);
    const second = (await list(admin, id, { sortBy: 'month', sortDir: 'asc', page: { page: 1, size: 2 } })).json();
    expect(second.items.map((i: Row) => i.month)).toEqual([monthsAgo(7)]);
    const byNumber = (await list(admin, id)).json().items.map((i: Row) => i.number);
    expect(byNumber).toEqual([...byNumber].sort((a, b) => b - a));
    const narrowed = (await list(admin, id, { searchBy: 'month', searchKey: monthsAgo(8) })).json();
    expect(narrowed.items.map((i: Row) => i.month)).toEqual([monthsAgo(8)]);
    expect((await list(admin, id, { searchBy: 'status', searchKey: 'paid' })).json().totalItemsCount).toBe(3);
    expect(fieldsOf(await list(admin, id, { sortBy: 'password' }))).toEqual(['sortBy:enum']);
    expect(fieldsOf(await list(admin, id, { searchBy: 'resellerId', searchKey: '1' }))).toEqual(['searchBy:enum']);
    expect((await list(admin, id, { page: { page: 0, size: 100000 } })).statusCode).toBe(400);
    expect((await admin.post('/portal/reseller-info/invoices/2147483648', {})).statusCode).toBe(400);
    expect((await admin.get(`/portal/reseller-info/invoices/${id}/0/pdf`)).statusCode).toBe(400);
  });
});
