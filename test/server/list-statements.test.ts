import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type KyselyPlugin } from 'kysely';
import { buildApp } from '@server/app';
import { arrayQueriesOf } from '@server/db';
import { loadSchemas } from '@server/engine/schemas';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;

/** A plugin that changes nothing: a database handle of its own, which the kept statements of lists do not serve. */
const unchanged: KyselyPlugin = { transformQuery: ({ node }) => node, transformResult: async ({ result }) => result };

/**
 * Values PostgreSQL writes as JSON differently from JavaScript, or that the page's JSON may not carry as they are (see
 * `jsonValue` in the repository), set on some subscribers: strings to escape, timestamps of each precision and in
 * another zone, decimals, custom values; beyond four-digit years and 2^53, on PostgreSQL only (PGlite's own parsers
 * read those otherwise).
 */
function oddSubscribers(engine: string): ({ lastLocationAt?: string | null; custom?: object | string } & Record<string, unknown>)[] {
  const common = [
    { name: 'Quote " back \\ nl \n tab \t ctl \u0001 del \u007f é 😀 \u2028', lastLocationAt: '2026-01-02 03:04:05+00', balance: '123456789012.34' },
    { lastLocationAt: '1999-12-31 23:59:59.999999+00', balance: '-0.50', custom: { zeta: 'x', alpha: 1.5, b: true, n: null, deep: { k: [1, 'two'] } } },
    { name: '', lastLocationAt: '2026-01-02 03:04:05.1+00', balance: '0.00', custom: {} },
    { lastLocationAt: '2026-06-07 08:09:10.000123+02', balance: '0.01', custom: '{"big": 12345678901234567890, "small": 1e-7, "s": "é\\""}' },
    { name: null, lastLocationAt: null, balance: '7.10' },
  ];
  const postgresOnly = [
    { lastLocationAt: '12000-01-01 00:00:00.5+00', dailyLimitBytes: '9007199254740993' },
    { lastLocationAt: '0044-03-15 12:00:00.25+00 BC', usageTodayBytes: '-9007199254740993' },
  ];
  return engine === 'postgres' ? [...common, ...postgresOnly] : common;
}

/**
 * The subscriber list answers the same bytes whether its page runs statements kept per shape of request (the app as
 * it runs) or built by Kysely for each request (a second app over the same database whose list reads go through a
 * handle the kept statements do not serve), for each tenancy, order, search and page; each shape runs with several
 * values, so a kept statement that kept a value of its first request would answer another page.
 */
