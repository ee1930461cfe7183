import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Row = Record<string, any>;
const MB = 1_048_576;

describe.each(engines)('dashboard calls on %s', (engine) => {
  let ctx: Ctx;
  const tokens: Record<string, string> = {};
  const reseller: Record<string, { id: number; path: string }> = {};

  const post = (user: string, url: string, body: Row = {}, zone?: string) =>
    ctx.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${tokens[user]}`, ...(zone ? { 'x-time-zone': zone } : {}) }, payload: body });
  const countries = async (user: string, body: Row, zone?: string) => {
    const res = await post(user, '/portal/graphs/countries', body, zone);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { from: string; to: string; items: { country: string; activeSims: number; mb: number; sales: number }[] };
  };

  /** The raw usage log per network country, active subscribers per subscriber country, and sales per sale country, in [from, to) under `path`. */
  const raw = async (from: string, to: string, path: string) => {
    const usage = await sql<{ country: string; bytes: string }>`
      select coalesce(n.country, '') as country, sum(u.bytes_up + u.bytes_down)::text as bytes
      from usage_record u join subscriber s on s.subscriber_id = u.subscriber_id join reseller r on r.id = s.reseller_id
      left join lateral (select n.country from network n where n.plmn = u.plmn order by n.withdrawn_at nulls first limit 1) n on true
      where u.at >= ${from}::timestamptz and u.at < ${to}::timestamptz and r.path like ${`${path}%`} group by 1`.execute(ctx.db);
    const active = await sql<{ country: string; n: string }>`
      select coalesce(s.country, '') as country, count(distinct s.subscriber_id)::text as n
      from usage_record u join subscriber s on s.subscriber_id = u.subscriber_id join reseller r on r.id = s.reseller_id
      where u.at >= ${from}::timestamptz and u.at < ${to}::timestamptz and r.path like ${`${path}%`} and u.bytes_up + u.bytes_down > 0 group by 1`.execute(
      ctx.db,
    );
    const sales = await sql<{ country: string; amount: string }>`
      select k.country, sum(-l.amount)::text as amount
      from ledger_entry l join prepaid_package p on p.ledger_entry_id = l.id join reseller r on r.id = l.reseller_id
      join sales_rollup_key k on k.package_id = p.id
      where l.kind = 'purchase' and coalesce(p.payment_date, p.purchase_date) >= ${from}::timestamptz
        and coalesce(p.payment_date, p.purchase_date) < ${to}::timestamptz and r.path like ${`${path}%`} group by 1`.execute(ctx.db);
    const out: Record<string, { activeSims: number; bytes: number; sales: number }> = {};
    const at = (c: string) => (out[c] ??= { activeSims: 0, bytes: 0, sales: 0 });
    for (const r of usage.rows) at(r.country).bytes = Number(r.bytes);
    for (const r of active.rows) at(r.country).activeSims = Number(r.n);
    for (const r of sales.rows) at(r.country).sales = Number(r.amount);
    return out;
  };

  beforeAll(async () => {
    ctx = await testApp(engine);
    for (const u of ['admin', 'northwind', 'northwind-iot', 'bluesky', 'harbor']) tokens[u] = await ctx.login(u);
    for (const r of await ctx.db.selectFrom('reseller').select(['id', 'name', 'path']).execute()) reseller[r.name] = { id: r.id, path: r.path };
    // Subscribers located in a few countries, usage on networks of other countries, and some package sales.
    await sql`update subscriber set country = (array['DE', 'GB', 'US', null])[1 + subscriber_id % 4]`.execute(ctx.db);
    const start = new Date(Date.now() - 10 * 86_400_000).toISOString();
    await sql`insert into usage_record (subscriber_id, imsi, at, request_type, plmn, bytes_up, bytes_down)
      select s.subscriber_id, s.imsi, ${start}::timestamptz + make_interval(secs => ((s.subscriber_id * 7919 + g * 104729) % (10 * 86400))::float8),
        'UPDATE', (array['26201', '310260', '23410', null])[1 + (s.subscriber_id + g) % 4],
        (s.subscriber_id * 31 + g * 17) % 500000, (s.subscriber_id * 131 + g * 7) % 5000000
      from (select * from subscriber order by subscriber_id limit 80) s cross join generate_series(1, 10) g`.execute(ctx.db);
    const subs = (await sql<Row>`select subscriber_id, reseller_id, account_id from subscriber order by subscriber_id limit 40`.execute(ctx.db)).rows;
    const template = (await sql<Row>`select id, location_zone_id, period_days from prepaid_template order by id limit 1`.execute(ctx.db)).rows[0];
    for (const [i, s] of subs.entries()) {
      const at = new Date(Date.now() - ((i * 5) % 9) * 86_400_000 - 3_600_000).toISOString();
      const price = `${(i % 7) + 1}.50`;
      await ctx.db.transaction().execute(async (trx) => {
        const entry = await sql<{ id: number }>`insert into ledger_entry (reseller_id, amount, kind, balance_after, created_at)
          values (${s.resellerId}, ${`-${price}`}::numeric, 'purchase', 0, ${at}::timestamptz) returning id`.execute(trx);
        await sql`insert into prepaid_package (template_id, subscriber_id, reseller_id, account_id, location_zone_id, period_days, price,
            sale_kind, sold_by, status, payment_date, purchase_date, ledger_entry_id)
          values (${template.id}, ${s.subscriberId}, ${s.resellerId}, ${s.accountId}, ${template.locationZoneId}, ${template.periodDays}, ${price}::numeric,
            'purchase', 'test', 'active', ${at}::timestamptz, ${at}::timestamptz, ${entry.rows[0].id})`.execute(trx);
      });
    }
  });
  afterAll(async () => ctx?.close());

  it('answers per country the totals of the raw records, for named and custom ranges in several zones', async () => {
    const cases: [Row, string][] = [
      [{ range: 'last7Days' }, 'Europe/Berlin'],
      [{ range: 'last30Days' }, 'Asia/Kathmandu'],
      [{ range: 'last24Hours' }, 'America/New_York'],
      [
        {
          range: 'custom',
          from: new Date(Date.now() - 9 * 86_400_000).toISOString().slice(0, 10),
          to: new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10),
        },
        'UTC',
      ],
    ];
    for (const [body, zone] of cases) {
      const answer = await countries('admin', body, zone);
      const expected = await raw(answer.from, answer.to, '/');
      const got = Object.fromEntries(answer.items.map((i) => [i.country, i]));
      const label = `${JSON.stringify(body)} ${zone}`;
      expect(Object.keys(got).sort(), label).toEqual(
        Object.keys(expected)
          .filter((c) => Object.values(expected[c]).some(Boolean))
          .sort(),
      );
      for (const [country, e] of Object.entries(expected)) {
        expect(got[country]?.activeSims ?? 0, `${label} ${country}`).toBe(e.activeSims);
        expect(got[country]?.mb ?? 0, `${label} ${country}`).toBeCloseTo(e.bytes / MB, 2);
        expect(got[country]?.sales ?? 0, `${label} ${country}`).toBeCloseTo(e.sales, 2);
      }
    }
    const week = await countries('admin', { range: 'last7Days' });
    expect(week.items.some((i) => i.mb > 0 && i.activeSims > 0)).toBe(true);
  });

  it('keeps a reseller to its subtree: its sums, never a parent or sibling', async () => {
    for (const [user, name] of [
      ['northwind', 'Northwind Mobile'],
      ['northwind-iot', 'Northwind IoT'],
      ['bluesky', 'Blue Sky Telecom'],
    ] as const) {
      const path = reseller[name]?.path;
      expect(path, name).toBeTruthy();
      const answer = await countries(user, { range: 'last30Days' });
      const expected = await raw(answer.from, answer.to, path);
      const total = (k: 'activeSims' | 'mb' | 'sales') => answer.items.reduce((t, i) => t + i[k], 0);
      expect(total('activeSims'), user).toBe(Object.values(expected).reduce((t, e) => t + e.activeSims, 0));
      expect(total('mb'), user).toBeCloseTo(Object.values(expected).reduce((t, e) => t + e.bytes, 0) / MB, 1);
      expect(total('sales'), user).toBeCloseTo(
        Object.values(expected).reduce((t, e) => t + e.sales, 0),
        2,
      );
    }
    // A sub-reseller may not ask for its parent's subtree.
    const parent = await post('northwind-iot', '/portal/graphs/countries', { range: 'last7Days', resellerId: reseller['Northwind Mobile'].id });
    expect(parent.statusCode).toBe(404);
  });

  it('refuses bad ranges and zones by field', async () => {
    const zone = await post('admin', '/portal/graphs/countries', { range: 'last7Days' }, 'Mars/Olympus');
    expect(zone.statusCode).toBe(400);
    expect(zone.json().fields[0].field).toBe('X-Time-Zone');
    const range = await post('admin', '/portal/graphs/countries', { range: 'fortnight' });
    expect(range.statusCode).toBe(400);
    expect(range.json().fields[0].field).toBe('range');
  });

  it('writes a support request to the administrator outbox, refusing bad input and too many requests', async () => {
    const bad = [
      [{ subject: '', message: 'x', category: 'billing' }, 'subject'],
      [{ subject: '   ', message: 'x', category: 'billing' }, 'subject'],
      [{ subject: 'a'.repeat(201), message: 'x', category: 'billing' }, 'subject'],
      [{ subject: 'Hi', message: '', category: 'billing' }, 'message'],
      [{ subject: 'Hi', message: 'x'.repeat(5001), category: 'billing' }, 'message'],
      [{ subject: 'Hi', message: 'x', category: 'gossip' }, 'category'],
      [{ subject: 'Hi', message: 'x' }, 'category'],
    ] as const;
    const before = Number((await sql<{ n: string }>`select count(*)::text as n from outbox`.execute(ctx.db)).rows[0].n);
    for (const [body, field] of bad) {
      const res = await post('harbor', '/portal/support/tickets', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(
        res.json().fields.map((f: Row) => f.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    const sent = await post('harbor', '/portal/support/tickets', {
      subject: '  SIMs offline in Lisbon ',
      message: 'Since 9:00 none attach.',
      category: 'technical',
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const id = sent.json().id;
    const mail = await ctx.db.selectFrom('outbox').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(mail.to).toBe('admin');
    expect(mail.subject).toBe(`[Support #${id}] SIMs offline in Lisbon`);
    expect(mail.text).toContain('Since 9:00 none attach.');
    expect(mail.text).toContain('harbor');
    const after = Number((await sql<{ n: string }>`select count(*)::text as n from outbox`.execute(ctx.db)).rows[0].n);
    expect(after).toBe(before + 1);
    const row = await ctx.db.selectFrom('supportTicket').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ category: 'technical', subject: 'SIMs offline in Lisbon' });
    // Five an hour per user.
    for (let i = 0; i < 4; i += 1)
      expect((await post('harbor', '/portal/support/tickets', { subject: `n${i}`, message: 'm', category: 'other' })).statusCode).toBe(201);
    const limited = await post('harbor', '/portal/support/tickets', { subject: 'sixth', message: 'm', category: 'other' });
    expect(limited.statusCode).toBe(429);
    expect((await post('bluesky', '/portal/support/tickets', { subject: 'other user', message: 'm', category: 'other' })).statusCode).toBe(201);
    const anonymous = await ctx.app.inject({ method: 'POST', url: '/portal/support/tickets', payload: { subject: 'a', message: 'b', category: 'other' } });
    expect(anonymous.statusCode).toBe(401);
  });

  it('sums a reseller balance: total deposit, open balance, latest movements', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/portal/ledger/summary', headers: { authorization: `Bearer ${tokens.northwind}` } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const { rows } = await sql<{ d: string }>`select coalesce(sum(amount), 0)::text as d from ledger_entry
      where reseller_id = ${reseller['Northwind Mobile'].id} and kind in ('payment', 'reset')`.execute(ctx.db);
    expect(body.totalDeposit).toBeCloseTo(Number(rows[0].d), 2);
    expect(body.transactions.length).toBeGreaterThan(0);
    expect(body.transactions.length).toBeLessThanOrEqual(5);
    expect(body.openBalance).toBeGreaterThanOrEqual(0);
    const other = await ctx.app.inject({
      method: 'GET',
      url: `/portal/ledger/summary?reseller_id=${reseller['Blue Sky Telecom'].id}`,
      headers: { authorization: `Bearer ${tokens.northwind}` },
    });
    expect(other.statusCode).toBe(404);
  });
});
