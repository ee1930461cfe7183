import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidIccid, luhnDigit, luhnValid } from '@shared/iccid';
import { normaliseListRequest } from '@shared/schema';
import { EntityRepository } from '@server/engine/repository';
import { loadPrincipal } from '@server/http/principal';
import { loadSchemas } from '@server/engine/schemas';
import { DEMO_TEST_SUBSCRIBERS, engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;
type Sub = Record<string, any>;

describe.each(engines)('subscribers on %s', (engine) => {
  let ctx: Ctx;
  let admin: Client;

  beforeAll(async () => {
    ctx = await testApp(engine);
    admin = await ctx.as('admin');
  });
  afterAll(async () => ctx?.close());

  const search = async (c: Client, searchBy: string, searchKey: string, extra: object = {}) => {
    const res = await c.post('/portal/subscribers/search', { searchBy, searchKey, page: { page: 0, size: 500 }, ...extra });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { items: Sub[]; totalItemsCount: number };
  };
  const ids = (page: { items: Sub[] }) => page.items.map((s) => s.subscriberId);
  const one = async (id: number) => (await admin.get(`/portal/subscribers/${id}`)).json() as Sub;

  describe('the seeded numbering', () => {
    it('gives every subscriber a 15-digit IMSI, an ICCID with its check digit, a default MSISDN among its own, an IMEI with its check digit', async () => {
      const rows = (await ctx.db
        .selectFrom('subscriber' as never)
        .selectAll()
        .execute()) as Sub[];
      expect(rows).toHaveLength(DEMO_TEST_SUBSCRIBERS);
      const msisdns = (await ctx.db
        .selectFrom('subscriberMsisdn' as never)
        .selectAll()
        .execute()) as Sub[];
      for (const s of rows) {
        expect(s.imsi).toMatch(/^90128\d{10}$/);
        expect(isValidIccid(s.iccid), s.iccid).toBe(true);
        expect(luhnValid(s.imei), s.imei).toBe(true);
        expect(msisdns.filter((m) => m.subscriberId === s.subscriberId).map((m) => m.msisdn)).toContain(s.msisdn);
      }
      expect(new Set(rows.map((s) => s.accountId)).size).toBe(24);
      expect(rows.some((s) => s.status === 'suspended')).toBe(true);
    });

    it("lends sponsor IMSIs from the sponsors' ranges, and keeps plans, profiles and sponsors referenced", async () => {
      const { rows } = await sql<{
        imsi: string;
        prefix: string;
      }>`select i.imsi, s.imsi_prefix as prefix from sponsor_imsi i join sponsor s on s.id = i.sponsor_id`.execute(ctx.db);
      const total = await sql<{ n: number }>`select count(*)::int as n from sponsor_imsi`.execute(ctx.db);
      expect(rows.length).toBe(total.rows[0].n);
      for (const r of rows) expect(r.imsi.startsWith(r.prefix), r.imsi).toBe(true);
      await expect(sql`update subscriber set pricing_plan_id = 999999 where subscriber_id = 1`.execute(ctx.db)).rejects.toThrow(/foreign key/);
      await expect(sql`update subscriber set roaming_profile_id = 999999 where subscriber_id = 1`.execute(ctx.db)).rejects.toThrow(/foreign key/);
    });

    it('refuses an ICCID whose check digit is wrong, or of the wrong length, in the table itself', async () => {
      const insert = (iccid: string) =>
        sql`insert into sim_card (iccid, sim_type, status, reseller_id) values (${iccid}, 'physical', 'inventory', -1)`.execute(ctx.db);
      await expect(insert('89882280000099999990')).rejects.toThrow(/check constraint/);
      await expect(insert('8988228000009999')).rejects.toThrow(/check constraint/);
      await expect(insert(`8988228000009999999${luhnDigit('8988228000009999999')}`)).resolves.toBeDefined();
    });
  });

  describe('list', () => {
    it('sorts by subscriberId ascending by default and pages zero-based', async () => {
      const first = (await admin.post('/portal/subscribers/paged', { page: { page: 0, size: 50 } })).json();
      expect(first.totalItemsCount).toBe(DEMO_TEST_SUBSCRIBERS);
      expect(first.totalPageCount).toBe(Math.ceil(DEMO_TEST_SUBSCRIBERS / 50));
      expect(ids(first)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      expect(first.items[0]).toMatchObject({
        accountName: 'Harbor Logistics',
        resellerName: 'Northwind Mobile',
        status: expect.stringMatching(/active|suspended/),
      });
      const second = (await admin.post('/portal/subscribers/paged', { page: { page: 1, size: 50 } })).json();
      expect(ids(second)[0]).toBe(51);
    });

    it('sorts by other columns in both directions', async () => {
      const desc = (await admin.post('/portal/subscribers/paged', { sortBy: 'usageTodayBytes', sortDir: 'desc', page: { page: 0, size: 5 } })).json();
      const usage = desc.items.map((s: Sub) => s.usageTodayBytes);
      expect(usage).toEqual([...usage].sort((a, b) => b - a));
      const byAccount = (await admin.post('/portal/subscribers/paged', { sortBy: 'accountName', sortDir: 'asc', page: { page: 0, size: 1 } })).json();
      expect(byAccount.items[0].accountName).toBe('Alpine Sensors');
      const bad = await admin.post('/portal/subscribers/paged', { sortBy: 'password_hash' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().fields[0]).toMatchObject({ field: 'sortBy', rule: 'enum' });
    });

    it("counts exactly up to the limit, beyond it gives the planner's estimate and says so, and pages the same rows", async () => {
      const schema = loadSchemas().find((x) => x['x-entity'].name === 'subscriber')!;
      const repo = new EntityRepository(ctx.db as never, schema, { exactCountLimit: 100 });
      const principal = { userId: 1, username: 'admin', resellerId: -1, resellerPath: '', accountId: null, isAdmin: true, privileges: [] };
      await sql`analyze subscriber`.execute(ctx.db);
      const request = (page: number, extra: object = {}) => normaliseListRequest(schema, { page: { page, size: 50 }, ...extra }, true);
      const all = await repo.page(request(0), { principal });
      expect(all.totalIsEstimate).toBe(true);
      expect(all.totalItemsCount).toBeGreaterThan(100);
      expect(Math.abs(all.totalItemsCount - DEMO_TEST_SUBSCRIBERS)).toBeLessThan(DEMO_TEST_SUBSCRIBERS * 0.2);
      const few = await repo.page(request(0, { searchBy: 'subscriberId', searchKey: '7' }), { principal });
      expect(few).toMatchObject({ totalItemsCount: 1, totalPageCount: 1 });
      expect(few.totalIsEstimate).toBeUndefined();
      // A later page, in both directions: the keys of the page first, then their rows, in the same order.
      const third = await repo.page(request(2), { principal });
      expect(third.items.map((s) => s.subscriberId)).toEqual(Array.from({ length: 50 }, (_, i) => i + 101));
      const backwards = await repo.page(request(1, { sortBy: 'subscriberId', sortDir: 'desc' }), { principal });
      expect(backwards.items.map((s) => s.subscriberId)).toEqual(Array.from({ length: 50 }, (_, i) => DEMO_TEST_SUBSCRIBERS - 50 - i));
      expect(backwards.items[0]).toHaveProperty('accountName');
    });

    it('pages a counted few in the same order as the index would, answers past the end, and keeps an estimate a while but never an exact count', async () => {
      const schema = loadSchemas().find((x) => x['x-entity'].name === 'subscriber')!;
      const repo = new EntityRepository(ctx.db as never, schema, { exactCountLimit: 100 });
      const counted = new EntityRepository(ctx.db as never, schema); // every demo subscriber counted exactly
      const principal = { userId: 1, username: 'admin', resellerId: -1, resellerPath: '', accountId: null, isAdmin: true, privileges: [] };
      const request = (page: number, size: number, extra: object = {}) => normaliseListRequest(schema, { page: { page, size }, ...extra }, true);
      const keys = (p: { items: Record<string, unknown>[] }) => p.items.map((s) => s.subscriberId);
      // The counted list finds all its matches and sorts them; the estimated one walks the order's index: same pages.
      for (const order of [{}, { sortBy: 'name', sortDir: 'desc' }, { sortBy: 'groupName', sortDir: 'asc' }, { sortBy: 'accountName', sortDir: 'desc' }]) {
        for (const page of [0, 3]) {
          const few = await counted.page(request(page, 40, order), { principal });
          const many = await repo.page(request(page, 40, order), { principal });
          expect(few.totalIsEstimate).toBeUndefined();
          expect(many.totalIsEstimate).toBe(true);
          expect(keys(few), JSON.stringify(order)).toEqual(keys(many));
          expect(few.items[0]).toHaveProperty('accountName');
        }
      }
      const size = 7;
      const lastPage = Math.floor((DEMO_TEST_SUBSCRIBERS - 1) / size);
      const last = await counted.page(request(lastPage, size), { principal });
      expect(last.items.length).toBe(DEMO_TEST_SUBSCRIBERS - lastPage * size);
      expect(last).toMatchObject({ totalItemsCount: DEMO_TEST_SUBSCRIBERS, totalPageCount: lastPage + 1 });
      const past = await repo.page(request(lastPage + 5, size, { searchBy: 'subscriberId', searchKey: '9' }), { principal });
      expect(past).toMatchObject({ items: [], totalItemsCount: 1 });

      // An estimate stands for a while: the same list again runs no count. An exact count runs every time and
      // follows a change at once.
      let queries = 0;
      const counting = ctx.db.withPlugin({
        transformQuery: (args) => args.node,
        transformResult: async (args) => {
          queries++;
          return args.result;
        }, // once per statement run
      });
      const watched = new EntityRepository(counting, schema, { exactCountLimit: 100 });
      const runs = async (req: ReturnType<typeof request>) => {
        queries = 0;
        const page = await watched.page(req, { principal });
        return { page, queries };
      };
      const first = await runs(request(0, 10));
      expect(first.page.totalIsEstimate).toBe(true);
      const again = await runs(request(0, 10));
      expect(again.page.totalItemsCount).toBe(first.page.totalItemsCount);
      expect(first.queries).toBe(3); // the matches counted up to the limit, the planner's estimate, the page's rows
      expect(again.queries).toBe(1); // the page alone: neither a count nor the planner's estimate
      // An estimate is kept per tenancy: an account user's few subscribers are counted, not given the admin's figure.
      const harborId = (await ctx.db.selectFrom('appUser').select('id').where('username', '=', 'harbor').executeTakeFirstOrThrow()).id;
      const harbor = (await loadPrincipal(ctx.db, harborId))!;
      const own = await watched.page(normaliseListRequest(schema, { page: { page: 0, size: 10 } }, false), { principal: harbor });
      expect(own.totalIsEstimate).toBeUndefined();
      expect(own.totalItemsCount).toBeLessThan(first.page.totalItemsCount);
      expect(own.items.every((s) => s.accountId === harbor.accountId)).toBe(true);
      const name = `Counted ${Date.now()}`;
      const byName = () => runs(request(0, 1, { searchBy: 'name', searchKey: name }));
      const rename = (ids: number[], to: string | ((id: number) => string)) =>
        Promise.all(
          ids.map((id) =>
            ctx.db
              .updateTable('subscriber' as never)
              .set({ name: typeof to === 'string' ? to : to(id) } as never)
              .where('subscriberId' as never, '=', id as never)
              .execute(),
          ),
        );
      const before = (await ctx.db
        .selectFrom('subscriber' as never)
        .select(['subscriberId', 'name'] as never)
        .where('subscriberId' as never, 'in', [1, 2, 3] as never)
        .execute()) as { subscriberId: number; name: string }[];
      await rename([1, 2], name);
      const two = await byName();
      expect(two.page).toMatchObject({ totalItemsCount: 2, totalPageCount: 2 });
      await rename([3], name);
      const three = await byName();
      expect(three.page).toMatchObject({ totalItemsCount: 3, totalPageCount: 3 });
      expect(three.queries).toBe(two.queries);
      expect(three.queries).toBe(1); // one statement: the matches counted, the page's keys taken and their rows joined
      await rename([1, 2, 3], (id) => before.find((b) => b.subscriberId === id)!.name);
    });

    it('pages after a given row (keyset) exactly as by page number, in any order, and refuses a row not in the list', async () => {
      const paged = async (body: object) => {
        const res = await admin.post('/portal/subscribers/paged', body);
        expect(res.statusCode, res.body).toBe(200);
        return res.json() as { items: Sub[]; currentPage: number };
      };
      for (const order of [
        {},
        { sortBy: 'subscriberId', sortDir: 'desc' },
        { sortBy: 'name', sortDir: 'asc' },
        { sortBy: 'groupName', sortDir: 'desc' },
        { sortBy: 'accountName', sortDir: 'asc' },
      ]) {
        const first = await paged({ ...order, page: { page: 0, size: 40 } });
        const second = await paged({ ...order, page: { page: 1, size: 40 } });
        const third = await paged({ ...order, page: { page: 2, size: 40 } });
        const after = await paged({ ...order, page: { page: 1, size: 40, after: first.items[39].subscriberId } });
        expect(ids(after), JSON.stringify(order)).toEqual(ids(second));
        expect(after.currentPage).toBe(1);
        expect(ids(await paged({ ...order, page: { page: 2, size: 40, after: after.items[39].subscriberId } }))).toEqual(ids(third));
      }
      const northwind = await ctx.as('northwind');
      const foreign = (await admin.post('/portal/subscribers/search', { searchBy: 'resellerName', searchKey: 'Blue Sky', page: { page: 0, size: 1 } })).json()
        .items[0];
      for (const [client, after] of [
        [northwind, foreign.subscriberId],
        [admin, 999999],
        [admin, true],
      ] as const) {
        const res = await client.post('/portal/subscribers/paged', { page: { page: 1, size: 10, after } });
        expect(res.statusCode).toBe(400);
        expect(res.json().fields[0]).toMatchObject({ field: 'page.after', messageId: 'validation.page.after' });
      }
    });
  });

  describe('search filters', () => {
    let sample: Sub;
    beforeAll(async () => {
      sample = await one(4);
    });

    it('multi matches part of the IMSI, part of the name, the subscriber id or part of the ICCID', async () => {
      expect(ids(await search(admin, 'multi', sample.imsi.slice(-10)))).toEqual([4]);
      expect(ids(await search(admin, 'multi', sample.iccid.slice(-8)))).toEqual([4]);
      expect(ids(await search(admin, 'multi', '00004'))).toContain(4); // the name ends with its number
      expect(ids(await search(admin, 'multi', '117'))).toContain(117);
      const byName = await search(admin, 'multi', sample.name.split(' ')[0].toUpperCase());
      expect(byName.items.every((s) => s.name.startsWith(sample.name.split(' ')[0]))).toBe(true);
    });

    it('subscriber id and account id match exactly', async () => {
      expect(ids(await search(admin, 'subscriberId', '4'))).toEqual([4]);
      expect((await search(admin, 'subscriberId', 'x')).totalItemsCount).toBe(0);
      const byAccount = await search(admin, 'accountId', String(sample.accountId));
      expect(byAccount.totalItemsCount).toBe(DEMO_TEST_SUBSCRIBERS / 24);
      expect(byAccount.items.every((s) => s.accountId === sample.accountId)).toBe(true);
    });

    it('real IMSI and ICCID match by their beginning or their end; network matches part of the value', async () => {
      expect(ids(await search(admin, 'imsi', sample.imsi))).toEqual([4]);
      expect(ids(await search(admin, 'iccid', sample.iccid))).toEqual([4]);
      expect(ids(await search(admin, 'iccid', sample.iccid.slice(-6)))).toEqual([4]);
      const byPrefix = await search(admin, 'imsi', sample.imsi.slice(0, 12));
      expect(ids(byPrefix)).toContain(4);
      expect(byPrefix.items.every((s) => s.imsi.startsWith(sample.imsi.slice(0, 12)))).toBe(true);
      // The middle of an identifier is not a match: it would be a coincidence of digits.
      expect(ids(await search(admin, 'iccid', sample.iccid.slice(3, -3)))).toEqual([]);
      const network = await search(admin, 'network', sample.network.toLowerCase());
      expect(network.items.every((s) => s.network.toLowerCase().includes(sample.network.toLowerCase()))).toBe(true);
      expect(ids(network)).toContain(4);
    });

    it('sponsor IMSI finds the subscriber that owns it, not the real IMSI', async () => {
      const sponsors = (await ctx.db
        .selectFrom('sponsorImsi' as never)
        .selectAll()
        .orderBy('imsi' as never)
        .execute()) as Sub[];
      expect(sponsors.length).toBeGreaterThan(0);
      const owner = sponsors[0];
      expect(ids(await search(admin, 'sponsorImsi', owner.imsi))).toEqual([owner.subscriberId]);
      expect((await search(admin, 'sponsorImsi', sample.imsi)).totalItemsCount).toBe(0);
    });

    it('MSISDN matches the default and any other number of the subscriber', async () => {
      expect(ids(await search(admin, 'msisdn', sample.msisdn))).toEqual([4]);
      const { rows } = await sql<{
        msisdn: string;
        id: number;
      }>`select m.msisdn, s.subscriber_id as id from subscriber_msisdn m join subscriber s using (subscriber_id) where m.msisdn <> s.msisdn limit 1`.execute(
        ctx.db,
      );
      const extra = rows[0];
      expect(ids(await search(admin, 'msisdn', extra.msisdn))).toEqual([extra.id]);
      // Written the international way, or by its last digits.
      expect(ids(await search(admin, 'msisdn', `+${extra.msisdn}`))).toEqual([extra.id]);
      expect(ids(await search(admin, 'msisdn', extra.msisdn.slice(-7)))).toContain(extra.id);
    });

    it('account name, subscriber name and reseller name match part of the text, case-insensitively', async () => {
      const harbor = await search(admin, 'accountName', 'HARBOR');
      expect(harbor.totalItemsCount).toBe(DEMO_TEST_SUBSCRIBERS / 24);
      expect(new Set(harbor.items.map((s) => s.accountName))).toEqual(new Set(['Harbor Logistics']));
      expect(ids(await search(admin, 'name', sample.name.toLowerCase()))).toEqual([4]);
      const blue = await search(admin, 'resellerName', 'blue sky');
      expect(new Set(blue.items.map((s) => s.resellerName))).toEqual(new Set(['Blue Sky Telecom']));
    });

    it("downloads the same search as CSV, within the caller's tenancy", async () => {
      const harbor = await ctx.as('harbor');
      const res = await harbor.post('/portal/subscribers/list/download', { searchBy: 'network', searchKey: '' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      const lines = res.body.slice(1).trim().split(/\r?\n/);
      expect(lines[0].split(',')).toEqual(expect.arrayContaining(['subscriberId', 'imsi', 'iccid', 'msisdn', 'accountName']));
      expect(lines).toHaveLength(1 + DEMO_TEST_SUBSCRIBERS / 24);
      const sponsor = await admin.post('/portal/subscribers/list/download', { searchBy: 'sponsorImsi', searchKey: '20404' });
      const rows = sponsor.body.slice(1).trim().split(/\r?\n/).slice(1);
      expect(rows.length).toBe((await search(admin, 'sponsorImsi', '20404')).totalItemsCount);
    });

    it('refuses an unknown filter', async () => {
      const res = await admin.post('/portal/subscribers/search', { searchBy: 'passwordHash', searchKey: '1' });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields[0].field).toBe('searchBy');
    });
  });

  describe('tenancy', () => {
    const resellersSeen = async (c: Client) =>
      new Set((await c.post('/portal/subscribers/paged', { page: { page: 0, size: 500 } })).json().items.map((s: Sub) => s.resellerName));

    it('a reseller sees its subtree, a sub-reseller its own, an account user its account', async () => {
      expect(await resellersSeen(await ctx.as('northwind'))).toEqual(new Set(['Northwind Mobile', 'Northwind IoT']));
      expect(await resellersSeen(await ctx.as('northwind-iot'))).toEqual(new Set(['Northwind IoT']));
      expect(await resellersSeen(await ctx.as('bluesky'))).toEqual(new Set(['Blue Sky Telecom']));
      const harbor = (await (await ctx.as('harbor')).post('/portal/subscribers/paged', { page: { page: 0, size: 500 } })).json();
      expect(harbor.totalItemsCount).toBe(DEMO_TEST_SUBSCRIBERS / 24);
      expect(new Set(harbor.items.map((s: Sub) => s.accountName))).toEqual(new Set(['Harbor Logistics']));
    });

    it("another tenant's subscriber answers 404 for reads, searches and updates", async () => {
      const bluesky = await ctx.as('bluesky');
      const northwindSub = await one(1);
      expect(northwindSub.resellerName).toBe('Northwind Mobile');
      expect((await bluesky.get('/portal/subscribers/1')).statusCode).toBe(404);
      expect((await search(bluesky, 'iccid', northwindSub.iccid)).totalItemsCount).toBe(0);
      const stolen = await bluesky.post('/portal/subscriber-info/1', { name: 'Stolen' });
      expect(stolen.statusCode).toBe(404);
      expect((await one(1)).name).toBe(northwindSub.name);
      const harbor = await ctx.as('harbor');
      expect((await harbor.get('/portal/subscribers/2')).statusCode).toBe(404); // Alpine Sensors, same reseller tree
      expect((await harbor.get('/portal/subscribers/1')).statusCode).toBe(200);
    });
  });

  describe('update', () => {
    it('changes the editable details, ignores server-owned fields and logs who changed what', async () => {
      const northwind = await ctx.as('northwind');
      const before = await one(25);
      const res = await northwind.post('/portal/subscriber-info/25', {
        ...before,
        name: 'Crane 3',
        groupName: 'Yard',
        status: 'suspended',
        imsi: '901280000000000',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ name: 'Crane 3', groupName: 'Yard', status: before.status, imsi: before.imsi });
      const audit = (await ctx.db
        .selectFrom('subscriberAudit' as never)
        .selectAll()
        .where('subscriberId' as never, '=', 25 as never)
        .execute()) as Sub[];
      expect(audit).toHaveLength(1);
      const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
      expect(audit[0]).toMatchObject({ username: 'northwind', action: 'update' });
      expect(parse(audit[0].before)).toEqual({ name: before.name, groupName: before.groupName ?? null });
      expect(parse(audit[0].after)).toEqual({ name: 'Crane 3', groupName: 'Yard' });
    });

    it('refuses bad values naming the field and rule, and writes nothing', async () => {
      const before = await one(26);
      const res = await admin.post('/portal/subscriber-info/26', { name: 'x'.repeat(51), imei: '12ab', apn: '-bad' });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ field: 'name', rule: 'maxLength', messageId: 'validation.max50' }),
          expect.objectContaining({ field: 'imei', rule: 'pattern', messageId: 'validation.imei.invalid' }),
          expect.objectContaining({ field: 'apn', rule: 'pattern', messageId: 'validation.apn.invalid' }),
        ]),
      );
      expect(await one(26)).toEqual(before);
      const unknown = await admin.post('/portal/subscriber-info/26', { passwordHash: 'x' });
      expect(unknown.json().fields[0]).toMatchObject({ field: 'passwordHash', rule: 'additionalProperties' });
    });

    it('a user without the Subscribers privilege is refused', async () => {
      const res = await ctx.app.inject({ method: 'POST', url: '/portal/subscribers/paged', payload: {} });
      expect(res.statusCode).toBe(401);
    });
  });
  describe('detail panels', () => {
    it('reads sponsor IMSIs, MSISDNs with the default, the SIM and the audit log of a visible subscriber', async () => {
      const northwind = await ctx.as('northwind');
      const sponsored = (
        await sql<{
          id: number;
        }>`select subscriber_id as id from sponsor_imsi where subscriber_id in (select subscriber_id from subscriber where reseller_id = 1) limit 1`.execute(
          ctx.db,
        )
      ).rows[0].id;
      const sponsors = (await northwind.get(`/portal/subscriber-info/sponsor-imsis/${sponsored}`)).json();
      expect(sponsors.length).toBeGreaterThan(0);
      expect(sponsors[0]).toMatchObject({ imsi: expect.stringMatching(/^\d{15}$/), sponsorName: expect.any(String), pending: expect.any(Boolean) });
      const sub = await one(4);
      const msisdns = (await admin.get('/portal/subscriber-info/msisdns/4')).json();
      expect(msisdns).toContainEqual({ msisdn: sub.msisdn, isDefault: true });
      expect(msisdns.filter((m: Sub) => m.isDefault)).toHaveLength(1);
      const sim = (await admin.get('/portal/subscriber-info/sim-info/4')).json();
      expect(sim).toMatchObject({ iccid: sub.iccid, simType: expect.stringMatching(/physical|esim/), status: 'active' });
      await northwind.post('/portal/subscriber-info/1', { apn: 'fleet.example' });
      const audit = (await northwind.get('/portal/subscriber-info/audit-logs/1')).json();
      expect(audit[0]).toMatchObject({ username: 'northwind', action: 'update', after: { apn: 'fleet.example' } });
    });

    it("answers 403 without the panel's sub-privilege and 404 for another tenant's subscriber", async () => {
      const harbor = await ctx.as('harbor'); // Subscribers, but no SubscriberDetails panels
      expect((await harbor.get('/portal/subscribers/1')).statusCode).toBe(200);
      for (const path of ['sponsor-imsis', 'msisdns', 'sim-info', 'audit-logs']) {
        expect((await harbor.get(`/portal/subscriber-info/${path}/1`)).statusCode, path).toBe(403);
      }
      const bluesky = await ctx.as('bluesky');
      for (const path of ['sponsor-imsis', 'msisdns', 'sim-info', 'audit-logs']) {
        expect((await bluesky.get(`/portal/subscriber-info/${path}/1`)).statusCode, path).toBe(404);
      }
    });
  });
});
