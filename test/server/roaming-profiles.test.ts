import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { sql } from 'kysely';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;
type Rate = { country: string; moCall: number; mtCall: number; moSms: number; mtSms: number; data: number };
type Profile = {
  id: number;
  name: string;
  reference: string;
  slots: number;
  resellerId: number;
  reviewState: string;
  sponsorIds: number[];
  allowedListIds: number[];
  rates: Rate[];
};

const BASE = '/portal/roaming-profiles';
const rate = (country: string, data: number): Rate => ({ country, moCall: 0.05, mtCall: 0.01, moSms: 0.02, mtSms: 0, data });

describe.each(engines)('roaming profiles on %s', (engine) => {
  let ctx: Ctx;
  let admin: Client;
  let northwind: Client;
  let bluesky: Client;

  beforeAll(async () => {
    ctx = await testApp(engine);
    admin = await ctx.as('admin');
    northwind = await ctx.as('northwind');
    bluesky = await ctx.as('bluesky');
  });
  afterAll(async () => ctx?.close());

  const create = async (c: Client, body: object) => {
    const res = await c.post(BASE, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Profile;
  };

  it('creates a profile with sponsors, allowed lists and exact rates, waiting for review', async () => {
    const europe = (await northwind.post('/portal/allowed-lists/paged', { searchBy: 'name', searchKey: 'Europe standard' })).json().items[0].allowedListId;
    const p = await create(northwind, {
      name: 'Baltic fleet',
      reference: 'NW-BALTIC',
      slots: 2,
      sponsorIds: [3, 1],
      allowedListIds: [europe],
      rates: [rate('LV', 0.0125), rate('EE', 0.0001)],
    });
    expect(p).toMatchObject({ name: 'Baltic fleet', slots: 2, resellerId: 1, reviewState: 'pending', sponsorIds: [1, 3], allowedListIds: [europe] });
    expect(p.rates).toEqual([rate('EE', 0.0001), rate('LV', 0.0125)]);
    const stored = await sql<{ d: string }>`select data::text as d from roaming_profile_rate where roaming_profile_id = ${p.id} and country = 'LV'`.execute(
      ctx.db,
    );
    expect(stored.rows[0].d).toBe('0.0125');
    expect((await northwind.get(`${BASE}/${p.id}`)).json()).toEqual(p);
  });

  it('refuses bad fields naming each one, and writes nothing', async () => {
    const before = (await admin.post(`${BASE}/paged`, {})).json().totalItemsCount;
    const res = await northwind.post(BASE, { name: 'x', reference: 'abc', slots: 9, rates: [rate('DE', 0.00001)] });
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json()
        .fields.map((f: { field: string }) => f.field)
        .sort(),
    ).toEqual(['name', 'rates', 'reference', 'slots']);
    expect(res.json().fields.find((f: { field: string }) => f.field === 'reference').message).toBe('Reference must be valid');
    const twice = await northwind.post(BASE, { name: 'Twice', reference: 'TWICE-01', slots: 1, rates: [rate('DE', 1), rate('DE', 2)] });
    expect(twice.json().fields).toEqual([expect.objectContaining({ field: 'rates', messageId: 'validation.rates.invalid' })]);
    const unknownSponsor = await northwind.post(BASE, { name: 'Ghost sponsor', reference: 'GHOST-01', slots: 1, sponsorIds: [1, 999] });
    expect(unknownSponsor.statusCode).toBe(400);
    expect(unknownSponsor.json().fields).toEqual([
      expect.objectContaining({ field: 'sponsorIds', rule: 'reference', messageId: 'validation.reference.unknown' }),
    ]);
    const atlantis = await northwind.post(BASE, { name: 'Atlantis', reference: 'ATLANTIS', slots: 1, rates: [rate('XX', 1)] });
    expect(atlantis.statusCode).toBe(400);
    expect((await admin.post(`${BASE}/paged`, {})).json().totalItemsCount).toBe(before);
  });

  it('keeps a sponsor once added: an update leaving one out is refused, adding one is fine', async () => {
    const p = await create(northwind, { name: 'Sponsor rule', reference: 'SPONSOR1', slots: 1, sponsorIds: [1] });
    const added = await northwind.put(`${BASE}/${p.id}`, { ...p, sponsorIds: [1, 2] });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().sponsorIds).toEqual([1, 2]);
    const removed = await northwind.put(`${BASE}/${p.id}`, { ...(added.json() as Profile), sponsorIds: [2] });
    expect(removed.statusCode).toBe(400);
    expect(removed.json().fields).toEqual([
      expect.objectContaining({ field: 'sponsorIds', rule: 'sponsorRemoved', message: 'A sponsor once added to a roaming profile cannot be removed' }),
    ]);
    // Not even the administrator, and not through the other update path.
    expect((await admin.send('PUT', BASE, { ...(added.json() as Profile), sponsorIds: [] })).statusCode).toBe(400);
    expect((await northwind.get(`${BASE}/${p.id}`)).json().sponsorIds).toEqual([1, 2]);
    // Leaving sponsorIds out of an update keeps them.
    expect((await northwind.put(`${BASE}/${p.id}`, { name: 'Sponsor rule', reference: 'SPONSOR2', slots: 1 })).json().sponsorIds).toEqual([1, 2]);
  });

  it('is usable in SIM orders only after an administrator approves it, and again after each change', async () => {
    const p = await create(northwind, { name: 'Review me', reference: 'REVIEW01', slots: 3, rates: [rate('DE', 0.01)] });
    const usable = async () => (await northwind.get(`${BASE}?slot_count=3`)).json().map((x: Profile) => x.name);
    expect(await usable()).not.toContain('Review me');
    expect((await northwind.post(`/portal/admin/roaming-profiles/${p.id}/approve`)).statusCode).toBe(403);
    expect((await admin.get(`/portal/admin/sync-roaming-profiles/${p.id}`)).statusCode).toBe(409);

    const approved = await admin.post(`/portal/admin/roaming-profiles/${p.id}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().reviewState).toBe('approved');
    expect(await usable()).toContain('Review me');
    expect((await northwind.get(`${BASE}?slot_count=1`)).json().map((x: Profile) => x.name)).not.toContain('Review me');
    const synced = await admin.get(`/portal/admin/sync-roaming-profiles/${p.id}`);
    expect(synced.statusCode).toBe(200);
    expect(Date.parse(synced.json().syncedAt)).not.toBeNaN();

    // The sync changed the row after the approval's answer: the edit starts from the row as it is now.
    const current = (await northwind.get(`${BASE}/${p.id}`)).json() as Profile;
    expect(current.reviewState).toBe('approved');
    const changed = await northwind.put(`${BASE}/${p.id}`, { ...current, rates: [rate('DE', 0.02)] });
    expect(changed.json().reviewState).toBe('pending');
    expect(await usable()).not.toContain('Review me');
  });

  it('keeps a sponsor a profile uses from being deleted', async () => {
    await expect(sql`delete from sponsor where id = 1`.execute(ctx.db)).rejects.toMatchObject({ code: expect.stringMatching(/^23(001|503)$/) });
  });

  it('keeps profiles within their reseller subtree', async () => {
    const own = (await northwind.post(`${BASE}/paged`, { page: { page: 0, size: 100 } })).json().items.map((p: Profile) => p.name);
    expect(own).toEqual(expect.arrayContaining(['Europe IoT', 'Global dual IMSI']));
    expect(own).not.toContain('Americas');
    const europe = (await admin.post(`${BASE}/paged`, { searchBy: 'name', searchKey: 'Europe IoT' })).json().items[0] as Profile;
    expect((await bluesky.get(`${BASE}/${europe.id}`)).statusCode).toBe(404);
    expect((await bluesky.post(`${BASE}/${europe.id}/download`)).statusCode).toBe(404);
    expect((await bluesky.put(`${BASE}/${europe.id}`, { name: 'Taken', reference: 'TAKEN-01', slots: 1 })).statusCode).toBe(404);
    expect((await bluesky.get(`${BASE}?reseller_id=1`)).json()).toEqual([]);
    expect((await northwind.get(`${BASE}?reseller_id=1`)).json().map((p: Profile) => p.name)).toContain('Europe IoT');
  });

  it('searches by name and reference together, and by profile id', async () => {
    const search = async (searchBy: string, searchKey: string) =>
      (await admin.post(`${BASE}/paged`, { searchBy, searchKey })).json().items.map((p: Profile) => p.name);
    expect(await search('nameAndReference', 'bs-amer')).toEqual(['Americas']);
    expect(await search('nameAndReference', 'americas')).toEqual(['Americas']);
    const id = (await admin.post(`${BASE}/paged`, { searchBy: 'name', searchKey: 'Americas' })).json().items[0].id;
    expect(await search('id', String(id))).toEqual(['Americas']);
  });

  it("searches by an allowed list's uuid and by a sponsor's name, as the search popup offers", async () => {
    const search = async (searchBy: string, searchKey: string) =>
      (await admin.post(`${BASE}/paged`, { searchBy, searchKey })).json().items.map((p: Profile) => p.name);
    const sponsor = (await admin.get('/portal/sponsors')).json()[1] as { id: number; name: string };
    const list = (await admin.post('/portal/allowed-lists/paged', { searchBy: 'name', searchKey: 'Europe standard' })).json().items[0] as {
      allowedListId: number;
      uuid: string;
    };
    await create(northwind, { name: 'Found by links', reference: 'LINKS-01', slots: 1, sponsorIds: [sponsor.id], allowedListIds: [list.allowedListId] });
    expect(await search('allowedListUuid', list.uuid.slice(0, 13).toUpperCase())).toContain('Found by links');
    expect(await search('sponsorName', sponsor.name.toLowerCase())).toContain('Found by links');
    expect(await search('sponsorName', 'no such sponsor')).toEqual([]);
  });

  it('downloads the price table as CSV, and the whole profile in the import format', async () => {
    const europe = (await northwind.post(`${BASE}/paged`, { searchBy: 'name', searchKey: 'Europe IoT' })).json().items[0] as Profile;
    const res = await northwind.post(`${BASE}/${europe.id}/download`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const table = Papa.parse<Record<string, string>>(res.body.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;
    expect(table.map((r) => r.country)).toEqual(['DE', 'ES', 'FR', 'GB']);
    expect(table[0]).toMatchObject({ countryName: 'Germany', moCall: '0.0500', data: '0.0125' });

    const v2 = await northwind.post(`/portal/v2/roaming-profiles/${europe.id}/download`);
    const lines = Papa.parse<Record<string, string>>(v2.body.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;
    expect(lines[0]).toMatchObject({ resellerId: '1', name: 'Europe IoT', reference: 'NW-EU-IOT', slots: '1', country: 'DE', data: '0.0125' });
  });

  it('imports a CSV row by row: good rows create or update profiles, bad rows are reported by line', async () => {
    const csv = [
      'resellerId,name,reference,slots,country,moCall,mtCall,moSms,mtSms,data',
      '3,Imported Asia,BS-ASIA-01,1,JP,0.15,0.05,0.06,0,0.035', // line 2: good
      '3,Imported Asia,BS-ASIA-01,1,KR,0.14,0.05,0.06,0,0.0301', // line 3: good
      '3,Imported Asia,BS-ASIA-01,1,XX,0.14,0.05,0.06,0,0.03', // line 4: unknown country
      '3,Imported Asia,BS-ASIA-01,1,SG,0.14,abc,0.06,0,0.03', // line 5: bad rate
      '3,Imported Asia,OTHER-REF,1,CN,0.14,0.05,0.06,0,0.03', // line 6: reference differs from line 2
      '999,Nowhere,NOWHERE1,1,DE,0,0,0,0,0', // line 7: no such reseller
      '1,Europe IoT,NW-EU-IOT,1,IT,0.06,0.01,0.02,0,0.0135', // line 8: adds Italy to an existing profile
      '3,Imported Asia,BS-ASIA-01,1,JP,0.15,0.05,0.06,0,0.035', // line 9: Japan twice
    ].join('\n');
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/portal/admin/import-roaming-profiles',
      payload: csv,
      headers: { authorization: `Bearer ${await ctx.login('admin')}`, 'content-type': 'text/csv' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json();
    expect(report).toMatchObject({ created: 1, updated: 1, rates: 3 });
    expect(report.rejected.map((r: { line: number; field: string }) => [r.line, r.field])).toEqual([
      [4, 'country'],
      [5, 'mtCall'],
      [6, 'reference'],
      [7, 'resellerId'],
      [9, 'country'],
    ]);
    expect(report.rejected[0].message).toBe('Please choose a country');

    const asia = (await admin.post(`${BASE}/paged`, { searchBy: 'name', searchKey: 'Imported Asia' })).json().items[0] as Profile;
    const full = (await admin.get(`${BASE}/${asia.id}`)).json() as Profile;
    expect(full).toMatchObject({ resellerId: 3, reviewState: 'pending', reference: 'BS-ASIA-01' });
    expect(full.rates.map((r) => [r.country, r.data])).toEqual([
      ['JP', 0.035],
      ['KR', 0.0301],
    ]);
    const europe = (await admin.post(`${BASE}/paged`, { searchBy: 'name', searchKey: 'Europe IoT' })).json().items[0] as Profile;
    const europeFull = (await admin.get(`${BASE}/${europe.id}`)).json() as Profile;
    expect(europeFull.rates.map((r) => r.country)).toEqual(['DE', 'ES', 'FR', 'GB', 'IT']);
    expect(europeFull.reviewState).toBe('pending');
  });

  it('refuses an import without a file, without its columns, over 4 MB, or from a reseller', async () => {
    const token = await ctx.login('admin');
    const post = (payload: string, t = token) =>
      ctx.app.inject({
        method: 'POST',
        url: '/portal/admin/import-roaming-profiles',
        payload,
        headers: { authorization: `Bearer ${t}`, 'content-type': 'text/csv' },
      });
    expect((await post(' ')).json().fields[0]).toMatchObject({ field: 'file', messageId: 'validation.file.required' });
    const noColumns = await post('name,reference\nA,B');
    expect(noColumns.statusCode).toBe(400);
    expect(noColumns.json().fields.map((f: { field: string }) => f.field)).toContain('country');
    const big = await post(`resellerId,name,reference,slots,country,moCall,mtCall,moSms,mtSms,data\n${'1,x,y,1,DE,0,0,0,0,0\n'.repeat(220000)}`);
    expect(big.statusCode).toBe(400);
    expect(big.json().fields[0].message).toBe('File size should be less than 4 MB!');
    expect((await post('x', await ctx.login('bluesky'))).statusCode).toBe(403);
  });
});