describe.each(engines)('kept list statements on %s', (engine) => {
  let ctx: Ctx;
  let built: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    ctx = await testApp(engine);
    built = await buildApp({ database: { ...ctx.database, read: ctx.db.withPlugin(unchanged) }, jwtSecret: 'test-secret' });
    const ids = (await ctx.db.selectFrom('subscriber').select('subscriberId').orderBy('subscriberId').execute()).filter((_, i) => i % 9 === 2);
    const odd = oddSubscribers(engine);
    for (const [i, { subscriberId }] of ids.entries()) {
      const { lastLocationAt, custom, ...values } = odd[i % odd.length];
      await ctx.db
        .updateTable('subscriber')
        .set({
          ...values,
          ...(lastLocationAt !== undefined ? { lastLocationAt: sql`${lastLocationAt}::timestamptz` } : {}),
          ...(custom ? { custom: typeof custom === 'string' ? custom : JSON.stringify(custom) } : {}),
        } as never)
        .where('subscriberId', '=', subscriberId)
        .execute();
    }
    // Decimals of any length (an unconstrained numeric column) and JSON lists, for the other lists.
    const reseller = await ctx.db.selectFrom('reseller').select('id').orderBy('id').executeTakeFirstOrThrow();
    await ctx.db
      .insertInto('customField')
      .values([
        { resellerId: reseller.id, entity: 'account', key: 'long', label: 'Long', type: 'number', minimum: '1234567890.1234567', maximum: '0.0000001' },
        { resellerId: reseller.id, entity: 'account', key: 'plain', label: 'Plain "x"', type: 'number', minimum: '-5.50', maximum: '1e20' },
        { resellerId: reseller.id, entity: 'account', key: 'pick', label: 'Pick', type: 'choice', choices: JSON.stringify(['a', 'b"c']) },
        { resellerId: reseller.id, entity: 'account', key: 'digits', label: 'Digits', type: 'text', pattern: '^\\d+$' },
      ] as never)
      .execute();
  });
  afterAll(async () => {
    await built?.close();
    await ctx?.close();
  });

  const bodies = async () => {
    const rows = (
      await ctx.db.selectFrom('subscriber').select(['subscriberId', 'iccid', 'imsi', 'name', 'accountId']).orderBy('subscriberId').execute()
    ).filter((_, i) => i % 37 === 5);
    const sample = rows.slice(0, 2);
    const searches = sample.flatMap((r) => [
      { searchBy: 'iccid', searchKey: r.iccid },
      { searchBy: 'iccid', searchKey: r.iccid.slice(-6) },
      { searchBy: 'imsi', searchKey: r.imsi.slice(0, 12) },
      { searchBy: 'multi', searchKey: r.name ?? 'a' },
      { searchBy: 'multi', searchKey: String(r.subscriberId) },
      { searchBy: 'name', searchKey: (r.name ?? 'a').slice(0, 3) },
      { searchBy: 'subscriberId', searchKey: String(r.subscriberId) },
      { searchBy: 'accountId', searchKey: String(r.accountId) },
      { searchBy: 'accountName', searchKey: 'a' },
      { searchBy: 'msisdn', searchKey: '4' },
    ]);
    return [
      {},
      { page: { page: 0, size: 100 } },
      { page: { page: 2, size: 7 } },
      { page: { page: 900, size: 50 } },
      { sortBy: 'name', sortDir: 'desc', page: { page: 1, size: 20 } },
      { sortBy: 'lastLocationAt', sortDir: 'asc', page: { page: 0, size: 30 } },
      { sortBy: 'balance', sortDir: 'desc', searchBy: 'accountName', searchKey: 'o', page: { page: 0, size: 25 } },
      { sortBy: 'accountName', sortDir: 'asc', searchBy: 'name', searchKey: 'e', page: { page: 1, size: 10 } },
      { searchBy: 'subscriberId', searchKey: 'not a number' },
      { searchBy: 'iccid', searchKey: '0000000000000' },
      ...searches,
      ...searches.slice(0, 10).map((s) => ({ ...s, sortBy: 'iccid', sortDir: 'desc', page: { page: 0, size: 5 } })),
    ];
  };

  it.each(['admin', 'northwind', 'harbor'])('answers every page as the statements built per request do, as %s', { timeout: 120_000 }, async (user) => {
    const headers = { authorization: `Bearer ${await ctx.login(user)}` };
    let compared = 0;
    for (const body of await bodies()) {
      const kept = await ctx.app.inject({ method: 'POST', url: '/portal/subscribers/paged', headers, payload: body });
      const each = await built.inject({ method: 'POST', url: '/portal/subscribers/paged', headers, payload: body });
      expect(kept.statusCode, `${JSON.stringify(body)}: ${kept.body}`).toBe(200);
      expect(kept.body, JSON.stringify(body)).toBe(each.body);
      expect(kept.headers['content-type']).toBe(each.headers['content-type']);
      compared += kept.json().items.length;
    }
    expect(compared).toBeGreaterThan(50);
  });

  /** Pages after a row (`page.after`) in several orders, the rows taken from the offset pages of each. */
  const afterBodies = async (headers: Record<string, string>) => {
    const orders = [
      {},
      { sortDir: 'desc' },
      { sortBy: 'name', sortDir: 'desc' },
      { sortBy: 'name', sortDir: 'asc', searchBy: 'multi', searchKey: 'a' },
      { sortBy: 'lastLocationAt', sortDir: 'asc' },
      { sortBy: 'balance', sortDir: 'desc', searchBy: 'accountName', searchKey: 'o' },
      { sortBy: 'accountName', sortDir: 'asc' },
      { sortBy: 'iccid', sortDir: 'desc', searchBy: 'imsi', searchKey: '0' },
    ];
    const bodies: object[] = [];
    for (const order of orders) {
      const items = (
        await ctx.app.inject({ method: 'POST', url: '/portal/subscribers/paged', headers, payload: { ...order, page: { page: 0, size: 100 } } })
      ).json().items as { subscriberId: number }[];
      for (const i of [0, 6, 13, 40, items.length - 1].filter((i) => i >= 0 && i < items.length))
        bodies.push({ ...order, page: { page: 1, size: 7, after: items[i].subscriberId } });
    }
    return [...bodies, { page: { page: 1, size: 7, after: 99_999_999 } }, { sortBy: 'name', sortDir: 'desc', page: { page: 1, size: 7, after: 99_999_999 } }];
  };

  it.each(['admin', 'northwind', 'harbor'])(
    'answers every page after a row as the statements built per request do, as %s',
    { timeout: 120_000 },
    async (user) => {
      const headers = { authorization: `Bearer ${await ctx.login(user)}` };
      let compared = 0;
      let refused = 0;
      // The admin's rows, which the other callers do not all see: those pages are refused alike.
      for (const body of await afterBodies({ authorization: `Bearer ${await ctx.login('admin')}` })) {
        const kept = await ctx.app.inject({ method: 'POST', url: '/portal/subscribers/paged', headers, payload: body });
        const each = await built.inject({ method: 'POST', url: '/portal/subscribers/paged', headers, payload: body });
        expect(kept.statusCode, `${JSON.stringify(body)}: ${kept.body}`).toBe(each.statusCode);
        expect(kept.body, JSON.stringify(body)).toBe(each.body);
        expect(kept.headers['content-type']).toBe(each.headers['content-type']);
        if (kept.statusCode === 200) compared += kept.json().items.length;
        else refused++;
      }
      expect(compared).toBeGreaterThan(user === 'admin' ? 200 : 5);
      expect(refused).toBeGreaterThanOrEqual(2);
    },
  );

  it.each(['admin', 'northwind'])('pages after a row through the same rows as pages by number, as %s', { timeout: 120_000 }, async (user) => {
    const headers = { authorization: `Bearer ${await ctx.login(user)}` };
    const post = async (body: object) => (await ctx.app.inject({ method: 'POST', url: '/portal/subscribers/paged', headers, payload: body })).json();
    for (const order of [
      {},
      { sortDir: 'desc' },
      { sortBy: 'name', sortDir: 'desc' },
      { sortBy: 'balance', sortDir: 'asc' },
      { sortBy: 'accountName', sortDir: 'desc' },
    ]) {
      let after: number | undefined;
      for (let page = 0; page < 4; page++) {
        const byNumber = await post({ ...order, page: { page, size: 9 } });
        const byRow = page === 0 ? byNumber : await post({ ...order, page: { page, size: 9, after } });
        expect(byRow, `${JSON.stringify(order)} page ${page}`).toEqual(byNumber);
        expect(byNumber.items.length).toBe(9);
        after = byNumber.items.at(-1).subscriberId;
      }
    }
  });

  it('sends the JSON PostgreSQL writes as it is where it is exact, and parses it where not', async () => {
    const runner = arrayQueriesOf(ctx.db)!;
    const run = runner.run;
    const exact: boolean[] = [];
    runner.run = async (text, parameters, name) => {
      const rows = await run.call(runner, text, parameters, name);
      if (text.startsWith(`select '['`)) exact.push(rows[0][2] as boolean);
      return rows;
    };
    try {
      const headers = { authorization: `Bearer ${await ctx.login('admin')}` };
      for (const page of [0, 1, 2, 3, 4])
        await ctx.app.inject({ method: 'POST', url: '/portal/subscribers/paged', headers, payload: { page: { page, size: 10 } } });
    } finally {
      runner.run = run;
    }
    expect(exact).toContain(true);
    expect(exact).toContain(false);
  });

  const lists = loadSchemas().flatMap((s) => [s['x-api'].paged ?? []].flat().map((route) => route.split(' ')[1]));
  it.each(['admin', 'northwind'])('answers every entity list as the statements built per request do, as %s', { timeout: 120_000 }, async (user) => {
    const headers = { authorization: `Bearer ${await ctx.login(user)}` };
    let compared = 0;
    for (const url of lists)
      for (const body of [{}, { sortDir: 'desc', page: { page: 1, size: 3 } }]) {
        const kept = await ctx.app.inject({ method: 'POST', url, headers, payload: body });
        const each = await built.inject({ method: 'POST', url, headers, payload: body });
        expect(kept.body, `${url} ${JSON.stringify(body)}`).toBe(each.body);
        expect(kept.headers['content-type']).toBe(each.headers['content-type']);
        if (kept.statusCode === 200) compared += kept.json().items.length;
      }
    expect(compared).toBeGreaterThan(50);
  });
});
