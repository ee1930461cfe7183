import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;
type Zone = { id: number; name: string; resellerId: number; resellerName: string; countries: string[]; countryCount: number; maxVoipCost?: number };

const LOCATION = '/portal/zones/location-zones';
const DESTINATION = '/portal/zones/destination-zones';

describe.each(engines)('location and destination zones on %s', (engine) => {
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

  const names = (page: { items: Zone[] }) => page.items.map((z) => z.name);

  it("creates a zone with its countries sorted and counted, for the caller's reseller", async () => {
    const res = await northwind.post(LOCATION, { name: 'Iberia', countries: ['PT', 'ES', 'AD'] });
    expect(res.statusCode, res.body).toBe(201);
    const zone = res.json() as Zone;
    expect(zone).toMatchObject({ name: 'Iberia', countries: ['AD', 'ES', 'PT'], countryCount: 3, resellerId: 1, resellerName: 'Northwind Mobile' });
    expect((await northwind.get(`${LOCATION}/${zone.id}`)).json()).toEqual(zone);

    const updated = await northwind.put(`${LOCATION}/${zone.id}`, { name: 'Iberia', countries: ['PT', 'ES'] });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Iberia', countries: ['ES', 'PT'], countryCount: 2 });
  });

  it('keeps the max VoIP cost of a destination zone exact to four decimals', async () => {
    const res = await northwind.post(DESTINATION, { name: 'Cheap calls', countries: ['DE'], maxVoipCost: 0.0125 });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().maxVoipCost).toBe(0.0125);
    const row = await sql<{ c: string }>`select max_voip_cost::text as c from destination_zone where id = ${res.json().id}`.execute(ctx.db);
    expect(row.rows[0].c).toBe('0.0125');
    const bad = await northwind.post(DESTINATION, { name: 'Too precise', countries: ['DE'], maxVoipCost: 0.00001 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual([expect.objectContaining({ field: 'maxVoipCost', messageId: 'validation.cost.invalid' })]);
  });

  it('refuses a zone without countries, with an unknown country or a bad name, naming the field and writing nothing', async () => {
    const before = (await admin.post(`${LOCATION}/paged`, {})).json().totalItemsCount;
    const empty = await northwind.post(LOCATION, { name: 'Empty', countries: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toEqual([expect.objectContaining({ field: 'countries', rule: 'minItems', message: 'Please choose at least one country' })]);
    const unknown = await northwind.post(LOCATION, { name: 'Atlantis', countries: ['DE', 'XX'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().fields).toEqual([expect.objectContaining({ field: 'countries', messageId: 'validation.countries.invalid' })]);
    const shape = await northwind.post(LOCATION, { name: 'x', countries: ['de'] });
    expect(shape.statusCode).toBe(400);
    expect(
      shape
        .json()
        .fields.map((f: { field: string }) => f.field)
        .sort(),
    ).toEqual(['countries', 'name']);
    expect((await admin.post(`${LOCATION}/paged`, {})).json().totalItemsCount).toBe(before);
  });

  it('keeps names unique per reseller, ignoring case, but lets another reseller reuse one', async () => {
    const dup = await northwind.post(LOCATION, { name: 'EUROPE', countries: ['DE'] });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().fields[0]).toMatchObject({ field: 'name', message: 'zone name in use' });
    const other = await bluesky.post(LOCATION, { name: 'Europe', countries: ['DE'] });
    expect(other.statusCode, other.body).toBe(201);
    // Renaming onto a taken name is refused too.
    const iot = await ctx.as('northwind-iot');
    const nordics = (await iot.post(`${LOCATION}/paged`, { searchBy: 'name', searchKey: 'Nordics' })).json().items[0] as Zone;
    const clash = await iot.post(LOCATION, { name: 'Baltics', countries: ['EE', 'LV', 'LT'] });
    expect(clash.statusCode).toBe(201);
    expect((await iot.put(`${LOCATION}/${nordics.id}`, { name: 'baltics', countries: ['SE'] })).statusCode).toBe(409);
  });

  it('sorts by reseller name by default and filters by name, id and included country in any language', async () => {
    const all = (await admin.post(`${LOCATION}/paged`, { page: { page: 0, size: 100 } })).json();
    const resellers = all.items.map((z: Zone) => z.resellerName);
    expect(resellers).toEqual([...resellers].sort((a: string, b: string) => a.localeCompare(b)));
    expect(resellers[0]).toBe('Blue Sky Telecom');

    const search = async (searchBy: string, searchKey: string) =>
      (await admin.post(`${LOCATION}/paged`, { searchBy, searchKey, page: { page: 0, size: 100 } })).json();
    expect(names(await search('name', 'pacif'))).toEqual(['Asia Pacific']);
    const nordics = (await search('name', 'nordics')).items[0] as Zone;
    expect(names(await search('id', String(nordics.id)))).toEqual(['Nordics']);
    // Iceland is only in the Nordics zone: by code, English, German and Russian name.
    for (const key of ['IS', 'iceland', 'Island', 'Исландия']) expect(names(await search('countries', key)), key).toEqual(['Nordics']);
    expect(names(await search('countries', 'Japan'))).toEqual(['Asia Pacific']);
    expect((await search('countries', 'Narnia')).totalItemsCount).toBe(0);
  });

  it('shows a reseller its own subtree only', async () => {
    const seen = names((await northwind.post(`${LOCATION}/paged`, { page: { page: 0, size: 100 } })).json());
    expect(seen).toEqual(expect.arrayContaining(['Europe', 'Nordics', 'Iberia']));
    expect(seen).not.toContain('North America');
    const seenByBluesky = names((await bluesky.post(`${LOCATION}/paged`, { page: { page: 0, size: 100 } })).json());
    expect(seenByBluesky).not.toContain('Nordics');
    const nordicsId = (await admin.post(`${LOCATION}/paged`, { searchBy: 'name', searchKey: 'Nordics' })).json().items[0].id;
    expect((await bluesky.get(`${LOCATION}/${nordicsId}`)).statusCode).toBe(404);
    expect((await bluesky.delete(`${LOCATION}/${nordicsId}`)).statusCode).toBe(404);
    const upTheTree = await (await ctx.as('northwind-iot')).post(LOCATION, { name: 'Up the tree', countries: ['DE'], resellerId: 1 });
    expect(upTheTree.statusCode).toBe(400);
  });

  it.each(['on delete restrict', 'on delete no action'])(
    'refuses to delete a zone a plan still uses (%s), naming the rule, and deletes it once unused',
    async (rule) => {
      await sql`create table test_plan (id serial primary key, location_zone_id integer references location_zone(id) ${sql.raw(rule)})`.execute(ctx.db);
      const zone = (await northwind.post(LOCATION, { name: 'In use', countries: ['FR'] })).json() as Zone;
      await sql`insert into test_plan (location_zone_id) values (${zone.id})`.execute(ctx.db);
      const res = await northwind.delete(`${LOCATION}/${zone.id}`);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ code: 'CONFLICT', message: 'zone in use by a plan or template cannot be deleted' });
      expect((await northwind.get(`${LOCATION}/${zone.id}`)).statusCode).toBe(200);

      await sql`delete from test_plan`.execute(ctx.db);
      expect((await northwind.delete(`${LOCATION}/${zone.id}`)).statusCode).toBe(204);
      expect((await northwind.get(`${LOCATION}/${zone.id}`)).statusCode).toBe(404);
      await sql`drop table test_plan`.execute(ctx.db);
    },
  );

  it('lists id and name pairs for the selects of plans and templates', async () => {
    const list = (await northwind.get(DESTINATION)).json();
    expect(list.map((z: Zone) => z.name)).toEqual(['Cheap calls', 'EU calls']);
    expect(Object.keys(list[0]).sort()).toEqual(['id', 'name', 'resellerId']);
  });
});
