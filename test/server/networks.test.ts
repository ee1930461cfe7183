import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;

const LANGUAGES = ['en', 'ru', 'de', 'he', 'zh-Hans', 'es'];

describe.each(engines)('network catalogue on %s', (engine) => {
  let ctx: Ctx;
  let admin: Client;
  let bluesky: Client;
  let northwind: Client;

  beforeAll(async () => {
    ctx = await testApp(engine);
    admin = await ctx.as('admin');
    bluesky = await ctx.as('bluesky');
    northwind = await ctx.as('northwind');
    ctx.app.coreNetwork.simulator!.setFailureRate(0);
  });
  afterAll(async () => ctx?.close());

  describe('reference data', () => {
    it('holds at least 1,500 real networks from the catalogue, paged and searchable', async () => {
      const all = (await bluesky.get('/portal/networks?size=1')).json();
      expect(all.totalItemsCount).toBeGreaterThanOrEqual(1500);
      expect(all.totalPageCount).toBe(all.totalItemsCount);
      const uk = (await bluesky.get('/portal/networks?country=GB&size=500')).json();
      expect(uk.items.every((n: { country: string }) => n.country === 'GB')).toBe(true);
      expect(uk.items).toContainEqual(expect.objectContaining({ plmn: '23415', mcc: '234', mnc: '15', brand: 'Vodafone UK' }));
      const search = (await bluesky.get('/portal/networks?searchKey=vodafone&size=500')).json();
      expect(search.totalItemsCount).toBeGreaterThan(10);
      expect(search.items.every((n: { operator?: string; brand?: string }) => `${n.operator} ${n.brand}`.toLowerCase().includes('vodafone'))).toBe(true);
      const bad = await bluesky.get('/portal/networks?country=gbr');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().fields[0].field).toBe('country');
    });

    it('names every country in six languages, with its networks', async () => {
      const countries = (await bluesky.get('/portal/misc/countries')).json() as { code: string; names: Record<string, string>; networks: { plmn: string }[] }[];
      expect(countries.length).toBeGreaterThanOrEqual(240);
      for (const c of countries) for (const l of LANGUAGES) expect(c.names[l], `${c.code} in ${l}`).toMatch(/\S/);
      const de = countries.find((c) => c.code === 'DE')!;
      expect(de.names).toMatchObject({ en: 'Germany', de: 'Deutschland', es: 'Alemania' });
      expect(de.networks.map((n) => n.plmn)).toEqual(expect.arrayContaining(['26201', '26202', '26203']));
      const withNetworks = countries.filter((c) => c.networks.length > 0).length;
      expect(withNetworks).toBeGreaterThan(200);
    });

    it('lists the runtime IANA time zones', async () => {
      const { timeZones } = (await northwind.get('/portal/time-zones')).json();
      expect(timeZones).toEqual(expect.arrayContaining(['Europe/Berlin', 'Asia/Jerusalem', 'America/New_York']));
      expect(timeZones.length).toBeGreaterThan(300);
    });

    it('refreshes from the catalogue for the admin only, reporting what changed', async () => {
      expect((await bluesky.post('/portal/admin/update-sponsor-networks')).statusCode).toBe(403);
      const first = (await admin.post('/portal/admin/update-sponsor-networks')).json();
      expect(first).toMatchObject({ added: [], updated: [], withdrawn: [], restored: [] });
      // Drift: a network lost, one renamed, one the catalogue no longer knows.
      await ctx.db
        .deleteFrom('allowedListNetwork')
        .where('networkId', 'in', (eb) => eb.selectFrom('network').select('id').where('plmn', '=', '26201'))
        .execute();
      await ctx.db.deleteFrom('network').where('plmn', '=', '26201').execute();
      await ctx.db.updateTable('network').set({ brand: 'Old brand' }).where('plmn', '=', '26202').execute();
      await ctx.db.insertInto('network').values({ plmn: '99999', mcc: '999', mnc: '99', country: 'DE', operator: 'Gone Mobile' }).execute();
      const res = await admin.post('/portal/admin/update-sponsor-networks');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ added: ['26201'], updated: ['26202'], withdrawn: ['99999'], restored: [] });
      expect(res.json().total).toBeGreaterThanOrEqual(1500);
      const de = (await admin.get('/portal/networks?country=DE&size=500')).json().items.map((n: { plmn: string }) => n.plmn);
      expect(de).toContain('26201');
      expect(de).not.toContain('99999');
    });
  });

  describe('sponsors', () => {
    it('are listed for the screens that pick one, and maintained by the admin only', async () => {
      const list = (await northwind.get('/portal/sponsors')).json();
      expect(list.map((s: { name: string }) => s.name)).toEqual(['Orbit Home NL', 'Orbit Home UK', 'Orbit Home US']);
      const body = { name: 'Orbit Home DE', plmn: '26203', imsiPrefix: '2620355', country: 'DE' };
      expect((await northwind.post('/portal/sponsors/', body)).statusCode).toBe(403);
      const created = await admin.post('/portal/sponsors/', body);
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({ ...body, id: expect.any(Number) });
      expect((await northwind.put('/portal/sponsors/', { id: created.json().id, name: 'Mine now' })).statusCode).toBe(403);
      const dup = await admin.post('/portal/sponsors/', { ...body, name: 'orbit home de' });
      expect(dup.statusCode).toBe(409);
      expect(dup.json().fields[0]).toMatchObject({ field: 'name', message: 'sponsor name already exists' });
    });

    it('refuses bad values naming the field and writes nothing', async () => {
      const before = (await admin.get('/portal/sponsors')).json().length;
      const res = await admin.post('/portal/sponsors/', { name: 'X', plmn: '12', imsiPrefix: 'abc' });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ field: 'name', rule: 'minLength', message: 'Name must be valid' }),
          expect.objectContaining({ field: 'plmn', rule: 'pattern', message: 'Network code must be 5 or 6 digits (MCC and MNC)' }),
          expect.objectContaining({ field: 'imsiPrefix', rule: 'pattern', message: 'IMSI prefix must be 5 to 10 digits' }),
        ]),
      );
      expect((await admin.get('/portal/sponsors')).json().length).toBe(before);
    });
  });

  describe('core network and its event log', () => {
    const resellerOf = async (name: string) => (await ctx.db.selectFrom('reseller').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;

    it('answers asynchronously, fails on demand, and logs every request with its result', async () => {
      const net = ctx.app.coreNetwork;
      const northwindId = await resellerOf('Northwind IoT');
      const blueskyId = await resellerOf('Blue Sky Telecom');
      const pending = net.send({ operation: 'blockNetwork', resellerId: northwindId, plmn: '23415', imsi: '204041200000001', subject: 'test' });
      // Not answered yet: the answer and its event come later.
      expect(await ctx.db.selectFrom('networkEvent').select('id').where('subject', '=', 'test').execute()).toHaveLength(0);
      expect((await pending).ok).toBe(true);
      net.simulator!.failNext(1, 'MAP error 34: system failure');
      const failed = await net.send({ operation: 'allowNetwork', resellerId: blueskyId, plmn: '23415', subject: 'test' });
      expect(failed).toMatchObject({ ok: false, detail: 'MAP error 34: system failure' });
      const answers: boolean[] = [];
      net.dispatch({ operation: 'removeNetwork', resellerId: blueskyId, plmn: '26201', subject: 'test' }, async (a) => {
        answers.push(a.ok);
      });
      await net.idle();
      expect(answers).toEqual([true]);

      const all = (await admin.get('/portal/network-events/ss7?subject=test')).json();
      expect(all.totalItemsCount).toBe(3);
      expect(all.items.map((e: { operation: string }) => e.operation)).toEqual(['removeNetwork', 'allowNetwork', 'blockNetwork']);
      expect(all.items[1]).toMatchObject({ result: 'failure', detail: 'MAP error 34: system failure', protocol: 'Diameter', plmn: '23415' });
      expect(all.items[2]).toMatchObject({ result: 'success', imsi: '204041200000001', resellerId: northwindId });

      // Tenancy: Northwind Mobile sees its sub-reseller's request, Blue Sky only its own.
      expect((await northwind.get('/portal/network-events/ss7?subject=test')).json().items.map((e: { operation: string }) => e.operation)).toEqual([
        'blockNetwork',
      ]);
      expect((await bluesky.get('/portal/network-events/ss7?subject=test')).json().totalItemsCount).toBe(2);
      expect((await bluesky.get('/portal/network-events/ss7?subject=test&result=failure')).json().items).toHaveLength(1);
      const paged = (await admin.get('/portal/network-events/ss7?subject=test&size=2&page=1')).json();
      expect(paged).toMatchObject({ totalItemsCount: 3, totalPageCount: 2, currentPage: 1 });
      expect(paged.items).toHaveLength(1);
      expect((await admin.get('/portal/network-events/ss7?imsi=12')).statusCode).toBe(400);
      expect((await (await ctx.as('harbor')).get('/portal/network-events/ss7')).statusCode).toBe(403);
    });
  });
});
