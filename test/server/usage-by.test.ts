import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { random } from '@server/db/seedSubscribers';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Row = Record<string, any>;

const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu', 'Pacific/Chatham'];
const DIMENSIONS = ['subscriber', 'account', 'reseller', 'country', 'operator'] as const;

describe.each(engines)('usage by dimension on %s', (engine) => {
  let ctx: Ctx;
  const tokens: Record<string, string> = {};
  const reseller: Record<string, { id: number; path: string }> = {};
  let staticGroup: number;
  let searchGroup: number;

  const call = (user: string, body: Row, zone?: string, url = '/portal/graphs/usageBy') =>
    ctx.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${tokens[user]}`, ...(zone ? { 'x-time-zone': zone } : {}) },
      payload: body,
    });
  const ok = async (user: string, body: Row, zone?: string) => {
    const res = await call(user, { size: 200, ...body }, zone);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Row;
  };

  /** The raw usage log per dimension key in [from, to) within a reseller path, straight from `usage_record`. */
  const rawBy = async (dimension: string, from: string, to: string, path = '/', only?: string) => {
    const key = {
      subscriber: sql`u.subscriber_id::text`,
      account: sql`s.account_id::text`,
      reseller: sql`s.reseller_id::text`,
      operator: sql`coalesce(u.plmn, '')`,
      country: sql`coalesce((select n.country from network n where n.plmn = u.plmn order by n.withdrawn_at nulls first limit 1), '')`,
    }[dimension]!;
    const { rows } = await sql<{ key: string; up: string; down: string; n: string }>`
      select ${key} as key, sum(u.bytes_up)::text as up, sum(u.bytes_down)::text as down, count(*)::text as n
      from usage_record u join subscriber s on s.subscriber_id = u.subscriber_id join reseller r on r.id = s.reseller_id
      where u.at >= ${from}::timestamptz and u.at < ${to}::timestamptz and r.path like ${`${path}%`}
        and (${only ?? null}::text is null or u.subscriber_id in (select unnest(string_to_array(${only ?? ''}, ','))::int))
      group by 1`.execute(ctx.db);
    return Object.fromEntries(rows.map((r) => [r.key, [Number(r.up), Number(r.down), Number(r.n)]]));
  };
  const answered = (answer: Row) => Object.fromEntries((answer.items as Row[]).map((i) => [i.key, [i.bytesUp, i.bytesDown, i.records]]));

  /** Usage records for a sample of subscribers at pseudo-random instants in [start, start + days). */
  const addUsage = async (start: string, days: number, perSubscriber: number, seed: number) => {
    await sql`insert into usage_record (subscriber_id, imsi, at, request_type, plmn, bytes_up, bytes_down)
      select s.subscriber_id, s.imsi,
        ${start}::timestamptz + make_interval(secs => ((s.subscriber_id * 7919 + g * 104729 + ${seed}) % (${days} * 86400))::float8),
        'UPDATE',
        (array['26201', '310260', '23410', null])[1 + (s.subscriber_id + g) % 4],
        (s.subscriber_id * 31 + g * 17 + ${seed}) % 500000,
        (s.subscriber_id * 131 + g * 7 + ${seed}) % 5000000
      from (select * from subscriber order by subscriber_id limit 40) s cross join generate_series(1, ${perSubscriber}) g`.execute(ctx.db);
  };

  beforeAll(async () => {
    ctx = await testApp(engine);
    for (const u of ['admin', 'northwind', 'northwind-iot', 'harbor']) tokens[u] = await ctx.login(u);
    for (const r of await ctx.db.selectFrom('reseller').select(['id', 'name', 'path']).execute()) reseller[r.name] = { id: r.id, path: r.path };
    // Berlin's spring change (29 March 2026) and the last days.
    await addUsage('2026-03-26T00:00:00Z', 8, 10, 1);
    await addUsage(new Date(Date.now() - 5 * 86_400_000).toISOString(), 5, 6, 2);
    const nw = reseller['Northwind Mobile'].id;
    const g1 = await sql<{ id: number }>`insert into subscriber_group (name, kind, reseller_id) values ('Fleet', 'static', ${nw}) returning id`.execute(ctx.db);
    staticGroup = g1.rows[0].id;
    await sql`insert into subscriber_group_member (group_id, subscriber_id)
      select ${staticGroup}, s.subscriber_id from subscriber s join reseller r on r.id = s.reseller_id
      where r.path like ${`${reseller['Northwind Mobile'].path}%`} order by s.subscriber_id limit 5`.execute(ctx.db);
    const account = await sql<{ id: number }>`select s.account_id as id from subscriber s where s.reseller_id = ${nw} order by s.subscriber_id limit 1`.execute(
      ctx.db,
    );
    const g2 = await sql<{ id: number }>`insert into subscriber_group (name, kind, search_by, search_key, reseller_id)
      values ('One account', 'search', 'accountId', ${String(account.rows[0].id)}, ${nw}) returning id`.execute(ctx.db);
    searchGroup = g2.rows[0].id;
  });
  afterAll(async () => ctx?.close());

  it('totals per dimension equal the raw usage log for random ranges and zones, a DST change day among them', async () => {
    const next = random(11);
    const ranges = [
      { zone: 'Europe/Berlin', from: '2026-03-29', to: '2026-03-29' },
      { zone: 'Asia/Kathmandu', from: '2026-03-27', to: '2026-04-01' },
      // Whole UTC months inside (read from the month rollups), the edges inside months.
      { zone: 'America/New_York', from: '2026-02-15', to: '2026-12-31' },
      { zone: 'Pacific/Chatham', from: '2026-03-28', to: '2026-11-30' },
    ];
    for (let i = 0; i < 4; i += 1) {
      const a = new Date(Date.parse('2026-03-24T00:00:00Z') + Math.floor(next() * 8) * 86_400_000).toISOString().slice(0, 10);
      const b = new Date(Date.parse(a) + Math.floor(next() * 5) * 86_400_000).toISOString().slice(0, 10);
      ranges.push({ zone: ZONES[Math.floor(next() * ZONES.length)], from: a, to: b });
    }
    for (const r of ranges)
      for (const dimension of DIMENSIONS) {
        const body = { dimension, range: 'custom', from: r.from, to: r.to };
        const answer = await ok('admin', body, r.zone);
        // Every page (a long range holds more subscribers than one page of 200).
        const items = [...answer.items];
        for (let page = 1; page < answer.totalPageCount; page += 1) items.push(...(await ok('admin', { ...body, page }, r.zone)).items);
        expect(answer.totalItemsCount, `${dimension} ${r.zone}`).toBe(items.length);
        expect(answered({ items }), `${dimension} ${r.zone} ${r.from}..${r.to}`).toEqual(await rawBy(dimension, answer.from, answer.to));
      }
    // A named range, as a reseller: only its subtree.
    for (const dimension of DIMENSIONS) {
      const answer = await ok('northwind', { dimension, range: 'last7Days' }, 'America/New_York');
      expect(answered(answer), dimension).toEqual(await rawBy(dimension, answer.from, answer.to, reseller['Northwind Mobile'].path));
    }
  });

  it('sorts, pages, lists the largest for the chart and keeps tenants to their subtree', async () => {
    const body = { dimension: 'subscriber', range: 'custom', from: '2026-03-26', to: '2026-04-02' };
    const all = await ok('admin', body);
    const first = await ok('admin', { ...body, size: 3, page: 0, sortBy: 'bytesUp', sortDir: 'asc' });
    const second = await ok('admin', { ...body, size: 3, page: 1, sortBy: 'bytesUp', sortDir: 'asc' });
    // Ties by the key: a subscriber's id, as a number.
    const byUp = [...all.items].sort((x: Row, y: Row) => x.bytesUp - y.bytesUp || Number(x.key) - Number(y.key));
    expect([...first.items, ...second.items].map((i: Row) => i.key)).toEqual(byUp.slice(0, 6).map((i: Row) => i.key));
    expect(first.totalItemsCount).toBe(all.totalItemsCount);
    expect(first.totalPageCount).toBe(Math.ceil(all.totalItemsCount / 3));
    // The chart's ten, whether the page is in their order (taken from it) or not (read apart).
    expect(all.top.map((i: Row) => i.key)).toEqual(all.items.slice(0, 10).map((i: Row) => i.key));
    expect(first.top.map((i: Row) => i.key)).toEqual(all.items.slice(0, 10).map((i: Row) => i.key));
    // Ids in the order of their numbers (9 before 10), not of their text.
    const byKey = await ok('admin', { ...body, sortBy: 'key', sortDir: 'asc' });
    const ids = byKey.items.map((i: Row) => Number(i.key));
    expect(ids.some((id: number) => id < 10) && ids.some((id: number) => id >= 10)).toBe(true);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(all.items[0].label).toBeTruthy();

    // A sub-reseller sees its own resellers only; an account user its account.
    const iot = await ok('northwind-iot', { dimension: 'reseller', range: 'custom', from: '2026-03-26', to: '2026-04-02' });
    const iotRaw = await rawBy('reseller', iot.from, iot.to, reseller['Northwind IoT'].path);
    expect(answered(iot)).toEqual(iotRaw);
    const harbor = await ok('harbor', { dimension: 'account', range: 'custom', from: '2026-03-26', to: '2026-04-02' });
    expect(harbor.items.length).toBeLessThanOrEqual(1);
    const other = await call('northwind-iot', { dimension: 'account', accountId: 999_999, range: 'last7Days' });
    expect(other.statusCode).toBe(404);
  });

  it('adds up a static group through its members and a saved search through its stored search', async () => {
    const body = { range: 'custom', from: '2026-03-26', to: '2026-04-02' };
    const groups = await ok('northwind', { ...body, dimension: 'group' });
    const members = async (id: number) => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/portal/subscriber-groups/${id}/members/paged`,
        headers: { authorization: `Bearer ${tokens.northwind}` },
        payload: { page: { page: 0, size: 500 } },
      });
      return (res.json().items as Row[]).map((s) => s.subscriberId as number);
    };
    for (const id of [staticGroup, searchGroup]) {
      const ids = await members(id);
      expect(ids.length, String(id)).toBeGreaterThan(0);
      const raw = Object.values(await rawBy('reseller', groups.from, groups.to, '/', ids.join(','))).reduce(
        (t, [u, d, n]) => [t[0] + u, t[1] + d, t[2] + n],
        [0, 0, 0],
      );
      const item = groups.items.find((i: Row) => i.key === String(id));
      expect(item ? [item.bytesUp, item.bytesDown, item.records] : [0, 0, 0], String(id)).toEqual(raw);
      if (item) expect(item.activeSims).toBe(Object.keys(await rawBy('subscriber', groups.from, groups.to, '/', ids.join(','))).length);
      // The subscribers of one group.
      const inGroup = await ok('northwind', { ...body, dimension: 'subscriber', groupId: id });
      expect(answered(inGroup)).toEqual(await rawBy('subscriber', groups.from, groups.to, '/', ids.join(',')));
    }
    // A group of another tenant is not found; groupId with another dimension is refused by name.
    expect((await call('northwind-iot', { ...body, dimension: 'subscriber', groupId: staticGroup })).statusCode).toBe(404);
    const refused = await call('northwind', { ...body, dimension: 'account', groupId: staticGroup });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields[0]).toMatchObject({ field: 'groupId' });
  });

  it('streams the whole table as CSV and refuses bad input by field', async () => {
    const res = await call(
      'admin',
      { dimension: 'operator', range: 'custom', from: '2026-03-26', to: '2026-04-02', sortBy: 'key', sortDir: 'asc' },
      undefined,
      '/portal/graphs/usageBy/download',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe('key,label,mb,bytesUp,bytesDown,records,activeSims');
    const json = await ok('admin', { dimension: 'operator', range: 'custom', from: '2026-03-26', to: '2026-04-02', sortBy: 'key', sortDir: 'asc' });
    expect(lines.length - 1).toBe(json.totalItemsCount);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(json.items.map((i: Row) => i.key));
    for (const [body, field] of [
      [{ dimension: 'planet' }, 'dimension'],
      [{ sortBy: 'bytes' }, 'sortBy'],
      [{ size: 0 }, 'size'],
    ] as const) {
      const bad = await call('admin', body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json().fields[0].field).toBe(field);
    }
  });

  it("answers a question's pages from its totals for 30 seconds, then adds them up again", async () => {
    // (An order other than the largest first: those pages are found from the spans, not from kept totals.)
    const body = { dimension: 'subscriber', range: 'last12Months', size: 5, sortBy: 'bytesDown' };
    const first = await ok('admin', body, 'Pacific/Auckland');
    /** Every page of the question. */
    const all = async () => {
      const items: Row[] = [];
      for (let page = 0, pages = 1; page < pages; page += 1) {
        const answer = await ok('admin', { ...body, size: 200, page }, 'Pacific/Auckland');
        items.push(...answer.items);
        pages = answer.totalPageCount;
      }
      return answered({ items });
    };
    const before = await all();
    expect(before).toEqual(await rawBy('subscriber', first.from, first.to));
    // More usage of the largest: not in the kept totals.
    const id = Number(first.items[0].key);
    await sql`insert into usage_record (subscriber_id, imsi, at, request_type, bytes_up, bytes_down)
      select s.subscriber_id, s.imsi, now() - interval '2 hours', 'UPDATE', 1, 2 from subscriber s where s.subscriber_id = ${id}`.execute(ctx.db);
    const raw = await rawBy('subscriber', first.from, first.to);
    expect(raw[id]).toEqual([before[id][0] + 1, before[id][1] + 2, before[id][2] + 1]);
    expect(await all()).toEqual(before);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 30_000);
      expect(await all()).toEqual(raw);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the new rollups current as records are added, changed and removed', async () => {
    await addUsage(new Date(Date.now() - 20 * 3_600_000).toISOString(), 1, 2, 9);
    await sql`update usage_record set bytes_up = bytes_up + 7 where id in (select id from usage_record order by id desc limit 5)`.execute(ctx.db);
    await sql`delete from usage_record where id in (select id from usage_record order by id desc limit 3 offset 5)`.execute(ctx.db);
    for (const dimension of ['subscriber', 'reseller'] as const)
      for (const range of ['last24Hours', 'last12Months']) {
        const answer = await ok('admin', { dimension, range }, 'Asia/Kolkata');
        const rest = answer.totalPageCount > 1 ? await ok('admin', { dimension, range, page: 1 }, 'Asia/Kolkata') : { items: [] };
        expect(answered({ items: [...answer.items, ...rest.items] }), `${dimension} ${range}`).toEqual(await rawBy(dimension, answer.from, answer.to));
      }
  });
});

