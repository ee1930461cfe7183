import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, type LedgerKind, type PaymentMethodCode } from '@server/domains/ledger';
import * as journal from '@server/db/migrations/0140_ledger_accounts';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;
type Row = Record<string, any>;

const FINANCE = '/portal/finance';
const ACCOUNTS = `${FINANCE}/ledger-accounts`;
const PRODUCTS = `${FINANCE}/billing-products`;
const fieldsOf = (res: { json(): { fields?: { field: string; rule: string }[] } }) => res.json().fields?.map((f) => `${f.field}:${f.rule}`);

describe.each(engines)('finance: chart of accounts, journal, trial balance on %s', (engine) => {
  let ctx: Ctx;
  let admin: Client;
  let northwind: Client;
  let bluesky: Client;
  let harbor: Client;
  const ids: Record<string, number> = {};

  /** Every entry whose debits and credits differ, or that has no line although it moved money. */
  const unbalanced = async () =>
    (
      await sql<{ id: string }>`
        select e.id::text from ledger_entry e left join ledger_line l on l.ledger_entry_id = e.id
        group by e.id, e.amount, e.fee
        having coalesce(sum(l.debit), 0) <> coalesce(sum(l.credit), 0) or (count(l.id) = 0 and (e.amount <> 0 or e.fee <> 0))`.execute(ctx.db)
    ).rows;
  const linesOf = async (entryId: number) =>
    (
      await sql<{ code: string; debit: string; credit: string }>`
        select account_code as code, debit::text, credit::text from ledger_line where ledger_entry_id = ${entryId} order by account_code`.execute(ctx.db)
    ).rows.map((l) => `${l.code} ${l.debit}/${l.credit}`);
  const postAs = (resellerId: number, kind: LedgerKind, amount: string, more: { method?: PaymentMethodCode; fee?: string } = {}) =>
    ctx.db.transaction().execute((trx) => post(trx, { resellerId, kind, amount, reference: `test ${kind}`, ...more }));
  const trial = async (query = '') => {
    const res = await admin.get(`${FINANCE}/trial-balance${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Row;
  };
  const account = (tb: Row, code: string) => (tb.accounts as Row[]).find((a) => a.code === code)!;

  beforeAll(async () => {
    ctx = await testApp(engine);
    [admin, northwind, bluesky, harbor] = await Promise.all(['admin', 'northwind', 'bluesky', 'harbor'].map((u) => ctx.as(u)));
    for (const r of await ctx.db.selectFrom('reseller').select(['id', 'name']).execute()) ids[r.name] = r.id;
  });
  afterAll(async () => ctx?.close());

  it('writes balanced lines for every kind and method, by the mapping of the chart', async () => {
    const nw = ids['Northwind Mobile'];
    // The demo's openings are in the journal already: equity against reseller balances.
    const opening = (await ctx.db.selectFrom('ledgerEntry').select('id').where('resellerId', '=', nw).where('kind', '=', 'opening').executeTakeFirstOrThrow())
      .id;
    expect(await linesOf(Number(opening))).toEqual(['2010 0.00/5000.00', '3010 5000.00/0.00']);

    const cases: [LedgerKind, string, { method?: PaymentMethodCode; fee?: string }, string[]][] = [
      ['payment', '100.00', { method: 'CREDIT_CARD', fee: '3.20' }, ['1020 103.20/0.00', '2010 0.00/100.00', '4030 0.00/3.20']],
      ['payment', '250.00', { method: 'BIT_PAY', fee: '1.00' }, ['1030 251.00/0.00', '2010 0.00/250.00', '4030 0.00/1.00']],
      ['payment', '80.00', { method: 'STRIPE', fee: '2.62' }, ['1040 82.62/0.00', '2010 0.00/80.00', '4030 0.00/2.62']],
      ['payment', '1000.00', { method: 'BANK_WIRE' }, ['1010 1000.00/0.00', '2010 0.00/1000.00']],
      ['payment', '40.00', { method: 'MANUAL' }, ['1010 40.00/0.00', '2010 0.00/40.00']],
      // A reset reverses a payment: the amount negative, the payment's method and fee.
      ['reset', '-100.00', { method: 'CREDIT_CARD', fee: '3.20' }, ['1020 0.00/103.20', '2010 100.00/0.00', '4030 3.20/0.00']],
      ['reset', '-80.00', { method: 'STRIPE', fee: '2.62' }, ['1040 0.00/82.62', '2010 80.00/0.00', '4030 2.62/0.00']],
      ['purchase', '-9.99', {}, ['2010 9.99/0.00', '4010 0.00/9.99']],
      ['charge', '-12.50', {}, ['2010 12.50/0.00', '4020 0.00/12.50']],
      ['refund', '9.99', {}, ['2010 0.00/9.99', '4010 9.99/0.00']],
      ['adjustment', '5.00', {}, ['2010 0.00/5.00', '5010 5.00/0.00']],
      // A negative amount swaps the sides.
      ['adjustment', '-7.25', {}, ['2010 7.25/0.00', '5010 0.00/7.25']],
      ['opening', '-1.00', {}, ['2010 1.00/0.00', '3010 0.00/1.00']],
    ];
    for (const [kind, amount, more, expected] of cases) {
      const { id } = await postAs(nw, kind, amount, more);
      expect(await linesOf(id), `${kind} ${amount} ${more.method ?? ''}`).toEqual(expected);
    }
    // Purchases through the portal, on another reseller.
    const bs = ids['Blue Sky Telecom'];
    await postAs(bs, 'purchase', '-0.10');
    await postAs(bs, 'payment', '0.05', { method: 'STRIPE', fee: '0.35' });
    expect(await unbalanced()).toEqual([]);
  });

  it('answers a trial balance whose difference is 0.00, the reseller balances account holding every standing', async () => {
    const tb = await trial();
    expect(tb.totals.difference).toBe(0);
    expect(tb.totals.debit).toBe(tb.totals.credit);
    expect(tb.totals.debit).toBeGreaterThan(0);
    expect(tb.accounts.map((a: Row) => a.code)).toEqual(['1010', '1020', '1030', '1040', '2010', '3010', '4010', '4020', '4030', '5010']);
    const standings = (await sql<{ total: string }>`select sum(balance)::text as total from reseller_standing`.execute(ctx.db)).rows[0].total;
    expect(account(tb, '2010').balance).toBe(Number(standings));
    // Card: 103.20 in, 103.20 out; fee income keeps BitPay's 1.00 and Stripe's 0.35.
    expect(account(tb, '1020')).toMatchObject({ debit: 103.2, credit: 103.2, balance: 0 });
    expect(account(tb, '4030').balance).toBe(1.35);
    expect(account(tb, '5010')).toMatchObject({ debit: 5, credit: 7.25, balance: -2.25 });

    // A period: nothing before today's postings in a past year; today's alone today.
    const past = await trial('?from=2000-01-01&to=2000-12-31');
    expect(past.totals).toEqual({ debit: 0, credit: 0, difference: 0 });
    const today = new Date().toISOString().slice(0, 10);
    const todays = await trial(`?from=${today}&to=${today}`);
    expect(todays.totals.difference).toBe(0);
    expect(account(todays, '1030').debit).toBe(251);
    expect((await trial(`?to=${today}`)).totals).toEqual(tb.totals);
  });

  it("pages one account's journal with each line's reseller and entry", async () => {
    const res = await admin.get(`${FINANCE}/accounts/1020/lines?size=1`);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json();
    expect(page.account).toEqual({ code: '1020', name: 'Card processor clearing', type: 'asset' });
    expect(page.totalItemsCount).toBe(2);
    expect(page.totalPageCount).toBe(2);
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      kind: 'reset',
      method: 'CREDIT_CARD',
      resellerName: 'Northwind Mobile',
      amount: -100,
      fee: 3.2,
      debit: 0,
      credit: 103.2,
    });
    const second = (await admin.get(`${FINANCE}/accounts/1020/lines?size=1&page=1`)).json();
    expect(second.items[0]).toMatchObject({ kind: 'payment', debit: 103.2, credit: 0 });
    expect(second.items[0].entryId).toBeLessThan(page.items[0].entryId);
    expect((await admin.get(`${FINANCE}/accounts/1020/lines?from=2000-01-01&to=2000-01-31`)).json().items).toEqual([]);
    expect((await admin.get(`${FINANCE}/accounts/9999/lines`)).statusCode).toBe(404);
  });

  it('finds no drift in agreeing books, and reports a corrupted standing', async () => {
    const clean = await admin.get(`${FINANCE}/ledger-check`);
    expect(clean.statusCode, clean.body).toBe(200);
    expect(clean.json().drift).toEqual([]);
    expect(clean.json().accountBalance).toBe(clean.json().resellersTotal);
    expect(clean.json().resellersChecked).toBeGreaterThanOrEqual(3);

    const bs = ids['Blue Sky Telecom'];
    await sql`update reseller_standing set balance = balance + 10 where reseller_id = ${bs}`.execute(ctx.db);
    try {
      const check = (await admin.get(`${FINANCE}/ledger-check`)).json();
      const reseller = check.drift.find((d: Row) => d.kind === 'reseller');
      expect(reseller).toMatchObject({ resellerId: bs, resellerName: 'Blue Sky Telecom' });
      expect(reseller.standingBalance).toBeCloseTo(reseller.lastBalanceAfter + 10, 2);
      expect(reseller.sumOfAmounts).toBe(reseller.lastBalanceAfter);
      expect(check.drift.find((d: Row) => d.kind === 'account')).toMatchObject({ accountCode: '2010' });
      expect(check.drift).toHaveLength(2);
    } finally {
      await sql`update reseller_standing set balance = balance - 10 where reseller_id = ${bs}`.execute(ctx.db);
    }
    expect((await admin.get(`${FINANCE}/ledger-check`)).json().drift).toEqual([]);
  });

  it('keeps system accounts: no type or code change, no delete; other accounts are the administrator to shape', async () => {
    const list = await admin.post(`${ACCOUNTS}/paged`, { searchBy: 'multi', searchKey: 'clearing' });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().items.map((a: Row) => a.code)).toEqual(['1020', '1030', '1040']);
    const cash = list.json().items[0] as Row;
    expect(cash.system).toBe(true);

    const retype = await admin.put(ACCOUNTS, { id: cash.id, code: '1020', name: cash.name, type: 'expense' });
    expect(retype.statusCode).toBe(400);
    expect(fieldsOf(retype)).toEqual(['type:system']);
    expect(fieldsOf(await admin.put(ACCOUNTS, { id: cash.id, code: '1021', name: cash.name, type: 'asset' }))).toEqual(['code:system']);
    const removal = await admin.delete(`${ACCOUNTS}/${cash.id}`);
    expect(removal.statusCode).toBe(409);
    expect(fieldsOf(removal)).toEqual(['code:system']);
    // A system account's name and description may change.
    const renamed = await admin.put(ACCOUNTS, { id: cash.id, name: 'Card clearing (processor)', description: 'Cards' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ code: '1020', type: 'asset', system: true, name: 'Card clearing (processor)' });
    expect((await ctx.db.selectFrom('ledgerAccount').select('type').where('code', '=', '1020').executeTakeFirstOrThrow()).type).toBe('asset');

    // The administrator's own account: created, retyped, deleted; `system` is the server's to set.
    const created = await admin.post(ACCOUNTS, { code: '6010', name: 'Bank charges', type: 'expense', system: true });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ code: '6010', system: false });
    expect((await admin.put(ACCOUNTS, { id: created.json().id, type: 'liability' })).json().type).toBe('liability');
    expect((await admin.post(ACCOUNTS, { code: '6010', name: 'Twice', type: 'expense' })).statusCode).toBe(409);
    expect(fieldsOf(await admin.post(ACCOUNTS, { code: '60A', name: 'Bad code', type: 'expense' }))).toEqual(['code:pattern']);
    expect(fieldsOf(await admin.post(ACCOUNTS, { code: '6020', name: 'Bad type', type: 'income' }))).toEqual(['type:enum']);
    expect((await admin.delete(`${ACCOUNTS}/${created.json().id}`)).statusCode).toBe(204);
    expect((await admin.get('/portal/finance/trial-balance')).json().accounts.map((a: Row) => a.code)).not.toContain('6010');
  });

  it('lists the billing products with their revenue account, and refuses an account that is not revenue', async () => {
    const res = await admin.post(`${PRODUCTS}/paged`, {});
    expect(res.statusCode, res.body).toBe(200);
    const products = res.json().items as Row[];
    expect(products.map((p) => p.code)).toEqual(['DATA_USAGE', 'ESIM', 'PAYMENT_FEE', 'PREPAID_PACKAGE', 'SIM_CARD', 'SUBSCRIPTION_FEE']);
    expect(products.find((p) => p.code === 'PREPAID_PACKAGE')).toMatchObject({
      accountCode: '4010',
      accountName: 'Prepaid package sales',
      quickbooksItem: 'Prepaid Package',
    });
    const sorted = await admin.post(`${PRODUCTS}/paged`, { sortBy: 'code', sortDir: 'desc', searchBy: 'accountCode', searchKey: '4020' });
    expect(sorted.json().items.map((p: Row) => p.name)).toEqual(['Subscription fee', 'SIM card', 'eSIM', 'Data usage']);

    const created = await admin.post(PRODUCTS, { code: 'ROAMING_PASS', name: 'Roaming pass', accountCode: '4020', quickbooksItem: 'Roaming Pass' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ accountName: 'Charges revenue' });
    const expense = await admin.put(PRODUCTS, { id: created.json().id, accountCode: '5010' });
    expect(expense.statusCode).toBe(400);
    expect(fieldsOf(expense)).toEqual(['accountCode:reference']);
    expect(fieldsOf(await admin.post(PRODUCTS, { code: 'NOWHERE', name: 'Nowhere', accountCode: '9999' }))).toEqual(['accountCode:reference']);
    expect(fieldsOf(await admin.post(PRODUCTS, { code: 'lower', name: 'Lower', accountCode: '4020' }))).toEqual(['code:pattern']);
    // An account a product names is in use.
    const charges = (await admin.post(`${ACCOUNTS}/paged`, { searchBy: 'code', searchKey: '4020' })).json().items[0];
    expect(charges.system).toBe(true);
  });

  it("sums the resellers' money in the overview as the standings, invoices and payments have it", async () => {
    const iot = ids['Northwind IoT'];
    // Northwind IoT in debt, with a dispute, an open invoice and a wire awaiting confirmation.
    const { balance } = await ctx.db.selectFrom('resellerStanding').select('balance').where('resellerId', '=', iot).executeTakeFirstOrThrow();
    await postAs(iot, 'adjustment', (-(Number(balance) + 321.45)).toFixed(2));
    await ctx.db.updateTable('resellerStanding').set({ disputedAmount: '40.00' }).where('resellerId', '=', iot).execute();
    const res = await admin.get(`${FINANCE}/overview?top=5`);
    expect(res.statusCode, res.body).toBe(200);
    const o = res.json() as Row;
    const { rows } = await sql<Record<string, string>>`
      select sum(balance)::text as balance, (-sum(balance) filter (where balance < 0))::text as debt, count(*) filter (where balance < 0)::text as in_debt,
        sum(disputed_amount)::text as disputed
      from reseller_standing where reseller_id <> -1`.execute(ctx.db);
    expect(o.resellers).toMatchObject({ balance: Number(rows[0].balance), debt: Number(rows[0].debt), inDebt: Number(rows[0].inDebt) });
    expect(o.disputed.amount).toBe(Number(rows[0].disputed));
    const pending = await sql<{ n: string }>`select count(*)::text as n from payment where status = 'pending' and method = 'BANK_WIRE'`.execute(ctx.db);
    expect(o.pending.bankWires).toBe(Number(pending.rows[0].n));
    // The debtors, most owing first, at most `top`.
    expect(o.debtors.length).toBeLessThanOrEqual(5);
    expect(o.debtors.map((d: Row) => d.resellerId)).toContain(iot);
    const balances = o.debtors.map((d: Row) => d.balance);
    expect(balances).toEqual([...balances].sort((a, b) => a - b));
    expect(o.debtors.find((d: Row) => d.resellerId === iot)).toMatchObject({ disputedAmount: 40 });
    expect((await admin.get(`${FINANCE}/overview?top=0`)).statusCode).toBe(400);
  });

  it('is the administrator’s alone: resellers and account users get 403', async () => {
    const calls = [
      `${FINANCE}/trial-balance`,
      `${FINANCE}/accounts/2010/lines`,
      `${FINANCE}/ledger-check`,
      `${FINANCE}/overview`,
      `${ACCOUNTS}/1`,
      `${PRODUCTS}/1`,
      ACCOUNTS,
      PRODUCTS,
    ];
    for (const client of [northwind, bluesky, harbor]) {
      for (const url of calls) expect((await client.get(url)).statusCode, url).toBe(403);
      expect((await client.post(`${ACCOUNTS}/paged`, {})).statusCode).toBe(403);
      expect((await client.post(ACCOUNTS, { code: '7010', name: 'Mine', type: 'expense' })).statusCode).toBe(403);
    }
  });

  it('refuses bad dates, a period ending before it starts and a bad code, naming the field', async () => {
    const bad = async (url: string, fields: string[]) => {
      const res = await admin.get(url);
      expect(res.statusCode, url).toBe(400);
      expect(fieldsOf(res), url).toEqual(fields);
      expect(res.body).not.toMatch(/ledger_|syntax|relation/);
    };
    await bad(`${FINANCE}/trial-balance?from=2026-13-01`, ['from:format']);
    await bad(`${FINANCE}/trial-balance?to=yesterday`, ['to:format']);
    await bad(`${FINANCE}/trial-balance?from=2026-02-01&to=2026-01-31`, ['to:order']);
    await bad(`${FINANCE}/accounts/2010/lines?from=2026-02-01&to=2026-01-01`, ['to:order']);
    await bad(`${FINANCE}/accounts/2010/lines?page=-1`, ['page:range']);
    await bad(`${FINANCE}/accounts/2010/lines?size=100000`, ['size:range']);
    await bad(`${FINANCE}/accounts/abc/lines`, ['code:pattern']);
  });

  it('backfills the journal of entries written before it, by the same mapping', async () => {
    const before = (
      await sql<{ line: string }>`select ledger_entry_id || ' ' || account_code || ' ' || debit || '/' || credit as line from ledger_line order by 1`.execute(
        ctx.db,
      )
    ).rows;
    expect(before.length).toBeGreaterThan(20);
    await journal.down(ctx.db);
    await journal.up(ctx.db);
    const after = (
      await sql<{ line: string }>`select ledger_entry_id || ' ' || account_code || ' ' || debit || '/' || credit as line from ledger_line order by 1`.execute(
        ctx.db,
      )
    ).rows;
    expect(after).toEqual(before);
    expect((await trial()).totals.difference).toBe(0);
  });
});
