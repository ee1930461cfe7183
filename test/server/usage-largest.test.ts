import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { buildSpans, SPANS } from '@server/db/migrations/0184_subscriber_spans';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Row = Record<string, any>;

describe.each(engines)('the largest subscribers of a range on %s', (engine) => {
  let ctx: Ctx;
  let token: string;

  const ask = async (body: Row, zone = 'Europe/Berlin') => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/portal/graphs/usageBy',
      headers: { authorization: `Bearer ${token}`, 'x-time-zone': zone },
      payload: { dimension: 'subscriber', ...body },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Row;
  };

  /** Every subscriber with data in [from, to), the largest first (ties by id, the larger first), from the raw log. */
  const rawOrder = async (from: string, to: string) => {
    const { rows } = await sql<{ key: string; up: string; down: string; n: string }>`
      select u.subscriber_id::text as key, sum(u.bytes_up)::text as up, sum(u.bytes_down)::text as down, count(*)::text as n
      from usage_record u where u.at >= ${from}::timestamptz and u.at < ${to}::timestamptz
      group by u.subscriber_id having sum(u.bytes_up + u.bytes_down) <> 0
      order by sum(u.bytes_up + u.bytes_down) desc, u.subscriber_id desc`.execute(ctx.db);
    return rows.map((r) => ({ key: r.key, bytesUp: Number(r.up), bytesDown: Number(r.down), records: Number(r.n) }));
  };
  const figures = (items: Row[]) => items.map((i) => ({ key: i.key, bytesUp: i.bytesUp, bytesDown: i.bytesDown, records: i.records }));

  /** The spans as they should be for `asOf` (a date), straight from `usage_record`: subscriber id → [w2, w8, w32, w367]. */
  const spansFromRecords = async (asOf: string) => {
    const { rows } = await sql<Row>`
      select r.subscriber_id as id, ${sql.join(
        SPANS.map((s) => sql`coalesce(sum(r.b) filter (where r.day >= ${asOf}::date - ${sql.lit(s - 1)}), 0)::text as ${sql.ref(`w${s}`)}`),
      )}
      from (select subscriber_id, (at at time zone 'UTC')::date as day, bytes_up + bytes_down as b from usage_record) r
      group by 1 having sum(r.b) filter (where r.day >= ${asOf}::date - 366) <> 0`.execute(ctx.db);
    return Object.fromEntries(rows.map((r) => [String(r.id), SPANS.map((s) => Number(r[`w${s}`]))]));
  };
  const spansKept = async () => {
    const { rows } = await sql<Row>`select subscriber_id as id, w2::text, w8::text, w32::text, w367::text from usage_subscriber_span
      where w2 <> 0 or w8 <> 0 or w32 <> 0 or w367 <> 0`.execute(ctx.db);
    return Object.fromEntries(rows.map((r) => [String(r.id), [r.w2, r.w8, r.w32, r.w367].map(Number)]));
  };
  const asOf = async () => (await sql<{ d: string }>`select as_of::text as d from usage_span_state`.execute(ctx.db)).rows[0].d;

  beforeAll(async () => {
    // Few candidates at a time, so the bound decides: 12 of a span's largest, then 60, then everyone added up.
    ctx = await testApp(engine, { usageTotals: { candidates: [12, 60] } });
    token = await ctx.login('admin');
    // Every subscriber, over the last 400 days, some using far more than others; a few records carry no data.
    await sql`insert into usage_record (subscriber_id, imsi, at, request_type, plmn, bytes_up, bytes_down)
      select s.subscriber_id, s.imsi, now() - make_interval(secs => ((s.subscriber_id * 7919 + g * 104729) % (400 * 86400))::float8), 'UPDATE', '26201',
        case when (s.subscriber_id + g) % 29 = 0 then 0 else ((s.subscriber_id % 7) + 1) * ((s.subscriber_id * 31 + g * 17) % 50000) end,
        case when (s.subscriber_id + g) % 29 = 0 then 0 else ((s.subscriber_id % 7) + 1) * ((s.subscriber_id % 7) + 1) * ((s.subscriber_id * 131 + g * 7) % 500000) end
      from subscriber s cross join generate_series(1, 30) g`.execute(ctx.db);
    // And more of them in the last two days.
    await sql`insert into usage_record (subscriber_id, imsi, at, request_type, plmn, bytes_up, bytes_down)
      select s.subscriber_id, s.imsi, now() - make_interval(secs => ((s.subscriber_id * 7919 + g * 104729) % (2 * 86400))::float8), 'UPDATE', '26201',
        ((s.subscriber_id % 5) + 1) * ((s.subscriber_id * 37 + g * 13) % 40000), ((s.subscriber_id % 5) + 1) * ((s.subscriber_id * 113 + g * 11) % 400000)
      from subscriber s cross join generate_series(1, 3) g where s.subscriber_id % 3 <> 0`.execute(ctx.db);
    // A subscriber whose only records of the range carry no data is not listed.
    await sql`insert into usage_record (subscriber_id, imsi, at, request_type, bytes_up, bytes_down)
      select s.subscriber_id, s.imsi, now() - interval '1 hour', 'UPDATE', 0, 0
      from subscriber s where not exists (select 1 from usage_record u where u.subscriber_id = s.subscriber_id) limit 1`.execute(ctx.db);
  });
  afterAll(async () => ctx?.close());

  it('answers the largest first exactly as the raw log orders them, for every span and zone', async () => {
    for (const [range, zone] of [
      ['last24Hours', 'UTC'],
      ['day', 'Pacific/Chatham'],
      ['last7Days', 'America/New_York'],
      ['last30Days', 'Europe/Berlin'],
      ['quarter', 'Asia/Kolkata'],
      ['last12Months', 'Asia/Kathmandu'],
    ]) {
      const first = await ask({ range, size: 5 }, zone);
      const raw = await rawOrder(first.from, first.to);
      expect(raw.length, range).toBeGreaterThan(15);
      expect(first.totalItemsCount, range).toBe(raw.length);
      expect(figures(first.top), range).toEqual(raw.slice(0, 10));
      for (const page of [0, 1, 2]) {
        const answer = page === 0 ? first : await ask({ range, size: 5, page }, zone);
        expect(figures(answer.items), `${range} page ${page}`).toEqual(raw.slice(page * 5, page * 5 + 5));
        expect(
          answer.items.every((i: Row) => i.label),
          range,
        ).toBe(true);
      }
    }
  });

  it('answers from the spans, so new usage shows at once where kept totals would wait', async () => {
    const body = { range: 'last30Days', size: 5 };
    const before = await ask(body);
    // The tenth largest becomes the largest; kept totals (30 seconds) would still answer the order before.
    const tenth = Number(before.top[9].key);
    await sql`insert into usage_record (subscriber_id, imsi, at, request_type, bytes_up, bytes_down)
      select s.subscriber_id, s.imsi, now() - interval '2 hours', 'UPDATE', 0, ${before.top[0].bytesDown + before.top[0].bytesUp}
      from subscriber s where s.subscriber_id = ${tenth}`.execute(ctx.db);
    const after = await ask(body);
    expect(after.items[0].key).toBe(String(tenth));
    expect(figures(after.items)).toEqual((await rawOrder(after.from, after.to)).slice(0, 5));
  });

  it('keeps each span as records are added, changed and removed, and rolls it forward a day at a time', async () => {
    expect(await spansKept()).toEqual(await spansFromRecords(await asOf()));
    await sql`update usage_record set bytes_down = bytes_down + 1000, at = at - interval '3 days'
      where id in (select id from usage_record order by id desc limit 40)`.execute(ctx.db);
    await sql`delete from usage_record where id in (select id from usage_record order by at desc limit 25)`.execute(ctx.db);
    expect(await spansKept()).toEqual(await spansFromRecords(await asOf()));

    // Forty days behind (a portal stopped for a while): the spans still bound every range, and the first read rolls them on.
    const today = await asOf();
    await sql`update usage_span_state set as_of = as_of - 40`.execute(ctx.db);
    await buildSpans(ctx.db);
    const behind = await asOf();
    expect(await spansKept()).toEqual(await spansFromRecords(behind));
    const answer = await ask({ range: 'last7Days', size: 5 });
    expect(figures(answer.items)).toEqual((await rawOrder(answer.from, answer.to)).slice(0, 5));
    expect(await asOf()).toBe(today);
    expect(await spansKept()).toEqual(await spansFromRecords(today));
  });
});
