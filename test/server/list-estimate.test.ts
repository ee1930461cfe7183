import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EntityRepository } from '@server/engine/repository';
import { DEMO_TEST_SUBSCRIBERS, engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type ListPage = { items: { subscriberId: number }[]; totalItemsCount: number; totalPageCount: number; totalIsEstimate?: boolean };

/** Lists counted exactly only up to this many rows here, so the demo subscribers make a list the server estimates. */
const COUNT_LIMIT = 100;

describe.each(engines)('an estimated list total on %s', (engine) => {
  let ctx: Ctx;
  let admin: ReturnType<Ctx['client']>;

  beforeAll(async () => {
    vi.spyOn(EntityRepository.prototype as unknown as { countLimit: () => number }, 'countLimit').mockReturnValue(COUNT_LIMIT);
    ctx = await testApp(engine);
    admin = await ctx.as('admin');
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await ctx?.close();
  });

  const page = async (body: object) => {
    const res = await admin.post('/portal/subscribers/paged', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ListPage;
  };

  it('says so in the answer, so a screen can show the total as approximate', async () => {
    const first = await page({ page: { page: 0, size: 50 } });
    expect(first.totalIsEstimate).toBe(true);
    expect(first.totalItemsCount).toBeGreaterThan(COUNT_LIMIT);
    const few = (await (
      await admin.post('/portal/subscribers/search', { searchBy: 'subscriberId', searchKey: '7', page: { page: 0, size: 50 } })
    ).json()) as ListPage;
    expect(few.totalItemsCount).toBe(1);
    expect(few).not.toHaveProperty('totalIsEstimate');
  });

  it('answers pages past the estimate, by number and from the last row seen, until the rows run out', async () => {
    // Walk the whole list from each page's last row, as the grid's Next does: every row once, the last page short.
    const seen: number[] = [];
    let after: number | undefined;
    for (let p = 0; p < 100; p++) {
      const { items } = await page({ page: { page: p, size: 50, ...(after === undefined ? {} : { after }) } });
      seen.push(...items.map((s) => s.subscriberId));
      if (items.length < 50) break;
      after = items[items.length - 1].subscriberId;
    }
    expect(seen).toEqual(Array.from({ length: DEMO_TEST_SUBSCRIBERS }, (_, i) => i + 1));
    const lastByNumber = await page({ page: { page: Math.floor(DEMO_TEST_SUBSCRIBERS / 50), size: 50 } });
    expect(lastByNumber.items.map((s) => s.subscriberId)).toEqual(seen.slice(Math.floor(DEMO_TEST_SUBSCRIBERS / 50) * 50));
  });

  // The first page and a page after a row read the rows with their joins at once; a page further on takes its keys
  // first: both ways must give the same rows in the same order, whatever the order, search and tenancy.
  it.each(['admin', 'northwind'])('answers a first page as the pages further on and after a row do, as %s', async (user) => {
    const client = user === 'admin' ? admin : await ctx.as(user);
    const post = async (body: object) => {
      const res = await client.post('/portal/subscribers/paged', body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as ListPage;
    };
    for (const order of [
      {},
      { sortDir: 'desc' },
      { sortBy: 'name', sortDir: 'desc' },
      { sortBy: 'accountName', sortDir: 'desc' },
      { sortDir: 'desc', searchBy: 'name', searchKey: 'r' },
      { sortBy: 'lastLocationAt', sortDir: 'asc', searchBy: 'name', searchKey: 'r' },
    ]) {
      const first = await post({ ...order, page: { page: 0, size: 36 } });
      expect(first.totalIsEstimate, JSON.stringify(order)).toBe(true);
      expect(first.items).toHaveLength(36);
      let after: number | undefined;
      for (let page = 0; page < 4; page++) {
        const byNumber = await post({ ...order, page: { page, size: 9 } });
        expect(byNumber.items, `${JSON.stringify(order)} page ${page}`).toEqual(first.items.slice(page * 9, page * 9 + 9));
        if (after !== undefined) expect(await post({ ...order, page: { page, size: 9, after } }), `${JSON.stringify(order)} after`).toEqual(byNumber);
        after = byNumber.items[8].subscriberId;
      }
    }
  });
});
