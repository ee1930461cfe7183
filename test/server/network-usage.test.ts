import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;
type Row = Record<string, any>;

const USERS = ['admin', 'northwind', 'northwind-iot', 'bluesky', 'harbor'] as const;
/** A fixed custom range in the past, cleared of the demo's records (they span the last year) before the test's own. */
const DAY = 86_400_000;
const START = Math.floor(Date.now() / DAY) * DAY - 100 * DAY;
const at = (ms: number) => new Date(START + ms).toISOString();
const FROM = at(0);
const TO = at(7 * DAY);

describe.each(engines)('network usage on %s', (engine) => {
  let ctx: Ctx;
  const clients: Record<string, Client> = {};
  const who: Record<string, { resellerPath: string; accountId: number | null; isAdmin: boolean }> = {};

  /** The caller's scope written anew from the user row: the figures the routes must match. */
  function scope(user: string) {
    const u = who[user];
    if (u.isAdmin) return sql`true`;
    if (u.accountId !== null) return sql`s.account_id = ${u.accountId}`;
    return sql`exists (select 1 from reseller r where r.id = s.reseller_id and r.path like ${`${u.resellerPath}%`})`;
  }

  async function directByPlmn(user: string, from: string, to: string) {
    const { rows } = await sql<{ plmn: string; bytes: string; sims: string }>`
      select u.plmn, sum(u.bytes_up) + sum(u.bytes_down) as bytes, count(distinct u.subscriber_id) as sims
      from usage_record u join subscriber s on s.subscriber_id = u.subscriber_id
      where u.at >= ${new Date(from)} and u.at < ${new Date(to)} and u.plmn is not null and ${scope(user)}
      group by u.plmn`.execute(ctx.db);
    return Object.fromEntries(rows.map((r) => [r.plmn, { trafficBytes: Number(r.bytes), activeSims: Number(r.sims) }]));
  }

  async function pagedByPlmn(client: Client, body: Row) {
    const out: Record<string, { trafficBytes: number; activeSims: number }> = {};
    for (let page = 0; ; page++) {
      const res = await client.post('/portal/networks/usage/paged', { ...body, usedOnly: true, size: 50, page });
      expect(res.statusCode, res.body).toBe(200);
      const json = res.json();
      for (const r of json.items) out[r.plmn] = { trafficBytes: r.trafficBytes, activeSims: r.activeSims };
      if (page + 1 >= json.totalPageCount) return out;
    }
  }

  /** Records of one subscriber of a reseller (by name) in the fixed range, on a network. */
  async function addRecords(resellerName: string, plmn: string, ats: string[], bytes: number) {
    const s = await ctx.db
      .selectFrom('subscriber as s')
      .innerJoin('reseller as r', 'r.id', 's.resellerId')
      .select(['s.subscriberId', 's.imsi'])
      .where('r.name', '=', resellerName)
      .orderBy('s.subscriberId')
      .executeTakeFirstOrThrow();
    await ctx.db
      .insertInto('usageRecord')
      .values(
        ats.map((at) => ({ subscriberId: s.subscriberId, imsi: s.imsi, at: new Date(at), requestType: 'UPDATE', plmn, bytesUp: bytes, bytesDown: 2 * bytes })),
      )
      .execute();
    return s.subscriberId;
  }

  beforeAll(async () => {
    ctx = await testApp(engine);
    for (const u of USERS) clients[u] = await ctx.as(u);
    const rows = await ctx.db
      .selectFrom('appUser as u')
      .innerJoin('reseller as r', 'r.id', 'u.resellerId')
      .select(['u.username', 'u.accountId', 'r.path', 'r.id'])
      .where('u.username', 'in', [...USERS])
      .execute();
    for (const r of rows) who[r.username] = { resellerPath: r.path, accountId: r.accountId, isAdmin: r.id === -1 };
    await sql`delete from usage_record where at >= ${new Date(FROM)} and at <= ${new Date(TO)}`.execute(ctx.db);
    // In the fixed range: Northwind IoT (below Northwind Mobile) and Blue Sky on the same network, and one record at
    // each edge of the range (the start counts, the end does not).
    await addRecords('Northwind IoT', '26201', [at(DAY + 10 * 3_600_000), FROM], 1000);
    await addRecords('Blue Sky Telecom', '26201', [at(2 * DAY), TO], 5000);
    await addRecords('Blue Sky Telecom', '23415', [at(7 * DAY - 1000)], 700);
  });
  afterAll(async () => ctx?.close());

  it('the demo usage is on networks, and every caller sees exactly the sums of its own subscribers', async () => {
    const { n } = await ctx.db
      .selectFrom('usageRecord')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('plmn', 'is not', null)
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBeGreaterThan(100);
    const now = Date.now();
    for (const user of USERS) {
      const body = { range: '30d' };
      const got = await pagedByPlmn(clients[user], body);
      // The route's "now" is a moment after ours; no record lies in the future, so [now - 30 days, now) is the same set.
      const want = await directByPlmn(user, new Date(now - 30 * 86_400_000 + 60_000).toISOString(), new Date(now + 60_000).toISOString());
      expect(got, user).toEqual(want);
      expect(Object.keys(got).length, user).toBeGreaterThan(0);
    }
  });

  it('a custom range counts its start and not its end, for the caller subtree only', async () => {
    const range = { range: 'custom', from: FROM, to: TO };
    const admin = await pagedByPlmn(clients.admin, range);
    expect(admin).toEqual({ '26201': { trafficBytes: 2 * 3000 + 15000, activeSims: 2 }, '23415': { trafficBytes: 2100, activeSims: 1 } });
    // Northwind Mobile sees its sub-reseller's records; the sub-reseller only its own; Blue Sky only its own.
    expect(await pagedByPlmn(clients.northwind, range)).toEqual({ '26201': { trafficBytes: 6000, activeSims: 1 } });
    expect(await pagedByPlmn(clients['northwind-iot'], range)).toEqual({ '26201': { trafficBytes: 6000, activeSims: 1 } });
    expect(await pagedByPlmn(clients.bluesky, range)).toEqual({
      '26201': { trafficBytes: 15000, activeSims: 1 },
      '23415': { trafficBytes: 2100, activeSims: 1 },
    });
    // An account user of Northwind Mobile: its account's subscribers only (none of Northwind IoT's).
    expect(await pagedByPlmn(clients.harbor, range)).toEqual({});
    for (const user of USERS) expect(await pagedByPlmn(clients[user], range), user).toEqual(await directByPlmn(user, FROM, TO));
  });

  it('per-country totals equal the sums over the records, a subscriber counted once per country', async () => {
    for (const user of USERS) {
      const res = await clients[user].post('/portal/networks/usage/countries', {
        range: 'custom',
        from: FROM,
        to: new Date(Date.now() + 60_000).toISOString(),
      });
      expect(res.statusCode, res.body).toBe(200);
      const { rows } = await sql<{ country: string; bytes: string; sims: string }>`
        select n.country, sum(u.bytes_up + u.bytes_down) as bytes, count(distinct u.subscriber_id) as sims
        from usage_record u join subscriber s on s.subscriber_id = u.subscriber_id join network n on n.plmn = u.plmn
        where u.at >= ${new Date(FROM)} and ${scope(user)} group by n.country`.execute(ctx.db);
      const want = Object.fromEntries(rows.map((r) => [r.country, [Number(r.bytes), Number(r.sims)]]));
      const got = Object.fromEntries(res.json().items.map((r: Row) => [r.country, [r.trafficBytes, r.activeSims]]));
      expect(got, user).toEqual(want);
    }
    const bluesky = (await clients.bluesky.post('/portal/networks/usage/countries', { range: 'custom', from: FROM, to: TO })).json();
    expect(bluesky.items).toEqual([
      { country: 'DE', trafficBytes: 15000, activeSims: 1, networks: 1 },
      { country: 'GB', trafficBytes: 2100, activeSims: 1, networks: 1 },
    ]);
  });

  it('sorts by any column, searches and filters by country, with the catalogue fields and technologies', async () => {
    const page = (body: Row) => clients.admin.post('/portal/networks/usage/paged', { range: '30d', size: 30, ...body }).then((r) => r.json());
    const desc = (await page({ sortBy: 'activeSims', sortDirection: 'desc' })).items.map((r: Row) => r.activeSims);
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    expect(desc[0]).toBeGreaterThan(0);
    const traffic = (await page({ sortBy: 'trafficBytes', sortDirection: 'asc', usedOnly: true })).items.map((r: Row) => r.trafficBytes);
    expect(traffic).toEqual([...traffic].sort((a, b) => a - b));
    const countries = (await page({ sortBy: 'country', sortDirection: 'asc' })).items.map((r: Row) => r.country);
    expect(countries).toEqual([...countries].sort());
    const de = await page({ country: 'DE', size: 200 });
    expect(de.items.length).toBeGreaterThan(3);
    expect(de.items.every((r: Row) => r.country === 'DE')).toBe(true);
    const telekom = de.items.find((r: Row) => r.plmn === '26201');
    expect(telekom).toMatchObject({ mcc: '262', mnc: '01', country: 'DE' });
    expect(telekom.technologies).toEqual(expect.arrayContaining(['GSM', 'LTE']));
    const search = await page({ searchKey: 'vodafone', size: 200 });
    expect(search.totalItemsCount).toBeGreaterThan(10);
    expect(search.items.every((r: Row) => `${r.operator} ${r.brand}`.toLowerCase().includes('vodafone'))).toBe(true);
    expect((await page({ searchKey: '262-01' })).items.map((r: Row) => r.plmn)).toEqual(['26201']);
  });

  it("lists the caller's roaming profiles whose allowed lists hold a network, and no one else's", async () => {
    // Each demo profile uses its reseller's allowed lists.
    await sql`insert into roaming_profile_allowed_list (roaming_profile_id, allowed_list_id)
      select p.id, l.allowed_list_id from roaming_profile p join allowed_list l on l.reseller_id = p.reseller_id on conflict do nothing`.execute(ctx.db);
    const { rows } = await sql<{ id: number; path: string }>`select p.id, r.path from roaming_profile p join reseller r on r.id = p.reseller_id
      join roaming_profile_allowed_list pl on pl.roaming_profile_id = p.id
      join allowed_list_network aln on aln.allowed_list_id = pl.allowed_list_id
      join network n on n.id = aln.network_id
      where n.plmn = '20404' and aln.applied <> 'removed'`.execute(ctx.db);
    expect(rows.length).toBeGreaterThan(0);
    for (const user of USERS) {
      const res = await clients[user].get('/portal/networks/20404/profiles');
      expect(res.statusCode, res.body).toBe(200);
      const got = [...new Set(res.json().items.map((r: Row) => r.roamingProfileId))].sort();
      const u = who[user];
      const own = (path: string) => u.isAdmin || (u.accountId !== null ? path === u.resellerPath : path.startsWith(u.resellerPath));
      const want = [...new Set(rows.filter((r) => own(r.path)).map((r) => r.id))].sort();
      expect(got, user).toEqual(want);
    }
    const admin = (await clients.admin.get('/portal/networks/20404/profiles')).json();
    expect(admin.items[0]).toMatchObject({
      state: expect.any(String),
      allowed: expect.any(Boolean),
      allowedListName: expect.any(String),
      reviewState: expect.any(String),
    });
    // A network blocked in a list shows as such.
    const first = admin.items[0];
    await ctx.db
      .updateTable('allowedListNetwork')
      .set({ applied: 'blocked', target: null })
      .where('allowedListId', '=', first.allowedListId)
      .where('networkId', '=', (eb) => eb.selectFrom('network').select('id').where('plmn', '=', '20404'))
      .execute();
    const after = (await clients.admin.get('/portal/networks/20404/profiles')).json().items.find((r: Row) => r.allowedListId === first.allowedListId);
    expect(after).toMatchObject({ state: 'blocked', allowed: false });
  });

  it('answers 400 naming the field for bad input, 404 for an unknown network', async () => {
    const c = clients.northwind;
    const field = async (res: { statusCode: number; json(): Row; body: string }) => {
      expect(res.statusCode, res.body).toBe(400);
      return res.json().fields[0].field;
    };
    expect(await field(await c.post('/portal/networks/usage/paged', { range: 'week' }))).toBe('range');
    expect(await field(await c.post('/portal/networks/usage/paged', { range: 'custom', to: TO }))).toBe('from');
    expect(await field(await c.post('/portal/networks/usage/paged', { range: 'custom', from: FROM }))).toBe('to');
    expect(await field(await c.post('/portal/networks/usage/paged', { range: 'custom', from: TO, to: FROM }))).toBe('to');
    expect(await field(await c.post('/portal/networks/usage/paged', { range: 'custom', from: at(-400 * DAY), to: TO }))).toBe('to');
    expect(await field(await c.post('/portal/networks/usage/paged', { range: 'custom', from: 'yesterday', to: TO }))).toBe('from');
    expect(await field(await c.post('/portal/networks/usage/paged', { sortBy: 'secret' }))).toBe('sortBy');
    expect(await field(await c.post('/portal/networks/usage/paged', { size: 5000 }))).toBe('size');
    expect(await field(await c.post('/portal/networks/usage/paged', { country: 'deu' }))).toBe('country');
    expect(await field(await c.post('/portal/networks/usage/countries', { range: 'custom' }))).toBe('from');
    expect(await field(await c.get('/portal/networks/abc/profiles'))).toBe('plmn');
    expect((await c.get('/portal/networks/99998/profiles')).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'POST', url: '/portal/networks/usage/paged', payload: {} })).statusCode).toBe(401);
  });
});
