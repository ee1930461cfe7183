import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;

describe.each(engines)("the demo's year of package sales on %s", (engine) => {
  let ctx: Ctx;
  beforeAll(async () => {
    ctx = await testApp(engine, {}, { sales: true });
  }, 120_000);
  afterAll(() => ctx?.close());

  it('sells offered templates, by each reseller manager, as purchases debited from the reseller', async () => {
    const { rows } = await sql<{ ok: boolean; soldBy: string; manager: string | null; debit: string | null; price: string }>`
      select sr.path like tr.path || '%' as ok, p.sold_by, u.username as manager, l.amount::text as debit, p.price::text as price
      from prepaid_package p
      join subscriber s on s.subscriber_id = p.subscriber_id join reseller sr on sr.id = s.reseller_id
      join prepaid_template t on t.id = p.template_id join reseller tr on tr.id = t.reseller_id
      left join app_user u on u.username = p.sold_by and u.reseller_id = p.reseller_id and u.account_id is null
      left join ledger_entry l on l.id = p.ledger_entry_id and l.kind = 'purchase' and l.reseller_id = p.reseller_id
      where p.sale_kind = 'purchase'`.execute(ctx.db);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.ok).toBe(true);
      expect(r.manager).toBe(r.soldBy);
      expect(Number(r.debit)).toBe(-Number(r.price));
    }
    // Spread over the year, none in the future, those past their period expired.
    const spread = (
      await sql<{ days: number; future: number; stale: number }>`
        select (extract(epoch from max(payment_date) - min(payment_date)) / 86400)::int as days,
          count(*) filter (where payment_date > now())::int as future,
          count(*) filter (where status = 'active' and expiration_date <= now())::int as stale
        from prepaid_package`.execute(ctx.db)
    ).rows[0];
    expect(spread.days).toBeGreaterThan(60);
    expect([spread.future, spread.stale]).toEqual([0, 0]);
  });

  it('keeps every balance history true in time order and covered', async () => {
    const entries = (
      await sql<{ resellerId: number; amount: string; balanceAfter: string; kind: string }>`
        select reseller_id, amount::text, balance_after::text, kind from ledger_entry order by reseller_id, created_at, id`.execute(ctx.db)
    ).rows;
    let last = { reseller: 0, balance: 0 };
    for (const e of entries) {
      const before = e.resellerId === last.reseller ? last.balance : 0;
      if (e.resellerId !== last.reseller) expect(e.kind).toBe('opening');
      expect(Number(e.balanceAfter)).toBeCloseTo(before + Number(e.amount), 2);
      expect(Number(e.balanceAfter)).toBeGreaterThan(0);
      last = { reseller: e.resellerId, balance: Number(e.balanceAfter) };
    }
    // The journal dates each line with its entry.
    const { rows } = await sql<{ n: string }>`select count(*)::text as n from ledger_line j join ledger_entry e on e.id = j.ledger_entry_id
      where j.created_at <> e.created_at`.execute(ctx.db);
    expect(rows[0].n).toBe('0');
  });

  it('shows the sales in the sales graphs, the same as the packages sold', async () => {
    const from = new Date(Date.now() - 400 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const admin = await ctx.as('admin');
    const res = await admin.post('/portal/graphs/salesTotal', { range: 'custom', from, to });
    expect(res.statusCode, res.body).toBe(200);
    const raw = (
      await sql<{
        amount: string;
        n: string;
      }>`select sum(price)::text as amount, count(*)::text as n from prepaid_package where sale_kind = 'purchase'`.execute(ctx.db)
    ).rows[0];
    expect(res.json()).toMatchObject({ value: expect.closeTo(Number(raw.amount), 2), count: Number(raw.n) });
    const series = await admin.post('/portal/graphs/sales', { range: 'last12Months' });
    expect(series.statusCode, series.body).toBe(200);
    // More than one month of the year sold something.
    expect(series.json().points.filter((p: { count: number }) => p.count > 0).length).toBeGreaterThan(1);
  });
});