describe('the usage simulator', () => {
  it('writes usage and location records through the usual triggers, and stops with the server', async () => {
    const ctx = await testApp('pglite', { usageSimulator: { enabled: true, everySeconds: 3600, batch: 5, locationShare: 1 } });
    try {
      const before = await sql<{ n: string; r: string; e: string }>`select (select count(*) from usage_record)::text as n,
        (select coalesce(sum(records), 0) from usage_reseller_day)::text as r, (select count(*) from network_event)::text as e`.execute(ctx.db);
      const { createUsageSimulator } = await import('@server/adapters/core-network/usageSimulator');
      const written = await createUsageSimulator(ctx.db, ctx.app.log, { batch: 5, locationShare: 1 }).tick();
      expect(written).toBe(5);
      const after = await sql<{ n: string; r: string; e: string }>`select (select count(*) from usage_record)::text as n,
        (select coalesce(sum(records), 0) from usage_reseller_day)::text as r, (select count(*) from network_event)::text as e`.execute(ctx.db);
      expect(Number(after.rows[0].n) - Number(before.rows[0].n)).toBe(5);
      expect(Number(after.rows[0].r) - Number(before.rows[0].r)).toBe(5);
      expect(Number(after.rows[0].e)).toBeGreaterThan(Number(before.rows[0].e));
    } finally {
      await ctx.close();
    }
  });
});
