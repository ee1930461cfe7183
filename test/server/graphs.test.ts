import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SqlBool } from 'kysely';
import { topSubscribers } from '@server/domains/graphs';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Row = Record<string, any>;

const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Adelaide', 'Pacific/Chatham'];
const MB = 1_048_576;

/** A small deterministic generator, so a failing range can be replayed. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

describe.each(engines)('dashboard graphs on %s', (engine) => {
  let ctx: Ctx;
  const tokens: Record<string, string> = {};
  const reseller: Record<string, { id: number; path: string }> = {};
  let harborAccount: number;

  /** A graph call as `user`, in `zone` (no header when undefined). */
  const call = (user: string, url: string, body: Row = {}, zone?: string) =>
    ctx.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${tokens[user]}`, ...(zone ? { 'x-time-zone': zone } : {}) },
      payload: body,
    });
  const ok = async (user: string, url: string, body: Row = {}, zone?: string) => {
    const res = await call(user, url, body, zone);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Row;
  };

  /** The raw usage log's bytes in [from, to) within a reseller path (or one account). */
  const rawUsage = async (from: string, to: string, scope: { path?: string; accountId?: number }) => {
    const { rows } = await sql<{ up: string; down: string }>`
      select coalesce(sum(u.bytes_up), 0)::text as up, coalesce(sum(u.bytes_down), 0)::text as down
      from usage_record u join subscriber s on s.subscriber_id = u.subscriber_id join reseller r on r.id = s.reseller_id
      where u.at >= ${from}::timestamptz and u.at < ${to}::timestamptz
        and r.path like ${`${scope.path ?? '/'}%`} and (${scope.accountId ?? null}::int is null or s.account_id = ${scope.accountId ?? null}::int)`.execute(
      ctx.db,
    );
    return { up: Number(rows[0].up), down: Number(rows[0].down) };
  };
  /**
   * The ledger's package purchases (their debits, in cents) in [from, to) within a reseller path (or one account), each
   * with the instant it was paid (ms).
   */
  const rawSaleRows = async (from: string, to: string, scope: { path?: string; accountId?: number } = {}) => {
    const { rows } = await sql<{ at: string; cents: string }>`
      select (extract(epoch from coalesce(p.payment_date, p.purchase_date)) * 1000)::bigint::text as at, (-l.amount * 100)::bigint::text as cents
      from ledger_entry l join prepaid_package p on p.ledger_entry_id = l.id join reseller r on r.id = l.reseller_id
      where l.kind = 'purchase' and coalesce(p.payment_date, p.purchase_date) >= ${from}::timestamptz
        and coalesce(p.payment_date, p.purchase_date) < ${to}::timestamptz and r.path like ${`${scope.path ?? '/'}%`}
        and (${scope.accountId ?? null}::int is null or p.account_id = ${scope.accountId ?? null}::int)`.execute(ctx.db);
    return rows.map((r) => ({ at: Number(r.at), cents: Number(r.cents) }));
  };
  /** The same purchases' total in dollars and their number. */
  const rawSales = async (from: string, to: string, scope: { path?: string; accountId?: number } = {}) => {
    const rows = await rawSaleRows(from, to, scope);
    return { amount: rows.reduce((t, r) => t + r.cents, 0) / 100, count: rows.length };
  };
  /** The raw usage per local day (YYYY-MM-DD) in `zone` within [from, to), for all subscribers. */
  const rawByLocalDay = async (from: string, to: string, zone: string) => {
    const { rows } = await sql<{ day: string; bytes: string }>`
      select to_char(u.at at time zone ${zone}, 'YYYY-MM-DD') as day, sum(u.bytes_up + u.bytes_down)::text as bytes
      from usage_record u where u.at >= ${from}::timestamptz and u.at < ${to}::timestamptz group by 1`.execute(ctx.db);
    return Object.fromEntries(rows.map((r) => [r.day, Number(r.bytes)]));
  };

  /** Usage records for a sample of subscribers of every reseller at pseudo-random instants in [start, start + days), in one statement. */
  const addUsage = async (start: string, days: number, perSubscriber: number, seed: number) => {
    await sql`insert into usage_record (subscriber_id, imsi, at, request_type, plmn, bytes_up, bytes_down)
      select s.subscriber_id, s.imsi,
        ${start}::timestamptz + make_interval(secs => ((s.subscriber_id * 7919 + g * 104729 + ${seed}) % (${days} * 86400))::float8),
        'UPDATE',
        (array['26201', '310260', '23410', null])[1 + (s.subscriber_id + g) % 4],
        (s.subscriber_id * 31 + g * 17 + ${seed}) % 500000,
        (s.subscriber_id * 131 + g * 7 + ${seed}) % 5000000
      from (select * from subscriber order by subscriber_id limit 60) s cross join generate_series(1, ${perSubscriber}) g`.execute(ctx.db);
  };
  /** Package sales (with their ledger debits) for a sample of subscribers at instants in [start, start + days). */
  const addSales = async (start: string, days: number, count: number, seed: number) => {
    const next = random(seed);
    const subs = (await sql<Row>`select subscriber_id, reseller_id, account_id from subscriber order by subscriber_id limit 60`.execute(ctx.db)).rows;
    const templates = (await sql<Row>`select id, location_zone_id, period_days, price from prepaid_template order by id`.execute(ctx.db)).rows;
    for (let i = 0; i < count; i += 1) {
      const s = subs[Math.floor(next() * subs.length)];
      const t = templates[Math.floor(next() * templates.length)];
      const at = new Date(Date.parse(start) + Math.floor(next() * days * 86_400_000)).toISOString();
      const price = (Math.floor(next() * 5000) / 100).toFixed(2);
      await ctx.db.transaction().execute(async (trx) => {
        const entry = await sql<{ id: number }>`insert into ledger_entry (reseller_id, amount, kind, balance_after, created_at)
          values (${s.resellerId}, ${`-${price}`}::numeric, 'purchase', 0, ${at}::timestamptz) returning id`.execute(trx);
        await sql`insert into prepaid_package (template_id, subscriber_id, reseller_id, account_id, location_zone_id, period_days, price,
            sale_kind, sold_by, status, payment_date, purchase_date, ledger_entry_id)
          values (${t.id}, ${s.subscriberId}, ${s.resellerId}, ${s.accountId}, ${t.locationZoneId}, ${t.periodDays}, ${price}::numeric,
            'purchase', 'test', 'active', ${at}::timestamptz, ${at}::timestamptz, ${entry.rows[0].id})`.execute(trx);
      });
    }
  };

  beforeAll(async () => {
    ctx = await testApp(engine);
    for (const u of ['admin', 'northwind', 'northwind-iot', 'bluesky', 'harbor']) tokens[u] = await ctx.login(u);
    for (const r of await ctx.db.selectFrom('reseller').select(['id', 'name', 'path']).execute()) reseller[r.name] = { id: r.id, path: r.path };
    harborAccount = (await ctx.db.selectFrom('account').select('accountId').where('name', '=', 'Harbor Logistics').executeTakeFirstOrThrow()).accountId;
    // Two DST changes (Berlin 29 March, New York 1 November 2026) and the last eight days.
    await addUsage('2026-03-26T00:00:00Z', 8, 12, 1);
    await addUsage('2026-10-29T00:00:00Z', 6, 12, 2);
    await addUsage(new Date(Date.now() - 8 * 86_400_000).toISOString(), 8, 12, 3);
    await addSales('2026-03-26T00:00:00Z', 8, 25, 4);
    await addSales('2026-10-29T00:00:00Z', 6, 25, 6);
    await addSales(new Date(Date.now() - 8 * 86_400_000).toISOString(), 8, 25, 5);
  });
  afterAll(async () => ctx?.close());

  it('answers a DST change day in the zone: 23 hours in Berlin in March, 25 in New York in November, each equal to the raw hour', async () => {
    const berlin = await ok('admin', '/portal/graphs/usage', { range: 'custom', from: '2026-03-29', to: '2026-03-29' }, 'Europe/Berlin');
    expect(berlin).toMatchObject({ bucket: 'hour', timeZone: 'Europe/Berlin', from: '2026-03-28T23:00:00Z', to: '2026-03-29T22:00:00Z' });
    expect(berlin.points).toHaveLength(23);
    const york = await ok('admin', '/portal/graphs/usage', { range: 'custom', from: '2026-11-01', to: '2026-11-01' }, 'America/New_York');
    expect(york).toMatchObject({ from: '2026-11-01T04:00:00Z', to: '2026-11-02T05:00:00Z' });
    expect(york.points).toHaveLength(25);
    expect(york.points.filter((p: Row) => p.local === '2026-11-01T01:00')).toHaveLength(2);
    for (const answer of [berlin, york])
      for (const p of answer.points) {
        const end = new Date(Date.parse(p.start) + 3_600_000).toISOString();
        const raw = await rawUsage(p.start, end, {});
        expect([p.bytesUp, p.bytesDown], p.start).toEqual([raw.up, raw.down]);
      }
    expect(berlin.points.some((p: Row) => p.bytesDown > 0)).toBe(true);
    // The week around it by local day, in Berlin: each day the raw records of that Berlin day.
    const week = await ok('admin', '/portal/graphs/usage', { range: 'custom', from: '2026-03-26', to: '2026-04-02' }, 'Europe/Berlin');
    expect(week.bucket).toBe('day');
    const days = await rawByLocalDay(week.from, week.to, 'Europe/Berlin');
    expect(week.points.map((p: Row) => p.local.slice(0, 10))).toEqual([
      '2026-03-26',
      '2026-03-27',
      '2026-03-28',
      '2026-03-29',
      '2026-03-30',
      '2026-03-31',
      '2026-04-01',
      '2026-04-02',
    ]);
    for (const p of week.points) expect(p.bytesUp + p.bytesDown, p.local).toBe(days[p.local.slice(0, 10)] ?? 0);
  });

  it('totals equal the raw usage log and ledger for random ranges and time zones, by every breakdown', async () => {
    const next = random(42);
    const base = Date.parse('2026-03-20T00:00:00Z');
    for (let i = 0; i < 8; i += 1) {
      const zone = ZONES[Math.floor(next() * ZONES.length)];
      const a = new Date(base + Math.floor(next() * 20) * 86_400_000).toISOString().slice(0, 10);
      const b = new Date(Date.parse(a) + Math.floor(next() * (i % 2 ? 200 : 5)) * 86_400_000).toISOString().slice(0, 10);
      const body = { range: 'custom', from: a, to: b };
      const usage = await ok('northwind', '/portal/graphs/usage', body, zone);
      const raw = await rawUsage(usage.from, usage.to, { path: reseller['Northwind Mobile'].path });
      const sum = (k: string) => usage.points.reduce((t: number, p: Row) => t + p[k], 0);
      expect([sum('bytesUp'), sum('bytesDown')], `${zone} ${a}..${b}`).toEqual([raw.up, raw.down]);
      // The range's edges are the zone's midnights.
      const { rows } = await sql<{ f: string }>`select to_char(${usage.from}::timestamptz at time zone ${zone}, 'YYYY-MM-DD HH24:MI') as f`.execute(ctx.db);
      expect(rows[0].f).toBe(`${a} 00:00`);

      const total = await ok('northwind', '/portal/graphs/salesTotal', body, zone);
      const sales = await rawSales(total.from, total.to, { path: reseller['Northwind Mobile'].path });
      expect(total.value).toBeCloseTo(sales.amount, 2);
      expect(total.count).toBe(sales.count);
      const series = await ok('northwind', '/portal/graphs/sales', body, zone);
      expect(series.points.reduce((t: number, p: Row) => t + p.count, 0)).toBe(sales.count);
      expect(series.points.reduce((t: number, p: Row) => t + p.value, 0)).toBeCloseTo(sales.amount, 2);
      for (const by of ['Country', 'Customer', 'Operator', 'Vendor']) {
        const items = (await ok('northwind', `/portal/graphs/salesTotalBy${by}`, body, zone)).items as Row[];
        expect(
          items.reduce((t, x) => t + x.count, 0),
          by,
        ).toBe(sales.count);
        expect(items.reduce((t, x) => t + x.value, 0)).toBeCloseTo(sales.amount, 2);
      }
    }
  });

  it('computes every named range in the zone and its totals equal the raw records of [from, to)', async () => {
    const buckets: Record<string, string> = {
      last24Hours: 'hour',
      last3Days: 'hour',
      day: 'hour',
      week: 'day',
      last7Days: 'day',
      last30Days: 'day',
      month: 'day',
      quarter: 'day',
      last12Months: 'month',
      year: 'month',
    };
    for (const [range, bucket] of Object.entries(buckets))
      for (const zone of ['America/New_York', 'Asia/Kathmandu']) {
        const usage = await ok('admin', '/portal/graphs/usage', { range }, zone);
        expect(usage.bucket, range).toBe(bucket);
        const raw = await rawUsage(usage.from, usage.to, {});
        expect(
          usage.points.reduce((t: number, p: Row) => t + p.bytesUp + p.bytesDown, 0),
          `${range} ${zone}`,
        ).toBe(raw.up + raw.down);
        expect(Date.parse(usage.to)).toBeGreaterThan(Date.now());
      }
    const day = await ok('admin', '/portal/graphs/usage', { range: 'last24Hours' }, 'Asia/Kathmandu');
    expect(day.points).toHaveLength(24);
    expect(day.points[0].local.slice(-2)).toBe('00');
    const week = await ok('admin', '/portal/graphs/usage', { range: 'last7Days' });
    expect(week.timeZone).toBe('UTC');
    expect(week.points).toHaveLength(7);
  });

  it('keeps the rollups right as more usage and sales arrive, and as records are corrected or removed', async () => {
    const body = { range: 'custom', from: '2026-03-20', to: '2026-04-10' };
    const before = await ok('admin', '/portal/graphs/usage', body, 'Europe/Berlin');
    await addUsage('2026-03-27T00:00:00Z', 3, 5, 9);
    await sql`update usage_record set bytes_down = bytes_down + 1000 where id in (select id from usage_record where at < '2026-03-30' order by id limit 50)`.execute(
      ctx.db,
    );
    await sql`delete from usage_record where id in (select id from usage_record where at < '2026-03-30' order by id desc limit 40)`.execute(ctx.db);
    await addSales('2026-03-28T00:00:00Z', 3, 10, 11);
    // Sales corrected (price and ledger debit), paid later, moved to another reseller's subscriber, or removed, a batch
    // of each in one statement: each is taken from the figures it was counted in and added where it now belongs.
    const march = (
      await sql<{ id: number }>`select id from prepaid_package where payment_date >= '2026-03-26' and payment_date < '2026-04-05' order by id`.execute(ctx.db)
    ).rows.map((r) => r.id);
    const [corrected, later, moved, removed] = [0, 1, 2, 3].map((k) => march.slice(5 * k, 5 * k + 5));
    expect(removed).toHaveLength(5);
    await sql`update prepaid_package set price = price + 1.25 where id = any(${corrected})`.execute(ctx.db);
    await sql`update ledger_entry set amount = amount - 1.25 where id in (select ledger_entry_id from prepaid_package where id = any(${corrected}))`.execute(
      ctx.db,
    );
    await sql`update prepaid_package set payment_date = payment_date + interval '1 day 7 hours 20 minutes' where id = any(${later})`.execute(ctx.db);
    const blue = (
      await sql<Row>`select subscriber_id, reseller_id, account_id from subscriber where reseller_id = ${reseller['Blue Sky Telecom'].id}
        order by subscriber_id limit 1`.execute(ctx.db)
    ).rows[0];
    await sql`update prepaid_package set subscriber_id = ${blue.subscriberId}, reseller_id = ${blue.resellerId}, account_id = ${blue.accountId}
      where id = any(${moved})`.execute(ctx.db);
    await sql`update ledger_entry set reseller_id = ${blue.resellerId} where id in (select ledger_entry_id from prepaid_package where id = any(${moved}))`.execute(
      ctx.db,
    );
    await sql`delete from prepaid_package where id = any(${removed})`.execute(ctx.db);
    const after = await ok('admin', '/portal/graphs/usage', body, 'Europe/Berlin');
    const raw = await rawUsage(after.from, after.to, {});
    const total = (a: Row) => a.points.reduce((t: number, p: Row) => t + p.bytesUp + p.bytesDown, 0);
    expect(total(after)).toBe(raw.up + raw.down);
    expect(total(after)).toBeGreaterThan(total(before));
    const sales = await ok('admin', '/portal/graphs/salesTotal', body, 'Europe/Berlin');
    const rawTotal = await rawSales(sales.from, sales.to);
    expect([sales.value, sales.count]).toEqual([expect.closeTo(rawTotal.amount, 2), rawTotal.count]);
    const blueTotal = await ok('bluesky', '/portal/graphs/salesTotal', body, 'Europe/Berlin');
    const blueRaw = await rawSales(blueTotal.from, blueTotal.to, { path: reseller['Blue Sky Telecom'].path });
    expect([blueTotal.value, blueTotal.count]).toEqual([expect.closeTo(blueRaw.amount, 2), blueRaw.count]);
    expect(blueRaw.count).toBeGreaterThanOrEqual(moved.length);
    // The rollup equals a rebuild from the raw log.
    const { rows } = await sql<{ diff: string }>`select count(*)::text as diff from (
      select graph_slot(u.at) as slot, s.reseller_id, s.account_id, coalesce(u.plmn, '') as plmn, sum(u.bytes_up) as up, sum(u.bytes_down) as down
      from usage_record u join subscriber s on s.subscriber_id = u.subscriber_id group by 1, 2, 3, 4
      except select slot, reseller_id, account_id, plmn, bytes_up, bytes_down from usage_slot where records <> 0) d`.execute(ctx.db);
    expect(rows[0].diff).toBe('0');
    const perSubscriber = await sql<{ diff: string }>`select count(*)::text as diff from (
      (select u.subscriber_id, graph_slot(u.at) as slot, sum(u.bytes_up + u.bytes_down) as bytes from usage_record u group by 1, 2
        except select subscriber_id, slot, bytes from usage_subscriber_slot)
      union all
      (select subscriber_id, slot, bytes from usage_subscriber_slot where bytes <> 0
        except select u.subscriber_id, graph_slot(u.at), sum(u.bytes_up + u.bytes_down) from usage_record u group by 1, 2)) d`.execute(ctx.db);
    expect(perSubscriber.rows[0].diff).toBe('0');
    for (const [table, unit] of [
      ['usage_hour', 'hour'],
      ['usage_day', 'day'],
      ['usage_month', 'month'],
    ])
      expect(
        (
          await sql<{ diff: string }>`select count(*)::text as diff from (
            select date_trunc(${unit}, u.at at time zone 'UTC') at time zone 'UTC' as slot, s.reseller_id, s.account_id, coalesce(u.plmn, '') as plmn,
              sum(u.bytes_up) as up, sum(u.bytes_down) as down
            from usage_record u join subscriber s on s.subscriber_id = u.subscriber_id group by 1, 2, 3, 4
            except select slot, reseller_id, account_id, plmn, bytes_up, bytes_down from ${sql.table(table)} where records <> 0) d`.execute(ctx.db)
        ).rows[0].diff,
        table,
      ).toBe('0');
    // The month levels per reseller and per subscriber, and the sales' hours, days and months, equal a rebuild of theirs.
    const month = (column: string) => `date_trunc('month', ${column} at time zone 'UTC') at time zone 'UTC'`;
    const checks: [string, string][] = [
      [
        'usage_reseller_month',
        `select ${month('u.at')} as slot, s.reseller_id, sum(u.bytes_up) as up, sum(u.bytes_down) as down, count(*) as n
          from usage_record u join subscriber s on s.subscriber_id = u.subscriber_id group by 1, 2
          except select slot, reseller_id, bytes_up, bytes_down, records from usage_reseller_month where records <> 0`,
      ],
      [
        'usage_subscriber_month',
        `select ${month('u.at')} as slot, u.subscriber_id, sum(u.bytes_up) as up, sum(u.bytes_down) as down, count(*) as n
          from usage_record u group by 1, 2
          except select slot, subscriber_id, bytes_up, bytes_down, records from usage_subscriber_month where records <> 0`,
      ],
      ...(['hour', 'day', 'month'] as const).map((unit): [string, string] => [
        `sales_${unit}`,
        `(select date_trunc('${unit}', slot at time zone 'UTC') at time zone 'UTC', reseller_id, account_id, vendor_id, plmn, country, sum(amount), sum(sales)
            from sales_slot group by 1, 2, 3, 4, 5, 6 having sum(sales) <> 0
            except select slot, reseller_id, account_id, vendor_id, plmn, country, amount, sales from sales_${unit} where sales <> 0)
          union all
          (select slot, reseller_id, account_id, vendor_id, plmn, country, amount, sales from sales_${unit} where sales <> 0
            except select date_trunc('${unit}', slot at time zone 'UTC') at time zone 'UTC', reseller_id, account_id, vendor_id, plmn, country, sum(amount), sum(sales)
            from sales_slot group by 1, 2, 3, 4, 5, 6)`,
      ]),
    ];
    for (const [table, query] of checks)
      expect((await sql<{ diff: string }>`select count(*)::text as diff from (${sql.raw(query)}) d`.execute(ctx.db)).rows[0].diff, table).toBe('0');
    expect(Number((await sql<{ n: string }>`select count(*)::text as n from sales_month where sales <> 0`.execute(ctx.db)).rows[0].n)).toBeGreaterThan(0);
    // The sales' quarter hours per reseller equal the packages sold, and every per-reseller level a rebuild from them.
    const differing = async (a: string, b: string) =>
      (
        await sql<{
          n: string;
        }>`select count(*)::text as n from ((${sql.raw(a)} except ${sql.raw(b)}) union all (${sql.raw(b)} except ${sql.raw(a)})) d`.execute(ctx.db)
      ).rows[0].n;
    expect(
      await differing(
        `select graph_slot(coalesce(payment_date, purchase_date)), reseller_id, sum(price), count(*) from prepaid_package where sale_kind = 'purchase' group by 1, 2`,
        `select slot, reseller_id, sum(amount), sum(sales) from sales_slot group by 1, 2 having sum(sales) <> 0 or sum(amount) <> 0`,
      ),
      'sales_slot',
    ).toBe('0');
    for (const unit of ['hour', 'day', 'month']) {
      expect(
        await differing(
          `select reseller_id, date_trunc('${unit}', slot at time zone 'UTC') at time zone 'UTC', sum(amount), sum(sales) from sales_slot group by 1, 2
            having sum(sales) <> 0 or sum(amount) <> 0`,
          `select reseller_id, slot, amount, sales from sales_reseller_${unit} where sales <> 0 or amount <> 0`,
        ),
        `sales_reseller_${unit}`,
      ).toBe('0');
      expect(
        Number((await sql<{ n: string }>`select count(*)::text as n from ${sql.table(`sales_reseller_${unit}`)} where sales <> 0`.execute(ctx.db)).rows[0].n),
      ).toBeGreaterThan(0);
    }
  });

  it('answers each bucket of the sales series, the sales total and trend as the ledger, per scope and zone, DST days included', async () => {
    // The administrator, a reseller and a sub-reseller read the per-reseller sales rollups; an account (asked, or an
    // account user) the account-split ones.
    const iot = reseller['Northwind IoT'];
    const north = reseller['Northwind Mobile'].path;
    const scopes: [string, Row, { path?: string; accountId?: number }][] = [
      ['admin', {}, {}],
      ['northwind', {}, { path: north }],
      ['admin', { resellerId: iot.id }, { path: iot.path }],
      ['northwind', { accountId: harborAccount }, { accountId: harborAccount }],
      ['harbor', {}, { accountId: harborAccount }],
      ['bluesky', {}, { path: reseller['Blue Sky Telecom'].path }],
    ];
    const ranges: [Row, string, number?][] = [
      [{ range: 'custom', from: '2026-03-29', to: '2026-03-29' }, 'Europe/Berlin', 23],
      [{ range: 'custom', from: '2026-11-01', to: '2026-11-01' }, 'America/New_York', 25],
      [{ range: 'custom', from: '2026-03-25', to: '2026-04-03' }, 'Asia/Kathmandu'],
      [{ range: 'custom', from: '2026-02-01', to: '2026-11-30' }, 'Europe/Berlin'],
      [{ range: 'last12Months' }, 'Australia/Adelaide'],
      [{ range: 'last30Days' }, 'UTC'],
    ];
    for (const [user, extra, scope] of scopes) {
      let counted = 0;
      for (const [body, zone, hours] of ranges) {
        const label = `${user} ${JSON.stringify(extra)} ${JSON.stringify(body)} ${zone}`;
        const series = await ok(user, '/portal/graphs/sales', { ...body, ...extra }, zone);
        if (hours) expect(series.points, label).toHaveLength(hours);
        // Each purchase in the last bucket starting at or before it.
        const starts = (series.points as Row[]).map((p) => Date.parse(p.start));
        const expected = starts.map(() => [0, 0]);
        const raw = await rawSaleRows(series.from, series.to, scope);
        for (const r of raw) {
          let i = starts.length - 1;
          while (i > 0 && starts[i] > r.at) i -= 1;
          expected[i][0] += r.cents;
          expected[i][1] += 1;
        }
        expect(
          (series.points as Row[]).map((p) => [Math.round(p.value * 100), p.count]),
          label,
        ).toEqual(expected);
        const total = await ok(user, '/portal/graphs/salesTotal', { ...body, ...extra }, zone);
        expect([Math.round(total.value * 100), total.count], label).toEqual([raw.reduce((t, r) => t + r.cents, 0), raw.length]);
        counted += raw.length;
      }
      expect(counted, `${user} ${JSON.stringify(extra)}`).toBeGreaterThan(0);
      // The trend's sales: the last 24 hours and the daily average of the six days before.
      const trend = (await ok(user, '/portal/graphs/trends', extra)).sales as Row;
      const { rows } = await sql<{ split: string; start: string; end: string }>`
        select (extract(epoch from graph_slot(now()) - interval '23 hours 45 minutes') * 1000)::bigint::text as split,
          (extract(epoch from graph_slot(now()) - interval '6 days 23 hours 45 minutes') * 1000)::bigint::text as start,
          (extract(epoch from graph_slot(now()) + interval '15 minutes') * 1000)::bigint::text as end`.execute(ctx.db);
      const [start, split, end] = [rows[0].start, rows[0].split, rows[0].end].map((t) => new Date(Number(t)).toISOString());
      const last = (await rawSales(split, end, scope)).amount;
      const previous = (await rawSales(start, split, scope)).amount;
      expect(trend.last24Hours, `${user} ${JSON.stringify(extra)} trend`).toBeCloseTo(last, 2);
      // The average is shown rounded to the cent.
      expect(Math.abs(trend.previousDailyAverage - previous / 6), `${user} ${JSON.stringify(extra)} trend`).toBeLessThanOrEqual(0.00501);
      expect(previous).toBeGreaterThan(0);
    }
  });

  it("reads whole UTC months for long ranges and stays exact at the zone's month and day boundaries", async () => {
    // Ranges holding whole UTC months (read from the month rollups) with edges inside months, in zones east and west of
    // UTC, at a quarter-hour offset and in UTC itself (whose monthly buckets are whole UTC months).
    const ranges = [
      ['UTC', '2026-03-01', '2026-11-30'],
      ['Europe/Berlin', '2026-03-15', '2026-11-30'],
      ['America/New_York', '2026-01-01', '2026-12-31'],
      ['Pacific/Chatham', '2026-03-28', '2026-11-02'],
      ['Asia/Kathmandu', '2026-02-01', '2026-10-31'],
    ];
    for (const [zone, from, to] of ranges) {
      const body = { range: 'custom', from, to };
      const usage = await ok('admin', '/portal/graphs/usage', body, zone);
      expect(usage.bucket).toBe('month');
      // Each month of the zone equals the raw records of its local month.
      const byMonth = await sql<{ month: string; bytes: string }>`
        select to_char(u.at at time zone ${zone}, 'YYYY-MM') as month, sum(u.bytes_up + u.bytes_down)::text as bytes
        from usage_record u where u.at >= ${usage.from}::timestamptz and u.at < ${usage.to}::timestamptz group by 1`.execute(ctx.db);
      const raw = Object.fromEntries(byMonth.rows.map((r) => [r.month, Number(r.bytes)]));
      const answered = Object.fromEntries(
        (usage.points as Row[]).filter((p) => p.bytesUp + p.bytesDown > 0).map((p) => [p.local.slice(0, 7), p.bytesUp + p.bytesDown]),
      );
      expect(answered, `${zone} ${from}..${to}`).toEqual(raw);
      const north = await ok('northwind', '/portal/graphs/usage', { ...body, accountId: harborAccount }, zone);
      const harbor = await rawUsage(north.from, north.to, { accountId: harborAccount });
      expect(north.points.reduce((t: number, p: Row) => t + p.bytesUp, 0)).toBe(harbor.up);
      const sales = await rawSales(usage.from, usage.to);
      const total = await ok('admin', '/portal/graphs/salesTotal', body, zone);
      expect([total.value, total.count], `${zone} ${from}..${to}`).toEqual([expect.closeTo(sales.amount, 2), sales.count]);
      const series = await ok('admin', '/portal/graphs/sales', body, zone);
      expect(series.points.reduce((t: number, p: Row) => t + p.count, 0)).toBe(sales.count);
      const countries = (await ok('admin', '/portal/graphs/countries', body, zone)).items as Row[];
      const all = await rawUsage(usage.from, usage.to, {});
      expect(countries.reduce((t, c) => t + c.mb, 0)).toBeCloseTo((all.up + all.down) / MB, 1);
      expect(countries.reduce((t, c) => t + c.sales, 0)).toBeCloseTo(sales.amount, 2);
    }
  });

  it("shows each tenant only its subtree's figures: a sub-reseller never its parent's, an account user its account", async () => {
    const body = { range: 'custom', from: '2026-03-20', to: '2026-04-10' };
    const figures = async (user: string, extra: Row = {}) => {
      const u = await ok(user, '/portal/graphs/usage', { ...body, ...extra });
      return u.points.reduce((t: number, p: Row) => t + p.bytesUp + p.bytesDown, 0);
    };
    const [all, north, iot, blue, harbor] = await Promise.all(['admin', 'northwind', 'northwind-iot', 'bluesky', 'harbor'].map((u) => figures(u)));
    const raw = async (path?: string, accountId?: number) => {
      const r = await rawUsage('2026-03-20T00:00:00Z', '2026-04-11T00:00:00Z', { path, accountId });
      return r.up + r.down;
    };
    expect(all).toBe(await raw());
    expect(north).toBe(await raw(reseller['Northwind Mobile'].path));
    expect(iot).toBe(await raw(reseller['Northwind IoT'].path));
    expect(blue).toBe(await raw(reseller['Blue Sky Telecom'].path));
    expect(harbor).toBe(await raw(reseller['Northwind Mobile'].path, harborAccount));
    expect(iot).toBeGreaterThan(0);
    expect(iot).toBeLessThan(north);
    expect(blue).toBeGreaterThan(0);
    // Narrowing to a reseller or account the caller sees; anyone else's is 404.
    expect(await figures('northwind', { resellerId: reseller['Northwind IoT'].id })).toBe(iot);
    expect(await figures('admin', { accountId: harborAccount })).toBe(harbor);
    expect((await call('northwind-iot', '/portal/graphs/usage', { ...body, resellerId: reseller['Northwind Mobile'].id })).statusCode).toBe(404);
    expect((await call('bluesky', '/portal/graphs/salesTotal', { ...body, accountId: harborAccount })).statusCode).toBe(404);
    expect((await call('harbor', '/portal/graphs/sales', { ...body, resellerId: reseller['Blue Sky Telecom'].id })).statusCode).toBe(404);
    const iotVendors = (await ok('northwind-iot', '/portal/graphs/salesTotalByCustomer', body)).items as Row[];
    const iotAccounts = (
      await sql<{ id: number }>`select account_id as id from account where reseller_id = ${reseller['Northwind IoT'].id}`.execute(ctx.db)
    ).rows.map((r) => String(r.id));
    for (const item of iotVendors) expect(iotAccounts).toContain(item.key);
  });

  it('ranks the top subscribers of the last 24 hours with total and today MB and charges, scoped', async () => {
    const top = (await call('northwind', '/portal/subscriber-info/top24Hours', { size: 5 }, 'Europe/Berlin')).json() as Row[];
    expect(top.length).toBeGreaterThan(0);
    expect(top.length).toBeLessThanOrEqual(5);
    const { rows } = await sql<{ id: number; bytes: string }>`
      select u.subscriber_id as id, sum(u.bytes_up + u.bytes_down)::text as bytes from usage_record u join subscriber s on s.subscriber_id = u.subscriber_id
      join reseller r on r.id = s.reseller_id
      where u.at >= graph_slot(now()) - interval '23 hours 45 minutes' and r.path like ${`${reseller['Northwind Mobile'].path}%`}
      group by 1 order by sum(u.bytes_up + u.bytes_down) desc, 1 limit 5`.execute(ctx.db);
    expect(top.map((t) => t.subscriberId)).toEqual(rows.map((r) => r.id));
    expect(top[0].totalMb).toBeCloseTo(Number(rows[0].bytes) / MB, 3);
    expect(top[0].todayMb).toBeLessThanOrEqual(top[0].totalMb + 0.001);
    expect(top[0].link).toBe(`/subscriber/${top[0].subscriberId}`);
    const iot = (await ok('admin', `/portal/subscriber-info/top24Hours/${reseller['Northwind IoT'].id}`)) as unknown as Row[];
    expect(new Set(iot.map((r) => r.resellerName))).toEqual(new Set(['Northwind IoT']));
    expect((await call('northwind', `/portal/subscriber-info/top24Hours/${reseller['Blue Sky Telecom'].id}`)).statusCode).toBe(404);
    const harbor = (await ok('harbor', '/portal/subscriber-info/top24Hours')) as unknown as Row[];
    expect(new Set(harbor.map((r) => r.accountId))).toEqual(new Set([harborAccount]));
  });

  it('finds the top subscribers among the largest of today and yesterday when no other can rank, else adds up the whole scope, the same either way', async () => {
    // Three Northwind subscribers far above the rest a few minutes ago.
    const { rows: big } = await sql<{ id: number }>`select s.subscriber_id as id from subscriber s join reseller r on r.id = s.reseller_id
      where r.name = 'Northwind Mobile' order by s.subscriber_id limit 3`.execute(ctx.db);
    await sql`insert into usage_record (subscriber_id, imsi, at, request_type, bytes_up, bytes_down)
      select s.subscriber_id, s.imsi, now() - interval '5 minutes', 'UPDATE', 1000, 9000000000 - 1000000000 * s.k
      from (select subscriber_id, imsi, row_number() over (order by subscriber_id) - 1 as k from subscriber
        where subscriber_id in (${sql.join(big.map((b) => b.id))})) s`.execute(ctx.db);
    await sql`update usage_record set bytes_up = bytes_up + 1 where bytes_down = 8000000000`.execute(ctx.db);
    // Today's row of each subscriber: the bytes of their records of today and yesterday (UTC), as the triggers keep them.
    const recentDays = async () => {
      const { rows } = await sql<{ id: number; kept: string | null; raw: string | null }>`
        with raw as (select subscriber_id as id, sum(bytes_up + bytes_down) as bytes from usage_record
          where at >= (date_trunc('day', now() at time zone 'UTC') - interval '1 day') at time zone 'UTC'
            and at < (date_trunc('day', now() at time zone 'UTC') + interval '1 day') at time zone 'UTC' group by 1),
        kept as (select subscriber_id as id, bytes from usage_subscriber_recent_days where slot = date_trunc('day', now() at time zone 'UTC') at time zone 'UTC')
        select coalesce(raw.id, kept.id) as id, kept.bytes::text as kept, raw.bytes::text as raw
        from raw full join kept on kept.id = raw.id where coalesce(raw.bytes, 0) <> coalesce(kept.bytes, 0)`.execute(ctx.db);
      return rows;
    };
    expect(await recentDays()).toEqual([]);
    const scopes = [
      { name: 'all', scope: sql<SqlBool>`true`, raw: sql`true` },
      {
        name: 'Northwind',
        scope: sql<SqlBool>`x.reseller_id in (select r.id from reseller r where r.path like ${`${reseller['Northwind Mobile'].path}%`})`,
        raw: sql`r.path like ${`${reseller['Northwind Mobile'].path}%`}`,
      },
      { name: 'Harbor', scope: sql<SqlBool>`x.account_id = ${harborAccount}`, raw: sql`s.account_id = ${harborAccount}` },
    ];
    const answeredBy: Record<string, number | null> = {};
    try {
      for (const { name, scope, raw } of scopes)
        for (const size of [1, 3, 10])
          for (const candidates of [[1], [5], [1, 5], [1000], []]) {
            const { rows: expected } = await sql<{ id: number; bytes: string }>`
              select u.subscriber_id as id, sum(u.bytes_up + u.bytes_down)::text as bytes from usage_record u
              join subscriber s on s.subscriber_id = u.subscriber_id join reseller r on r.id = s.reseller_id
              where u.at >= graph_slot(now()) - interval '23 hours 45 minutes' and ${raw}
              group by 1 having sum(u.bytes_up + u.bytes_down) > 0 order by sum(u.bytes_up + u.bytes_down) desc, 1 limit ${size}`.execute(ctx.db);
            const found = await topSubscribers(ctx.db, scope, 'Europe/Berlin', size, candidates);
            const label = `${name} ${size} [${candidates.join()}]`;
            expect(
              found.rows.map((r) => [r.subscriberId, r.bytes]),
              label,
            ).toEqual(expected.map((r) => [r.id, r.bytes]));
            answeredBy[label] = found.candidates;
          }
    } finally {
      await sql`delete from usage_record where bytes_down >= 7000000000`.execute(ctx.db);
    }
    expect(await recentDays()).toEqual([]);
    // The three are sure among the five largest, not among the one largest (whose bound is the largest's own bytes);
    // ten are not sure among five; a thousand is everyone.
    expect(answeredBy['all 3 [5]']).toBe(5);
    expect(answeredBy['all 3 [1,5]']).toBe(5);
    expect(answeredBy['all 3 [1]']).toBeNull();
    expect(answeredBy['all 10 [1]']).toBeNull();
    expect(answeredBy['all 10 [1000]']).toBe(1000);
    expect(answeredBy['Northwind 1 [1]']).toBeNull();
    expect(answeredBy['Harbor 3 [1]']).toBeNull();
    // The bound holds only while no record takes bytes away: the database refuses one that would.
    const [one] = big;
    for (const [up, down] of [
      [-1, 0],
      [0, -1],
    ])
      await expect(
        sql`insert into usage_record (subscriber_id, imsi, at, request_type, bytes_up, bytes_down)
          select subscriber_id, imsi, now(), 'UPDATE', ${up}, ${down} from subscriber where subscriber_id = ${one.id}`.execute(ctx.db),
      ).rejects.toThrow(/usage_record_bytes_not_negative/);
  });

  it('compares the last 24 hours with the daily average of the six days before', async () => {
    const t = await ok('northwind', '/portal/graphs/trends', {});
    const { rows } = await sql<{ last: string; prev: string }>`
      select coalesce(sum(u.bytes_up + u.bytes_down) filter (where u.at >= graph_slot(now()) - interval '23 hours 45 minutes'), 0)::text as last,
        coalesce(sum(u.bytes_up + u.bytes_down) filter (where u.at < graph_slot(now()) - interval '23 hours 45 minutes'), 0)::text as prev
      from usage_record u join subscriber s on s.subscriber_id = u.subscriber_id join reseller r on r.id = s.reseller_id
      where u.at >= graph_slot(now()) - interval '6 days 23 hours 45 minutes' and r.path like ${`${reseller['Northwind Mobile'].path}%`}`.execute(ctx.db);
    const last = Number(rows[0].last) / MB;
    const average = Number(rows[0].prev) / MB / 6;
    expect(t.usage.last24Hours).toBeCloseTo(last, 2);
    expect(t.usage.previousDailyAverage).toBeCloseTo(average, 2);
    expect(t.usage.direction).toBe(last > average ? 'up' : 'down');
    expect(t.usage.percent).toBeCloseTo(((last - average) / average) * 100, 0);
    expect(['up', 'down', 'flat']).toContain(t.sales.direction);
  });

  it('refuses a bad zone, an unknown range and a range ending before it starts, naming the field', async () => {
    const fields = async (body: Row, zone?: string) => {
      const res = await call('admin', '/portal/graphs/usage', body, zone);
      expect(res.statusCode, res.body).toBe(400);
      return res.json().fields.map((f: Row) => `${f.field}:${f.messageId}`);
    };
    expect(await fields({ range: 'last7Days' }, 'Mars/Olympus_Mons')).toEqual(['X-Time-Zone:graphs.timeZone.invalid']);
    expect(await fields({ range: 'last7Days' }, "UTC'; drop table usage_slot --")).toEqual(['X-Time-Zone:graphs.timeZone.invalid']);
    expect((await fields({ range: 'fortnight' }))[0]).toMatch(/^range:/);
    expect(await fields({ range: 'custom', from: '2026-04-02', to: '2026-04-01' })).toEqual(['to:validation.endDate.afterStart']);
    expect(await fields({ range: 'custom', to: '2026-04-01' })).toEqual(['from:validation.required']);
    expect((await fields({ range: 'custom', from: '2026-02-30', to: '2026-04-01' }))[0]).toMatch(/^from:/);
    expect(await fields({ range: 'custom', from: '2010-01-01', to: '2026-04-01' })).toEqual(['from:graphs.range.tooLong']);
    expect(await fields({ range: 'week', from: '2026-04-01' })).toEqual(['from:graphs.range.customOnly']);
    expect((await call('admin', '/portal/subscriber-info/top24Hours', {}, 'Nowhere/City')).statusCode).toBe(400);
    expect((await call('admin', '/portal/graphs/trends', { accountId: 'x' })).statusCode).toBe(400);
  });
});
