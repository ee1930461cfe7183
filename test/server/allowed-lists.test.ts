import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;
interface NetworkOfList {
  plmn: string;
  state: string;
  operator?: string;
  lastError?: string;
  inFlight: boolean;
}

describe.each(engines)('allowed lists on %s', (engine) => {
  let ctx: Ctx;
  let admin: Client;
  let northwind: Client;
  let bluesky: Client;
  let europe: { allowedListId: number; uuid: string };

  const networksOf = async (c: Client, id: number, country: string) =>
    (await c.get(`/portal/allowed-lists/${id}/networks/${country}`)).json() as NetworkOfList[];
  const stateOf = async (id: number, country: string, plmn: string) => (await networksOf(admin, id, country)).find((n) => n.plmn === plmn)!;
  const sponsorId = async () => (await admin.get('/portal/sponsors')).json()[0].id as number;

  beforeAll(async () => {
    ctx = await testApp(engine);
    admin = await ctx.as('admin');
    northwind = await ctx.as('northwind');
    bluesky = await ctx.as('bluesky');
    ctx.app.coreNetwork.simulator!.setFailureRate(0);
    const page = (await admin.post('/portal/allowed-lists/paged', { searchBy: 'name', searchKey: 'Europe standard' })).json();
    europe = page.items[0];
  });
  afterAll(async () => ctx?.close());

  describe('the entity', () => {
    it("refuses bad values with the specification's messages and writes nothing", async () => {
      const before = (await admin.post('/portal/allowed-lists/paged', {})).json().totalItemsCount;
      const missing = await northwind.post('/portal/allowed-lists', {});
      expect(missing.statusCode).toBe(400);
      expect(missing.json().fields).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ field: 'name', rule: 'required', message: 'Required.' }),
          expect.objectContaining({ field: 'reference', rule: 'required' }),
          expect.objectContaining({ field: 'sponsorId', rule: 'required', message: 'Please choose' }),
        ]),
      );
      const short = await northwind.post('/portal/allowed-lists', { name: 'EU', reference: 'ABC', sponsorId: await sponsorId() });
      expect(short.json().fields).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ field: 'name', rule: 'minLength', message: 'Min 3 characters required.' }),
          expect.objectContaining({ field: 'reference', rule: 'minLength' }),
        ]),
      );
      const long = await northwind.post('/portal/allowed-lists', { name: 'x'.repeat(51), reference: 'R'.repeat(17), sponsorId: await sponsorId() });
      expect(long.json().fields).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ field: 'name', rule: 'maxLength', message: 'Max 50 characters allowed.' }),
          expect.objectContaining({ field: 'reference', rule: 'maxLength' }),
        ]),
      );
      const unknownSponsor = await northwind.post('/portal/allowed-lists', { name: 'Valid name', reference: 'VALID-01', sponsorId: 9999 });
      expect(unknownSponsor.statusCode).toBe(400);
      expect(unknownSponsor.json().fields).toEqual([
        expect.objectContaining({ field: 'sponsorId', rule: 'reference', message: 'Please choose a sponsor from the list' }),
      ]);
      expect((await admin.post('/portal/allowed-lists/paged', {})).json().totalItemsCount).toBe(before);
    });

    it('creates a list that allows every network, names unique per reseller', async () => {
      const res = await northwind.post('/portal/allowed-lists', { name: 'Nordics only', reference: 'NW-NORD-1', sponsorId: await sponsorId() });
      expect(res.statusCode).toBe(201);
      const created = res.json();
      expect(created).toMatchObject({
        name: 'Nordics only',
        resellerName: 'Northwind Mobile',
        sponsorName: expect.any(String),
        uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
      const { counts } = (await northwind.get(`/portal/allowed-lists/${created.allowedListId}/networks`)).json();
      const networks = (await northwind.get('/portal/networks?size=1')).json().totalItemsCount;
      expect(counts).toMatchObject({ preferred: networks, blocked: 0, pending: 0 });
      const dup = await northwind.post('/portal/allowed-lists', { name: 'NORDICS ONLY', reference: 'NW-NORD-2', sponsorId: await sponsorId() });
      expect(dup.statusCode).toBe(409);
      expect(dup.json().fields[0]).toMatchObject({ field: 'name', message: 'allowed list name already exists' });
      // Another reseller may use the same name.
      expect((await bluesky.post('/portal/allowed-lists', { name: 'Nordics only', reference: 'BS-NORD-1', sponsorId: await sponsorId() })).statusCode).toBe(
        201,
      );
    });

    it('searches by name, uuid, reference and sponsor name, sorted by id by default', async () => {
      const search = async (searchBy: string, searchKey: string) =>
        (await admin.post('/portal/allowed-lists/paged', { searchBy, searchKey })).json().items.map((l: { name: string }) => l.name);
      expect(await search('uuid', europe.uuid)).toEqual(['Europe standard']);
      expect(await search('reference', 'bst-amer')).toEqual(['Americas']);
      expect(await search('sponsorName', 'Orbit Home UK')).toEqual(['IoT worldwide']);
      const ids = (await admin.post('/portal/allowed-lists/paged', {})).json().items.map((l: { allowedListId: number }) => l.allowedListId);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    });

    it('keeps every list and its networks within the reseller subtree', async () => {
      const nwSees = (await northwind.post('/portal/allowed-lists/paged', {})).json().items.map((l: { name: string }) => l.name);
      expect(nwSees).toEqual(expect.arrayContaining(['Europe standard', 'IoT worldwide']));
      expect(nwSees).not.toContain('Americas');
      const id = europe.allowedListId;
      expect((await bluesky.get(`/portal/allowed-lists/${id}`)).statusCode).toBe(404);
      expect((await bluesky.get(`/portal/allowed-lists/${id}/networks`)).statusCode).toBe(404);
      expect((await bluesky.get(`/portal/allowed-lists/${id}/networks/GB`)).statusCode).toBe(404);
      expect((await bluesky.post(`/portal/allowed-lists/${id}/sync`)).statusCode).toBe(404);
      expect((await bluesky.post(`/portal/allowed-lists/${europe.uuid}/download`)).statusCode).toBe(404);
      expect((await northwind.post('/portal/admin/block-networks', { allowedListId: id, blocked: true, plmns: ['23415'] })).statusCode).toBe(403);
    });

    it("keeps an account user to its own reseller's lists: its sub-reseller's list is not one it sees, syncs or reads", async () => {
      const iotList = (await admin.post('/portal/allowed-lists/paged', { searchBy: 'name', searchKey: 'IoT worldwide' })).json().items[0];
      expect(iotList).toMatchObject({ name: 'IoT worldwide', resellerName: 'Northwind IoT' });
      const id = iotList.allowedListId as number;
      // A change waiting for a sync, so that a sync would send something.
      expect((await admin.post('/portal/admin/block-networks', { allowedListId: id, blocked: true, plmns: ['23415'] })).json().changed).toBe(1);
      const written = async () => ({
        list: await ctx.db
          .selectFrom('allowedList')
          .select(['syncTotal', 'syncDone', 'syncFailed', 'syncStartedAt', 'syncFinishedAt'])
          .where('allowedListId', '=', id)
          .executeTakeFirstOrThrow(),
        sent: await ctx.db.selectFrom('allowedListNetwork').select('networkId').where('allowedListId', '=', id).where('sentAt', 'is not', null).execute(),
      });
      const before = await written();
      expect(before.sent).toEqual([]);
      await ctx.withPrivileges('harbor', ['AllowedLists'], async (harbor) => {
        const sync = await harbor.post(`/portal/allowed-lists/${id}/sync`);
        expect(sync.statusCode, sync.body).toBe(404);
        expect((await harbor.get(`/portal/allowed-lists/${id}/networks`)).statusCode).toBe(404);
        expect((await harbor.get(`/portal/allowed-lists/${id}/networks/GB`)).statusCode).toBe(404);
      });
      await ctx.app.coreNetwork.idle();
      expect(await written()).toEqual(before);
      // The sub-reseller's parent reseller sees it.
      expect((await northwind.get(`/portal/allowed-lists/${id}/networks`)).statusCode).toBe(200);
      expect((await stateOf(id, 'GB', '23415')).state).toBe('pending');
      const own = await northwind.post(`/portal/allowed-lists/${id}/sync`);
      expect(own.statusCode, own.body).toBe(202);
      expect(own.json().sent).toBe(1);
      await ctx.app.coreNetwork.idle();
      expect((await stateOf(id, 'GB', '23415')).state).toBe('blocked');
    });
  });

  describe('blocking through the core network', () => {
    it('shows the preview grouped by country with the seeded states', async () => {
      const summary = (await admin.get(`/portal/allowed-lists/${europe.allowedListId}/networks`)).json();
      expect(summary.counts).toMatchObject({ blocked: 3, pending: 1 });
      const gb = summary.countries.find((c: { country: string }) => c.country === 'GB');
      expect(gb.states.blocked).toBe(1);
      expect((await stateOf(europe.allowedListId, 'GB', '23420')).state).toBe('blocked');
      expect((await stateOf(europe.allowedListId, 'ES', '21407')).state).toBe('pending');
    });

    it('moves a blocked network from pending to blocked, and a failure keeps it pending with the reason', async () => {
      const id = europe.allowedListId;
      const block = await admin.post('/portal/admin/block-networks', { allowedListId: id, blocked: true, plmns: ['23415', '23410'] });
      expect(block.statusCode).toBe(200);
      expect(block.json()).toMatchObject({ changed: 2, counts: { pending: 3 } });
      expect((await stateOf(id, 'GB', '23415')).state).toBe('pending');

      const sim = ctx.app.coreNetwork.simulator!;
      sim.pause();
      sim.failNext(1, 'Diameter 3002 DIAMETER_UNABLE_TO_DELIVER');
      const sync = await northwind.post(`/portal/allowed-lists/${id}/sync`);
      expect(sync.statusCode).toBe(202);
      expect(sync.json().sent).toBe(3);
      // In flight: still pending, progress at zero, a second sync refused.
      expect((await northwind.get(`/portal/allowed-lists/${id}`)).json()).toMatchObject({ syncTotal: 3, syncDone: 0 });
      expect((await stateOf(id, 'GB', '23415')).inFlight).toBe(true);
      const again = await northwind.post(`/portal/allowed-lists/${id}/sync`);
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe('A sync of this allowed list is already running');
      sim.resume();
      await ctx.app.coreNetwork.idle();

      const after = (await northwind.get(`/portal/allowed-lists/${id}`)).json();
      expect(after).toMatchObject({ syncTotal: 3, syncDone: 3, syncFailed: 1, syncFinishedAt: expect.any(String) });
      const states = [await stateOf(id, 'GB', '23415'), await stateOf(id, 'GB', '23410'), await stateOf(id, 'ES', '21407')];
      expect(states.filter((s) => s.state === 'blocked')).toHaveLength(2);
      const failed = states.find((s) => s.state === 'pending')!;
      expect(failed).toMatchObject({ lastError: 'Diameter 3002 DIAMETER_UNABLE_TO_DELIVER', inFlight: false });

      // The next sync sends only what is still pending.
      expect((await northwind.post(`/portal/allowed-lists/${id}/sync`)).json().sent).toBe(1);
      await ctx.app.coreNetwork.idle();
      expect((await admin.get(`/portal/allowed-lists/${id}/networks`)).json().counts).toMatchObject({ pending: 0, blocked: 6 });

      const events = (await northwind.get(`/portal/network-events/ss7?subject=allowed-list:${europe.uuid}`)).json();
      expect(events.totalItemsCount).toBe(4);
      expect(events.items.filter((e: { result: string }) => e.result === 'failure')).toHaveLength(1);
      expect(events.items.every((e: { operation: string }) => e.operation === 'blockNetwork')).toBe(true);
    });

    it('unblocks a country through pending changes back to preferred', async () => {
      const id = europe.allowedListId;
      const res = (await admin.post('/portal/admin/block-networks', { allowedListId: id, blocked: false, countries: ['GB'] })).json();
      expect(res.changed).toBe(3);
      expect((await stateOf(id, 'GB', '23415')).state).toBe('pendingChanges');
      // Blocking again before the sync cancels the change: nothing left to send for that network.
      await admin.post('/portal/admin/block-networks', { allowedListId: id, blocked: true, plmns: ['23420'] });
      expect((await stateOf(id, 'GB', '23420')).state).toBe('blocked');
      expect((await northwind.post(`/portal/allowed-lists/${id}/sync`)).json().sent).toBe(2);
      await ctx.app.coreNetwork.idle();
      expect((await stateOf(id, 'GB', '23415')).state).toBe('preferred');
      expect((await stateOf(id, 'GB', '23420')).state).toBe('blocked');
    });

    it('refuses a block without networks, naming the field', async () => {
      const res = await admin.post('/portal/admin/block-networks', { allowedListId: europe.allowedListId, blocked: true });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields[0]).toMatchObject({ field: 'plmns', message: 'Choose at least one network or country' });
      expect((await admin.post('/portal/admin/block-networks', { allowedListId: europe.allowedListId, blocked: true, plmns: ['12'] })).statusCode).toBe(400);
    });

    it('passes catalogue changes on: withdrawn networks wait for removal, new ones to be allowed', async () => {
      const id = europe.allowedListId;
      await ctx.db
        .deleteFrom('allowedListNetwork')
        .where('networkId', 'in', (eb) => eb.selectFrom('network').select('id').where('plmn', '=', '26201'))
        .execute();
      await ctx.db.deleteFrom('network').where('plmn', '=', '26201').execute();
      await ctx.db
        .insertInto('network')
        .values({ plmn: '26299', mcc: '262', mnc: '99', country: 'DE', operator: 'Retired Mobile', brand: null, status: null, bands: null })
        .execute();
      const retired = await ctx.db.selectFrom('network').select('id').where('plmn', '=', '26299').executeTakeFirstOrThrow();
      await ctx.db
        .insertInto('allowedListNetwork')
        .values({ allowedListId: id, networkId: retired.id, applied: 'preferred', target: null, sentAt: null, lastError: null })
        .execute();
      const report = (await admin.post('/portal/admin/update-sponsor-networks')).json();
      expect(report).toMatchObject({ added: ['26201'], withdrawn: ['26299'] });
      expect((await stateOf(id, 'DE', '26201')).state).toBe('pendingChanges');
      expect((await stateOf(id, 'DE', '26299')).state).toBe('pendingRemoval');
      await northwind.post(`/portal/allowed-lists/${id}/sync`);
      await ctx.app.coreNetwork.idle();
      expect((await stateOf(id, 'DE', '26201')).state).toBe('preferred');
      expect((await stateOf(id, 'DE', '26299')).state).toBe('removed');
    });
  });

  it('downloads the list as CSV with every network and its state', async () => {
    const res = await northwind.post(`/portal/allowed-lists/${europe.uuid}/download`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="allowed-list-Europe-standard.csv"');
    const { data, meta } = Papa.parse<Record<string, string>>(res.body.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true });
    expect(meta.fields).toEqual(['country', 'countryName', 'mcc', 'mnc', 'plmn', 'operator', 'brand', 'state', 'lastError']);
    const { counts } = (await northwind.get(`/portal/allowed-lists/${europe.allowedListId}/networks`)).json();
    expect(data).toHaveLength(Object.values(counts as Record<string, number>).reduce((a, b) => a + b, 0));
    expect(data.find((r) => r.plmn === '23420')).toMatchObject({ country: 'GB', countryName: 'United Kingdom', state: 'blocked' });
    expect((await northwind.post('/portal/allowed-lists/not-a-uuid/download')).statusCode).toBe(400);
  });
});
