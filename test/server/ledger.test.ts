import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { movementListing, post } from '@server/domains/ledger';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;
type Day = { resellerId: number; day: string; credits: string; debits: string; closing: string };

describe.each(engines)('the reseller ledger at scale, on %s', (engine) => {
  let ctx: Ctx;
  let admin: Client;
  let big: number;
  let small: number;

  /** A movement of `amount` for `resellerId`, made as a posting does, then dated `at`. */
  const move = async (resellerId: number, amount: number, at?: string) => {
    const { id } = await ctx.db.transaction().execute((trx) => post(trx, { resellerId, amount, kind: 'adjustment' }));
    if (at)
      await ctx.db
        .updateTable('ledgerEntry')
        .set({ createdAt: new Date(at) })
        .where('id', '=', id)
        .execute();
    return id;
  };

  /** The daily summaries as kept, and as summed anew from the ledger: they must always be equal. */
  const days = async () => {
    const kept = await sql<Day>`select reseller_id as "resellerId", to_char(day, 'YYYY-MM-DD') as day, credits::text, debits::text,
        closing_balance::text as closing from ledger_day where reseller_id in (${big}, ${small}) order by 1, 2`.execute(ctx.db);
    const summed = await sql<Day>`select reseller_id as "resellerId", to_char((created_at at time zone 'UTC')::date, 'YYYY-MM-DD') as day,
        sum(greatest(amount, 0))::numeric(14, 2)::text as credits, sum(least(amount, 0))::numeric(14, 2)::text as debits,
        (array_agg(balance_after order by created_at desc, id desc))[1]::text as closing
      from ledger_entry where reseller_id in (${big}, ${small}) group by 1, 2 order by 1, 2`.execute(ctx.db);
    return { kept: kept.rows, summed: summed.rows };
  };

  beforeAll(async () => {
    ctx = await testApp(engine);
    admin = await ctx.as('admin');
    const ids = Object.fromEntries((await ctx.db.selectFrom('reseller').select(['id', 'name']).execute()).map((r) => [r.name, r.id]));
    big = ids['Blue Sky Telecom'];
    small = ids['Northwind IoT'];
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await ctx?.close();
  });

  it('keeps a summary per reseller and UTC day in step with every posting, back-dated change and removal', async () => {
    await move(big, 100, '2026-01-05T23:30:00Z');
    await move(big, -20.25, '2026-01-06T00:10:00Z');
    await move(big, 5, '2026-01-06T12:00:00Z');
    await move(small, 7.5);
    const moved = await move(big, -1, '2026-01-06T13:00:00Z');
    expect((await days()).kept).toEqual((await days()).summed);
    // A movement moved to another day leaves the first and joins the second; a removed one leaves its day.
    await ctx.db
      .updateTable('ledgerEntry')
      .set({ createdAt: new Date('2026-01-07T08:00:00Z') })
      .where('id', '=', moved)
      .execute();
    let { kept, summed } = await days();
    expect(kept).toEqual(summed);
    expect(kept.filter((d) => d.resellerId === big).map((d) => [d.day, d.credits, d.debits])).toEqual(
      expect.arrayContaining([
        ['2026-01-06', '5.00', '-20.25'],
        ['2026-01-07', '0.00', '-1.00'],
      ]),
    );
    await ctx.db.deleteFrom('ledgerEntry').where('id', '=', moved).execute();
    ({ kept, summed } = await days());
    expect(kept).toEqual(summed);
    expect(kept.some((d) => d.resellerId === big && d.day === '2026-01-07')).toBe(false);
  });

  it("draws the history from the summaries as the ledger's own rows give it, by day, week and month", async () => {
    for (const [at, amount] of [
      ['2026-02-02T10:00:00Z', 40],
      ['2026-02-09T10:00:00Z', -15.5],
      ['2026-02-09T11:00:00Z', 3],
      ['2026-02-25T10:00:00Z', -2],
      ['2026-03-03T10:00:00Z', 9.99],
    ] as const)
      await move(big, amount, at);
    for (const interval of ['day', 'week', 'month'] as const) {
      const res = await admin.post('/portal/graphs/balanceHistory', { resellerId: big, from: '2026-01-01', to: '2026-03-10', interval });
      expect(res.statusCode, res.body).toBe(200);
      const { rows } = await sql<{ date: string; balance: string; credits: string; debits: string }>`
        with buckets as (
          select b as start, b + ${sql.lit(`1 ${interval}`)}::interval as stop
          from generate_series(date_trunc(${interval}, '2026-01-01'::timestamp), '2026-03-10'::timestamp, ${sql.lit(`1 ${interval}`)}::interval) b)
        select to_char(k.start, 'YYYY-MM-DD') as date,
          coalesce((select l.balance_after from ledger_entry l where l.reseller_id = ${big} and l.created_at < k.stop at time zone 'UTC'
            order by l.created_at desc, l.id desc limit 1), 0)::text as balance,
          coalesce(sum(greatest(m.amount, 0)), 0)::text as credits, coalesce(sum(least(m.amount, 0)), 0)::text as debits
        from buckets k left join ledger_entry m on m.reseller_id = ${big}
          and m.created_at >= k.start at time zone 'UTC' and m.created_at < k.stop at time zone 'UTC'
        group by k.start, k.stop order by k.start`.execute(ctx.db);
      const expected = rows.map((r) => ({ date: r.date, balance: Number(r.balance), credits: Number(r.credits), debits: Number(r.debits) }));
      expect(res.json().points, interval).toEqual(expected);
      expect(expected.some((p) => p.balance !== 0)).toBe(true);
    }
  });

  it("gives a big ledger's total as the planner's estimate, marked so, and a small one's exactly", async () => {
    vi.spyOn(movementListing, 'countLimit').mockReturnValue(3);
    const bigPage = (await admin.get(`/portal/ledger/entries?reseller_id=${big}&size=2`)).json();
    const count = Number(
      (
        await ctx.db
          .selectFrom('ledgerEntry')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('resellerId', '=', big)
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(count).toBeGreaterThan(3);
    expect(bigPage.totalIsEstimate).toBe(true);
    expect(bigPage.totalItemsCount).toBeGreaterThanOrEqual(4);
    expect(bigPage.items).toHaveLength(2);
    expect(bigPage.totalPageCount).toBe(Math.ceil(bigPage.totalItemsCount / 2));
    const smallPage = (await admin.get(`/portal/ledger/entries?reseller_id=${small}`)).json();
    const smallCount = Number(
      (
        await ctx.db
          .selectFrom('ledgerEntry')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('resellerId', '=', small)
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(smallCount).toBeLessThanOrEqual(3);
    expect(smallPage.totalItemsCount).toBe(smallCount);
    expect(smallPage).not.toHaveProperty('totalIsEstimate');
    // Pages past the first still come from the ledger in order, newest first.
    const second = (await admin.get(`/portal/ledger/entries?reseller_id=${big}&size=2&page=1`)).json();
    expect(second.items.map((r: { id: number }) => r.id)[0]).toBeLessThan(bigPage.items[1].id);
  });
});
