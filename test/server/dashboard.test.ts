import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
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

  /**
   * The raw usage log's subscribers with bytes in [from, to) per their country now, those of `tenant` now (a condition
   * on the subscriber `s` and its reseller `r`).
   */
  const activeRaw = async (from: string, to: string, tenant: RawBuilder<SqlBool>) => {
    const { rows } = await sql<{ country: string; n: number }>`
      select coalesce(s.country, '') as country, count(distinct s.subscriber_id)::int as n
      from usage_record u join subscriber s on s.subscriber_id = u.subscriber_id join reseller r on r.id = s.reseller_id
      where u.at >= ${from}::timestamptz and u.at < ${to}::timestamptz and ${tenant} and u.bytes_up + u.bytes_down > 0 group by 1`.execute(ctx.db);
    return Object.fromEntries(rows.map((r) => [r.country, r.n]));
  };
  /** Whether a subscriber of `tenant` has bytes at or after `to`: the map then cannot read the histogram alone. */
  const usedAfter = async (to: string, tenant: RawBuilder<SqlBool>) => {
    const { rows } = await sql<{ used: boolean }>`select exists (select 1 from usage_record u join subscriber s on s.subscriber_id = u.subscriber_id
      join reseller r on r.id = s.reseller_id where u.at >= ${to}::timestamptz and u.bytes_up + u.bytes_down > 0 and ${tenant}) as used`.execute(ctx.db);
    return rows[0].used;
  };
  /** The map's active SIMs per country equal the raw log's; answers whether the range ends before some of the tenant's usage. */
  const expectActive = async (user: string, body: Row, zone: string, tenant: RawBuilder<SqlBool>) => {
    const answer = await countries(user, body, zone);
    const got = Object.fromEntries(answer.items.filter((i) => i.activeSims !== 0).map((i) => [i.country, i.activeSims]));
    expect(got, `${user} ${JSON.stringify(body)} ${zone}`).toEqual(await activeRaw(answer.from, answer.to, tenant));
    return usedAfter(answer.to, tenant);
  };
  /** `subscriber_activity` equals a rebuild from the usage log and the subscribers, and its histograms ones from it. */
  const expectKept = async () => {
    const rebuilt = await sql<Row>`select s.subscriber_id, s.reseller_id, s.account_id, coalesce(s.country, '')::text as country,
        to_timestamp(floor(extract(epoch from max(u.at)) / 900) * 900)::text as last_at
      from usage_record u join subscriber s on s.subscriber_id = u.subscriber_id where u.bytes_up + u.bytes_down <> 0 group by 1, 2, 3, 4 order by 1`.execute(
      ctx.db,
    );
    const kept = await sql<Row>`select subscriber_id, reseller_id, account_id, country, last_at::text as last_at from subscriber_activity order by 1`.execute(
      ctx.db,
    );
    expect(kept.rows).toEqual(rebuilt.rows);
    const days = await sql<Row>`select reseller_id, account_id, country, (last_at at time zone 'UTC')::date::text as day, count(*)::int as sims
      from subscriber_activity group by 1, 2, 3, 4 order by 1, 2, 3, 4`.execute(ctx.db);
    const histogram = await sql<Row>`select reseller_id, account_id, country, day::text as day, sims from active_day order by 1, 2, 3, 4`.execute(ctx.db);
    expect(histogram.rows).toEqual(days.rows);
    const hours = await sql<Row>`select reseller_id, account_id, country, date_trunc('hour', last_at, 'UTC')::text as hour, count(*)::int as sims
      from subscriber_activity group by 1, 2, 3, 4 order by 1, 2, 3, 4`.execute(ctx.db);
    const byHour = await sql<Row>`select reseller_id, account_id, country, hour::text as hour, sims from active_hour order by 1, 2, 3, 4`.execute(ctx.db);
    expect(byHour.rows).toEqual(hours.rows);
    // The UTC days each subscriber used data on, as its row's day bits hold them and as the log has them.
    const bits = await sql<Row>`select a.subscriber_id, (a.first_day + g.i)::text as day from subscriber_activity a
      cross join generate_series(0, length(a.active_days) - 1) g(i) where get_bit(a.active_days, g.i) = 1 order by 1, 2`.execute(ctx.db);
    const logged = await sql<Row>`select distinct subscriber_id, (at at time zone 'UTC')::date::text as day from usage_record
      where bytes_up + bytes_down <> 0 order by 1, 2`.execute(ctx.db);
    expect(bits.rows).toEqual(logged.rows);
    // The steps from each of those days to the next, per owner and country of now, as a rebuild from the day bits.
    const steps = await sql<Row>`select reseller_id, account_id, country, day::text as day, prev_day::text as prev_day, count(*)::int as sims
      from (select a.subscriber_id, a.reseller_id, a.account_id, a.country, a.first_day + g.i as day,
          coalesce(lag(a.first_day + g.i) over (partition by a.subscriber_id order by g.i), '-infinity') as prev_day
        from subscriber_activity a cross join generate_series(0, length(a.active_days) - 1) g(i) where get_bit(a.active_days, g.i) = 1) s
      group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5`.execute(ctx.db);
    const keptSteps = await sql<Row>`select reseller_id, account_id, country, day::text as day, prev_day::text as prev_day, sims
      from active_day_prev order by 1, 2, 3, 4, 5`.execute(ctx.db);
    expect(keptSteps.rows).toEqual(steps.rows);
  };

  /** The raw usage log per network country, active subscribers per subscriber country, and sales per sale country, in [from, to) under `path`. */
  const raw = async (from: string, to: string, path: string) => {
    const usage = await sql<{ country: string; bytes: string }>`
      select coalesce(n.country, '') as country, sum(u.bytes_up + u.bytes_down)::text as bytes
      from usage_record u join subscriber s on s.subscriber_id = u.subscriber_id join reseller r on r.id = s.reseller_id
      left join lateral (select n.country from network n where n.plmn = u.plmn order by n.withdrawn_at nulls first limit 1) n on true
      where u.at >= ${from}::timestamptz and u.at < ${to}::timestamptz and r.path like ${`${path}%`} group by 1`.execute(ctx.db);
    const active = await activeRaw(from, to, sql<SqlBool>`r.path like ${`${path}%`}`);
    const sales = await sql<{ country: string; amount: string }>`
      select k.country, sum(-l.amount)::text as amount
      from ledger_entry l join prepaid_package p on p.ledger_entry_id = l.id join reseller r on r.id = l.reseller_id
      join sales_rollup_key k on k.package_id = p.id
      where l.kind = 'purchase' and coalesce(p.payment_date, p.purchase_date) >= ${from}::timestamptz
        and coalesce(p.payment_date, p.purchase_date) < ${to}::timestamptz and r.path like ${`${path}%`} group by 1`.execute(ctx.db);
    const out: Record<string, { activeSims: number; bytes: number; sales: number }> = {};
    const at = (c: string) => (out[c] ??= { activeSims: 0, bytes: 0, sales: 0 });
    for (const r of usage.rows) at(r.country).bytes = Number(r.bytes);
    for (const [country, n] of Object.entries(active)) at(country).activeSims = n;
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

  const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
  /** The date `days` days ago in a zone (its calendar, not UTC's). */
  const agoIn = (days: number, zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(Date.now() - days * 86_400_000);
  const under = (name: string) => sql<SqlBool>`r.path like ${`${reseller[name].path}%`}`;
  /** A usage record of `bytes` for a subscriber at an instant; answers its id. */
  const record = async (subscriberId: number, at: string, bytes = 1000) =>
    (
      await sql<{ id: string }>`insert into usage_record (subscriber_id, imsi, at, request_type, bytes_up, bytes_down)
        select subscriber_id, imsi, ${at}::timestamptz, 'UPDATE', ${bytes}, 0 from subscriber where subscriber_id = ${subscriberId} returning id`.execute(
        ctx.db,
      )
    ).rows[0].id;
  /** Subscribers (ids, in order) of `where` with bytes in the last `days` days. */
  const usedLately = async (days: number, where: RawBuilder<SqlBool> = sql`true`) =>
    (
      await sql<{ id: number }>`select s.subscriber_id as id from subscriber s join reseller r on r.id = s.reseller_id where ${where}
        and exists (select 1 from usage_record u where u.subscriber_id = s.subscriber_id and u.bytes_up + u.bytes_down > 0
          and u.at >= now() - make_interval(days => ${days})) order by 1`.execute(ctx.db)
    ).rows.map((r) => r.id);

  it('counts active SIMs from the histogram for ranges to the present and from the rollups past them, as the raw log per tenant', async () => {
    await expectKept();
    const [account] = (
      await sql<{ id: number }>`select s.account_id as id from subscriber s where exists (select 1 from usage_record u where u.subscriber_id = s.subscriber_id)
        group by 1 order by count(*) desc, 1 limit 1`.execute(ctx.db)
    ).rows;
    const tenants: [string, Row, RawBuilder<SqlBool>][] = [
      ['admin', {}, sql<SqlBool>`true`],
      ['northwind', {}, under('Northwind Mobile')],
      ['bluesky', {}, under('Blue Sky Telecom')],
      ['admin', { accountId: account.id }, sql<SqlBool>`s.account_id = ${account.id}`],
    ];
    const ranges: [Row, string][] = [
      [{ range: 'last24Hours' }, 'America/New_York'],
      [{ range: 'last7Days' }, 'Europe/Berlin'],
      [{ range: 'last12Months' }, 'Asia/Kathmandu'],
      [{ range: 'month' }, 'Australia/Adelaide'],
      [{ range: 'custom', from: ago(9), to: ago(2) }, 'Pacific/Chatham'],
      [{ range: 'custom', from: ago(3), to: ago(0) }, 'America/Los_Angeles'],
      // Ranges with fewer days than follow them (counted from the steps into them rather than over them).
      [{ range: 'custom', from: ago(8), to: ago(7) }, 'UTC'],
      [{ range: 'custom', from: ago(8), to: ago(6) }, 'Asia/Kathmandu'],
    ];
    /** Per tenant, per range: whether usage follows the range (the rollups' reading) or not (the histogram's). */
    const readings = async () => {
      const seen: boolean[][] = [];
      for (const [user, scope, tenant] of tenants) {
        const row: boolean[] = [];
        for (const [body, zone] of ranges) row.push(await expectActive(user, { ...body, ...scope }, zone, tenant));
        seen.push(row);
      }
      return seen;
    };
    const first = await readings();
    // Only the ranges ending two days ago or earlier are followed by usage.
    expect(first[0]).toEqual([false, false, false, false, true, false, true, true]);
    // One Northwind subscriber's record dated three days ahead (after the end of every range above, whatever the hour
    // and the zone): the administrator's and Northwind's ranges all read the rollups.
    const [northwind] = await usedLately(10, under('Northwind Mobile'));
    const ahead = await record(northwind, new Date(Date.now() + 3 * 86_400_000).toISOString());
    await expectKept();
    const second = await readings();
    expect(second[0]).toEqual(ranges.map(() => true));
    expect(second[1]).toEqual(ranges.map(() => true));
    expect(second[2]).toEqual(first[2]);
    // Removed again: its subscriber's latest quarter hour is the one before, and the histogram answers again.
    await sql`delete from usage_record where id = ${ahead}`.execute(ctx.db);
    await expectKept();
    expect(await readings()).toEqual(first);
  });

  it('counts the subscribers whose latest usage lies between a range start off the hour and the next hour', async () => {
    // Kathmandu's midnight is 18:15 UTC: a range from it to the present counts [18:15, 19:00) subscriber by subscriber.
    // Its dates are Kathmandu's: from 18:15 UTC on, UTC's today has already ended there.
    const body = { range: 'custom', from: agoIn(2, 'Asia/Kathmandu'), to: agoIn(0, 'Asia/Kathmandu') };
    const { from } = await countries('admin', body, 'Asia/Kathmandu');
    expect(from.slice(11, 16)).toBe('18:15');
    // Two subscribers with no usage since an hour before it: one record just after the start, one just before.
    const start = Date.parse(from);
    const idle = (
      await sql<{ id: number }>`select s.subscriber_id as id from subscriber s where not exists (select 1 from usage_record u
        where u.subscriber_id = s.subscriber_id and u.at >= ${new Date(start - 3_600_000).toISOString()}::timestamptz) order by 1 limit 2`.execute(ctx.db)
    ).rows.map((r) => r.id);
    expect(idle).toHaveLength(2);
    const added = [await record(idle[0], new Date(start + 10 * 60_000).toISOString()), await record(idle[1], new Date(start - 10 * 60_000).toISOString())];
    await expectKept();
    expect(await expectActive('admin', body, 'Asia/Kathmandu', sql<SqlBool>`true`)).toBe(false);
    await sql`delete from usage_record where id in (${sql.join(added)})`.execute(ctx.db);
    await expectKept();
  });

  it('counts a DST change day in its zone, from the histogram and from the rollups', async () => {
    // Two small accounts made quiet (their subscribers' records removed), four subscribers each.
    const quiet = (
      await sql<{ accountId: number; subs: number[] }>`select a.account_id, (array_agg(s.subscriber_id order by s.subscriber_id))[1:4] as subs
        from account a join subscriber s on s.account_id = a.account_id group by 1 having count(*) >= 4 order by count(*), 1 limit 2`.execute(ctx.db)
    ).rows;
    await sql`delete from usage_record u using subscriber s
      where s.subscriber_id = u.subscriber_id and s.account_id in (${quiet[0].accountId}, ${quiet[1].accountId})`.execute(ctx.db);
    expect(quiet).toHaveLength(2);
    // Berlin's 30 March 2025 is [2025-03-29T23:00Z, 2025-03-30T22:00Z) (23 hours); New York's 2 November 2025
    // [2025-11-02T04:00Z, 2025-11-03T05:00Z) (25 hours). Per subscriber: its records (instant, bytes).
    const days: { zone: string; day: string; records: [string, number][][] }[] = [
      {
        zone: 'Europe/Berlin',
        day: '2025-03-30',
        records: [
          [
            ['2025-03-29T22:45:00Z', 1000],
            ['2025-03-30T10:00:00Z', 0],
          ],
          [['2025-03-29T23:30:00Z', 1000]],
          [['2025-03-30T21:50:00Z', 1000]],
          [
            ['2025-03-29T23:10:00Z', 1000],
            ['2025-03-30T12:00:00Z', 500],
          ],
        ],
      },
      {
        zone: 'America/New_York',
        day: '2025-11-02',
        records: [[['2025-11-02T03:30:00Z', 1000]], [['2025-11-02T04:00:00Z', 1000]], [['2025-11-03T04:30:00Z', 1000]], [['2025-11-03T04:59:00Z', 1000]]],
      },
    ];
    for (const [i, d] of days.entries())
      for (const [k, records] of d.records.entries()) for (const [at, bytes] of records) await record(quiet[i].subs[k], at, bytes);
    await expectKept();
    const check = async (i: number) => {
      const body = { range: 'custom', from: days[i].day, to: days[i].day };
      const accountId = quiet[i].accountId;
      const alone = await expectActive('admin', { ...body, accountId }, days[i].zone, sql<SqlBool>`s.account_id = ${accountId}`);
      expect(await expectActive('admin', body, days[i].zone, sql<SqlBool>`true`)).toBe(true);
      return alone;
    };
    // Nothing of either account follows its day: the account's count is the histogram's.
    expect(await check(0)).toBe(false);
    expect(await check(1)).toBe(false);
    const answer = await countries('admin', { range: 'custom', from: days[1].day, to: days[1].day, accountId: quiet[1].accountId }, days[1].zone);
    expect(answer.items.reduce((t, c) => t + c.activeSims, 0)).toBe(3);
    // Records after the day: one for a subscriber with none in the day, one for a subscriber with some. The rollups answer.
    const after = [await record(quiet[1].subs[0], '2025-11-03T05:00:00Z'), await record(quiet[1].subs[3], '2025-11-03T06:00:00Z')];
    await expectKept();
    expect(await check(1)).toBe(true);
    const again = await countries('admin', { range: 'custom', from: days[1].day, to: days[1].day, accountId: quiet[1].accountId }, days[1].zone);
    expect(again.items).toEqual(answer.items);
    await sql`delete from usage_record where id in (${sql.join(after)})`.execute(ctx.db);
    await expectKept();
    expect(await check(1)).toBe(false);
  });

  it('counts a subscriber in its reseller, account and country of now: moved, then moved back', async () => {
    const [id] = await usedLately(5, under('Northwind Mobile'));
    const [before] = (await sql<Row>`select account_id, reseller_id, country from subscriber where subscriber_id = ${id}`.execute(ctx.db)).rows;
    const [target] = (
      await sql<Row>`select a.account_id, a.reseller_id from account a join reseller r on r.id = a.reseller_id
        where ${under('Blue Sky Telecom')} order by 1 limit 1`.execute(ctx.db)
    ).rows;
    const tenants: [string, Row, RawBuilder<SqlBool>][] = [
      ['admin', {}, sql<SqlBool>`true`],
      ['northwind', {}, under('Northwind Mobile')],
      ['bluesky', {}, under('Blue Sky Telecom')],
      ['admin', { accountId: before.accountId }, sql<SqlBool>`s.account_id = ${before.accountId}`],
      ['admin', { accountId: target.accountId }, sql<SqlBool>`s.account_id = ${target.accountId}`],
    ];
    const check = async () => {
      await expectKept();
      for (const [user, scope, tenant] of tenants)
        for (const [body, zone] of [
          [{ range: 'last7Days' }, 'Europe/Berlin'],
          [{ range: 'custom', from: ago(8), to: ago(1) }, 'UTC'],
          [{ range: 'custom', from: ago(8), to: ago(7) }, 'UTC'],
        ] as const)
          await expectActive(user, { ...body, ...scope }, zone, tenant);
    };
    await sql`update subscriber set account_id = ${target.accountId}, reseller_id = ${target.resellerId}, country = 'FR' where subscriber_id = ${id}`.execute(
      ctx.db,
    );
    await check();
    const bluesky = await countries('bluesky', { range: 'last7Days' });
    expect(bluesky.items.find((c) => c.country === 'FR')?.activeSims).toBe(1);
    const northwind = await countries('northwind', { range: 'last7Days' });
    expect(northwind.items.find((c) => c.country === 'FR')?.activeSims ?? 0).toBe(0);
    await sql`update subscriber set account_id = ${before.accountId}, reseller_id = ${before.resellerId}, country = ${before.country}
      where subscriber_id = ${id}`.execute(ctx.db);
    await check();
    // Several in one statement, one of them only renamed (no move), then back.
    const several = (await usedLately(5, under('Northwind Mobile'))).slice(0, 4);
    const { rows: was } = await sql<Row>`select subscriber_id, country from subscriber where subscriber_id in (${sql.join(several)})`.execute(ctx.db);
    await sql`update subscriber set country = case when subscriber_id = ${several[0]} then country else 'FR' end, name = name || ' '
      where subscriber_id in (${sql.join(several)})`.execute(ctx.db);
    await check();
    await sql`update subscriber s set country = w.country, name = rtrim(s.name)
      from (values ${sql.join(was.map((w) => sql`(${w.subscriberId}::int, ${w.country}::text)`))}) w(id, country) where s.subscriber_id = w.id`.execute(ctx.db);
    await check();
  });

  it('keeps the counts when usage records are changed or removed and when a subscriber is removed', async () => {
    // Subscribers without package sales (the first forty have some).
    const [a, b, c] = await usedLately(3, sql<SqlBool>`s.subscriber_id > (select subscriber_id from subscriber order by 1 offset 39 limit 1)`);
    expect(c).toBeDefined();
    const latest = async (id: number) =>
      (
        await sql<{ id: string }>`select id from usage_record where subscriber_id = ${id} and bytes_up + bytes_down > 0 order by at desc limit 1`.execute(
          ctx.db,
        )
      ).rows[0].id;
    const check = async () => {
      await expectKept();
      for (const [body, zone] of [
        [{ range: 'last24Hours' }, 'America/New_York'],
        [{ range: 'last7Days' }, 'Europe/Berlin'],
        [{ range: 'custom', from: ago(9), to: ago(2) }, 'UTC'],
        [{ range: 'custom', from: ago(8), to: ago(6) }, 'Europe/Berlin'],
      ] as const)
        await expectActive('admin', body, zone, sql<SqlBool>`true`);
    };
    // A subscriber's latest record with bytes removed, another's emptied, an early one of it moved to now.
    await sql`delete from usage_record where id = ${await latest(a)}`.execute(ctx.db);
    await check();
    await sql`update usage_record set bytes_up = 0, bytes_down = 0 where id = ${await latest(b)}`.execute(ctx.db);
    await check();
    await sql`update usage_record set at = now() - interval '1 minute' where id = (select id from usage_record where subscriber_id = ${b}
      and bytes_up + bytes_down > 0 order by at limit 1)`.execute(ctx.db);
    await check();
    // Records of days before b's first and between its days (its day bits grow at the front), then one of a day it used.
    await sql`insert into usage_record (subscriber_id, imsi, at, request_type, bytes_up, bytes_down)
      select subscriber_id, imsi, now() - d * interval '1 day', 'UPDATE', 10, 20 from subscriber, unnest(array[40, 41, 20]) d
      where subscriber_id = ${b}`.execute(ctx.db);
    await check();
    await sql`insert into usage_record (subscriber_id, imsi, at, request_type, bytes_up, bytes_down)
      select subscriber_id, imsi, now() - interval '2 minutes', 'UPDATE', 10, 20 from subscriber where subscriber_id = ${b}`.execute(ctx.db);
    await check();
    // Older records of two subscribers in one statement, then every record of one of them.
    await sql`delete from usage_record where subscriber_id in (${b}, ${c}) and at < now() - interval '5 days'`.execute(ctx.db);
    await check();
    await sql`delete from usage_record where subscriber_id = ${c}`.execute(ctx.db);
    await check();
    // A subscriber removed (its records with it).
    await sql`delete from subscriber where subscriber_id = ${a}`.execute(ctx.db);
    await check();
    const left = await sql<{ n: number }>`select count(*)::int as n from subscriber_activity where subscriber_id in (${a}, ${c})`.execute(ctx.db);
    expect(left.rows[0].n).toBe(0);
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
