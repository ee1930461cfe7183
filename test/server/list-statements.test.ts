import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import { buildApp } from '@server/app';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;

/** A plugin that changes nothing: a database handle of its own, which the kept statements of lists do not serve. */
const unchanged: KyselyPlugin = { transformQuery: ({ node }) => node, transformResult: async ({ result }) => result };

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
      compared += kept.json().items.length;
    }
    expect(compared).toBeGreaterThan(50);
  });
});
