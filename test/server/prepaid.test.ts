import { sql } from 'kysely';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '@server/domains/auth/password';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;
type Row = Record<string, any>;

const BASE = '/portal/pre-paid-packages';
const parseCsv = (text: string) => Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
const TEMPLATES = `${BASE}/templates`;

describe.each(engines)('prepaid templates, packages and the ledger on %s', (engine) => {
  let ctx: Ctx;
  let admin: Client;
  let northwind: Client;
  let iot: Client;
  let bluesky: Client;
  /** Seeded ids by name. */
  const zone: Record<string, number> = {};
  const subscriber: Record<'northwind' | 'iot' | 'bluesky', number> = { northwind: 0, iot: 0, bluesky: 0 };

  const count = async (table: string) => Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(ctx.db)).rows[0].n);
  const balance = async (client: Client, resellerId: number) => {
    const res = await client.get(`/portal/ledger/balance?reseller_id=${resellerId}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().balance as number;
  };
  const template = (overrides: Row = {}) => ({
    name: 'Test template',
    locationZoneId: zone.Europe,
    destinationZoneId: zone['EU calls'],
    periodDays: 30,
    price: 9.99,
    priority: 1,
    moCallMinutes: 10,
    mtCallMinutes: 10,
    moSms: 5,
    mtSms: 5,
    dataMb: 1024,
    unlimitedData: false,
    bitrate: 0,
    slices: 1,
    ...overrides,
  });
  const createTemplate = async (client: Client, overrides: Row = {}) => {
    const res = await client.post(TEMPLATES, template(overrides));
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Row;
  };

  beforeAll(async () => {
    ctx = await testApp(engine);
    admin = await ctx.as('admin');
    northwind = await ctx.as('northwind');
    iot = await ctx.as('northwind-iot');
    bluesky = await ctx.as('bluesky');
    for (const table of ['location_zone', 'destination_zone']) {
      for (const z of (await sql<{ id: number; name: string }>`select id, name from ${sql.table(table)}`.execute(ctx.db)).rows) zone[z.name] = z.id;
    }
    const first = async (resellerId: number) =>
      (await sql<{ id: number }>`select min(subscriber_id) as id from subscriber where reseller_id = ${resellerId}`.execute(ctx.db)).rows[0].id;
    subscriber.northwind = await first(1);
    subscriber.iot = await first(2);
    subscriber.bluesky = await first(3);
    expect(Object.values(subscriber).every(Boolean)).toBe(true);
  });
  afterAll(async () => ctx?.close());

  describe('templates', () => {
    it("creates a template with exact price and its zones named, for the caller's reseller", async () => {
      const created = await createTemplate(northwind, { name: 'Europe exact price', price: 12.34 });
      expect(created).toMatchObject({
        name: 'Europe exact price',
        resellerId: 1,
        resellerName: 'Northwind Mobile',
        locationZoneName: 'Europe',
        destinationZoneName: 'EU calls',
        price: 12.34,
        periodDays: 30,
      });
      const stored = await sql<{ p: string }>`select price::text as p from prepaid_template where id = ${created.id}`.execute(ctx.db);
      expect(stored.rows[0].p).toBe('12.34');
      expect((await northwind.get(`${TEMPLATES}/${created.id}`)).json()).toEqual(created);
      const updated = await northwind.put(`${TEMPLATES}/${created.id}`, { ...created, price: 0.3, unlimitedData: true });
      expect(updated.statusCode, updated.body).toBe(200);
      expect(updated.json()).toMatchObject({ name: 'Europe exact price', price: 0.3, unlimitedData: true });
      const posted = await northwind.post(`${TEMPLATES}/${created.id}`, { ...(updated.json() as Row), priority: 7 });
      expect(posted.statusCode, posted.body).toBe(200);
      expect(posted.json()).toMatchObject({ priority: 7, price: 0.3 });
    });

    it("refuses bad input with each rule's message, writing nothing", async () => {
      const before = await count('prepaid_template');
      const cases: [Row, string, string, string][] = [
        [{ name: undefined }, 'name', 'required', 'Template name is required'],
        [{ name: 'Short' }, 'name', 'minLength', 'Template name must be more than 5 characters'],
        [{ name: 'x'.repeat(51) }, 'name', 'maxLength', 'Template name must be at most 50 characters'],
        [{ price: 1.234 }, 'price', 'multipleOf', 'Please enter a price from 0 to 99999.99 with at most 2 decimals'],
        [{ price: -1 }, 'price', 'minimum', 'Please enter a price from 0 to 99999.99 with at most 2 decimals'],
        [{ price: 100000 }, 'price', 'maximum', 'Please enter a price from 0 to 99999.99 with at most 2 decimals'],
        [{ price: undefined }, 'price', 'required', 'Please enter a price from 0 to 99999.99 with at most 2 decimals'],
        [{ periodDays: 0 }, 'periodDays', 'minimum', 'Please enter a period of 1 to 3650 days'],
        [{ periodDays: undefined }, 'periodDays', 'required', 'This field is required'],
        [{ locationZoneId: undefined }, 'locationZoneId', 'required', 'Please choose'],
        [{ moSms: -3 }, 'moSms', 'minimum', 'Please provide a valid number.'],
        [{ dataMb: 'lots' }, 'dataMb', 'type', 'Please provide a valid number.'],
        [{ colour: 'red' }, 'colour', 'additionalProperties', 'This field is not accepted'],
      ];
      for (const [change, field, rule, message] of cases) {
        const res = await northwind.post(TEMPLATES, template({ name: 'Valid template name', ...change }));
        expect(res.statusCode, JSON.stringify(change)).toBe(400);
        expect(res.json().code).toBe('VALIDATION_FAILED');
        expect(res.json().fields, JSON.stringify(change)).toContainEqual(expect.objectContaining({ field, rule, message }));
      }
      expect(await count('prepaid_template')).toBe(before);
    });

    it('keeps names unique per reseller, ignoring case', async () => {
      await createTemplate(northwind, { name: 'Unique per reseller' });
      const dup = await northwind.post(TEMPLATES, template({ name: 'UNIQUE per Reseller' }));
      expect(dup.statusCode).toBe(409);
      expect(dup.json().fields[0]).toMatchObject({ field: 'name', rule: 'unique', message: 'template name in use' });
      await createTemplate(bluesky, { name: 'Unique per reseller', locationZoneId: zone['North America'], destinationZoneId: zone['Worldwide calls'] });
      const other = await createTemplate(northwind, { name: 'Another one here' });
      const rename = await northwind.put(`${TEMPLATES}/${other.id}`, { ...other, name: 'unique per reseller' });
      expect(rename.statusCode).toBe(409);
    });

    it("takes only zones the caller sees, of the template's reseller or one above it", async () => {
      const before = await count('prepaid_template');
      const foreign = await northwind.post(
        TEMPLATES,
        template({ name: 'Foreign zones', locationZoneId: zone['North America'], destinationZoneId: zone['Worldwide calls'] }),
      );
      expect(foreign.statusCode).toBe(400);
      expect(foreign.json().fields).toEqual([
        expect.objectContaining({ field: 'locationZoneId', rule: 'reference', messageId: 'validation.zone.notAllowed' }),
        expect.objectContaining({ field: 'destinationZoneId', rule: 'reference' }),
      ]);
      // The sub-reseller's users do not see their parent's zones; the parent's zone may not point down a branch.
      expect((await iot.post(TEMPLATES, template({ name: 'Parent zone', destinationZoneId: null }))).statusCode).toBe(400);
      expect((await northwind.post(TEMPLATES, template({ name: 'Child zone', locationZoneId: zone.Nordics }))).statusCode).toBe(400);
      expect((await northwind.post(TEMPLATES, template({ name: 'Missing zone', locationZoneId: 999999 }))).statusCode).toBe(400);
      expect(await count('prepaid_template')).toBe(before);
      // A template of the sub-reseller may use the parent's zones, and the sub-reseller's own.
      await createTemplate(northwind, { name: 'For the IoT branch', resellerId: 2 });
      await createTemplate(iot, { name: 'IoT own zone', locationZoneId: zone.Nordics, destinationZoneId: null });
      // Moving a template to another reseller checks its zones again.
      const moved = await createTemplate(admin, { name: 'Moved template', resellerId: 1 });
      const res = await admin.put(`${TEMPLATES}/${moved.id}`, { ...moved, resellerId: 3 });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields.map((f: Row) => f.field)).toEqual(['locationZoneId', 'destinationZoneId']);
    });

    it('keeps a zone a template uses from being deleted', async () => {
      const own = (await northwind.post('/portal/zones/location-zones', { name: 'Template zone', countries: ['FR'] })).json();
      await createTemplate(northwind, { name: 'Uses its own zone', locationZoneId: own.id, destinationZoneId: null });
      for (const id of [own.id, zone.Europe]) {
        const res = await northwind.delete(`/portal/zones/location-zones/${id}`);
        expect(res.statusCode).toBe(409);
        expect(res.json()).toMatchObject({ code: 'CONFLICT', message: 'zone in use by a plan or template cannot be deleted' });
      }
      const dest = await northwind.delete(`/portal/zones/destination-zones/${zone['EU calls']}`);
      expect(dest.statusCode).toBe(409);
      expect((await northwind.get(`/portal/zones/location-zones/${own.id}`)).statusCode).toBe(200);
    });

    it("keeps every template call to the caller's tenants", async () => {
      const mine = await createTemplate(northwind, { name: 'Northwind private' });
      expect((await bluesky.get(`${TEMPLATES}/${mine.id}`)).statusCode).toBe(404);
      expect((await bluesky.put(`${TEMPLATES}/${mine.id}`, { ...mine, name: 'Taken over' })).statusCode).toBe(404);
      expect((await bluesky.post(`${TEMPLATES}/${mine.id}`, { ...mine, name: 'Taken over' })).statusCode).toBe(404);
      const planted = await bluesky.post(TEMPLATES, template({ name: 'Planted template', resellerId: 1 }));
      expect(planted.statusCode).toBe(400);
      expect(planted.json().fields.map((f: Row) => f.field)).toContain('resellerId');
      const seen = (await bluesky.post(`${TEMPLATES}/paged`, { page: { page: 0, size: 500 } })).json().items.map((t: Row) => t.id);
      expect(seen).not.toContain(mine.id);
      expect((await admin.get(`${TEMPLATES}/${mine.id}`)).json().name).toBe('Northwind private');
      // The list call: a reseller's own, those offered to a subscriber (its reseller's and those above), nothing of others.
      expect((await bluesky.get(`${TEMPLATES}?reseller_id=1`)).statusCode).toBe(404);
      const ofNorthwind = (await northwind.get(`${TEMPLATES}?reseller_id=1`)).json() as Row[];
      expect(ofNorthwind.every((t) => t.resellerId === 1)).toBe(true);
      expect(ofNorthwind.map((t) => t.name)).toContain('Northwind private');
      const offered = (await northwind.get(`${TEMPLATES}?subscriber_id=${subscriber.iot}`)).json() as Row[];
      expect(new Set(offered.map((t) => t.resellerId))).toEqual(new Set([1, 2]));
      expect((await bluesky.get(`${TEMPLATES}?subscriber_id=${subscriber.iot}`)).statusCode).toBe(404);
      expect(((await iot.get(`${TEMPLATES}?subscriber_id=${subscriber.iot}`)).json() as Row[]).every((t) => t.resellerId === 2)).toBe(true);
      expect((await northwind.get(`${TEMPLATES}?reseller_id=abc`)).statusCode).toBe(400);
    });

    it("lists a location zone's countries to those who see the zone", async () => {
      const res = await northwind.get(`${BASE}/location-zones/${zone.Europe}/countries`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ locationZoneId: zone.Europe, name: 'Europe' });
      expect(res.json().countries).toContain('DE');
      expect((await bluesky.get(`${BASE}/location-zones/${zone.Europe}/countries`)).statusCode).toBe(404);
    });
  });

  describe('packages and the ledger', () => {
    let tenCents: Row;
    let expensive: Row;
    beforeAll(async () => {
      tenCents = await createTemplate(northwind, { name: 'Ten cents a month', price: 0.1 });
      expensive = await createTemplate(northwind, { name: 'Far too expensive', price: 99999.99 });
    });

    it('seeds the demo resellers with an opening balance', async () => {
      expect(await balance(admin, 1)).toBe(5000);
      expect(await balance(northwind, 2)).toBe(750);
      expect(await balance(bluesky, 3)).toBe(2500);
      expect((await bluesky.get('/portal/ledger/balance?reseller_id=1')).statusCode).toBe(404);
      expect((await iot.get('/portal/ledger/balance?reseller_id=1')).statusCode).toBe(404);
      const entries = (await northwind.get('/portal/ledger/entries?reseller_id=1')).json();
      expect(entries.items.at(-1)).toMatchObject({ kind: 'opening', amount: 5000, balanceAfter: 5000, currency: 'USD' });
    });

    it("purchases debit the subscriber's reseller with exact arithmetic, package and ledger row together", async () => {
      const start = (await sql<{ b: string }>`select balance_after::text as b from ledger_entry where reseller_id = 1 order by id desc limit 1`.execute(ctx.db))
        .rows[0].b;
      const bought: Row[] = [];
      for (let i = 0; i < 3; i += 1) {
        const res = await northwind.post(`${BASE}/purchase/`, { subscriberId: subscriber.northwind, templateId: tenCents.id });
        expect(res.statusCode, res.body).toBe(201);
        bought.push(res.json());
      }
      const pkg = bought[0];
      expect(pkg).toMatchObject({
        templateId: tenCents.id,
        templateName: 'Ten cents a month',
        subscriberId: subscriber.northwind,
        resellerId: 1,
        status: 'active',
        saleKind: 'purchase',
        price: 0.1,
        periodDays: 30,
        locationZoneName: 'Europe',
        mocMinutes: 10,
        smsOut: 5,
        smsOutUsed: 0,
        dataMb: 1024,
        dataUsageMb: 0,
        soldBy: 'northwind',
        activateUponFirstUse: false,
      });
      expect(pkg.paymentDate).toBeTruthy();
      expect(new Date(pkg.expirationDate).getTime() - new Date(pkg.activationDate).getTime()).toBe(30 * 86400_000);
      const ledger = (
        await sql<{ amount: string; after: string; kind: string; reference: string }>`
        select amount::text as amount, balance_after::text as after, kind, reference from ledger_entry where reseller_id = 1 order by id desc limit 3`.execute(
          ctx.db,
        )
      ).rows;
      const expected = [0.3, 0.2, 0.1].map((d) => (Math.round((Number(start) - d) * 100) / 100).toFixed(2));
      expect(ledger.map((r) => r.after)).toEqual(expected);
      expect(ledger.every((r) => r.amount === '-0.10' && r.kind === 'purchase')).toBe(true);
      expect(ledger[0].reference).toContain(`prepaid package ${bought[2].id}`);
      expect(await balance(northwind, 1)).toBe(Number(expected[0]));
      const linked = await sql<{
        n: string;
      }>`select count(*) as n from prepaid_package p join ledger_entry l on l.id = p.ledger_entry_id where p.id in (${sql.join(bought.map((b) => b.id))})`.execute(
        ctx.db,
      );
      expect(Number(linked.rows[0].n)).toBe(3);
    });

    it('refuses a purchase the balance cannot cover, naming the rule and writing nothing', async () => {
      const packages = await count('prepaid_package');
      const entries = await count('ledger_entry');
      const before = await balance(northwind, 1);
      const res = await northwind.post(`${BASE}/purchase/`, { subscriberId: subscriber.northwind, templateId: expensive.id });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'CONFLICT', message: "The reseller's balance is too low for this purchase" });
      expect(res.json().fields).toEqual([expect.objectContaining({ field: 'balance', rule: 'insufficientBalance' })]);
      expect(await count('prepaid_package')).toBe(packages);
      expect(await count('ledger_entry')).toBe(entries);
      expect(await balance(northwind, 1)).toBe(before);
      // Assigning the same template costs nothing and moves no money.
      const free = await northwind.post(`${BASE}/assign/`, { subscriberId: subscriber.northwind, templateId: expensive.id });
      expect(free.statusCode, free.body).toBe(201);
      expect(free.json()).toMatchObject({ saleKind: 'assign', price: 0, status: 'active' });
      expect(free.json().paymentDate).toBeUndefined();
      expect(await count('ledger_entry')).toBe(entries);
    });

    it("debits the subscriber's own reseller when a parent sells to a sub-reseller's subscriber", async () => {
      const before = await balance(iot, 2);
      const parent = await balance(northwind, 1);
      const res = await northwind.post(`${BASE}/purchase/`, { subscriberId: subscriber.iot, templateId: tenCents.id });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ resellerId: 2 });
      expect(await balance(iot, 2)).toBe(Math.round((before - 0.1) * 100) / 100);
      expect(await balance(northwind, 1)).toBe(parent);
    });

    it('lets concurrent purchases spend the balance exactly once', async () => {
      const start = await balance(iot, 2);
      const price = Math.floor(start / 3 - 1);
      const dear = await createTemplate(iot, { name: 'Concurrent purchases', price, locationZoneId: zone.Nordics, destinationZoneId: null });
      const results = await Promise.all(Array.from({ length: 5 }, () => iot.post(`${BASE}/purchase/`, { subscriberId: subscriber.iot, templateId: dear.id })));
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 409, 409]);
      expect(await balance(iot, 2)).toBe(Math.round((start - 3 * price) * 100) / 100);
      const rows = (
        await sql<{
          amount: string;
          after: string;
        }>`select amount::text as amount, balance_after::text as after from ledger_entry where reseller_id = 2 order by id`.execute(ctx.db)
      ).rows;
      // Each row's balance is the one before it plus its amount, in cents.
      for (let i = 1; i < rows.length; i += 1) {
        expect(Math.round(Number(rows[i - 1].after) * 100) + Math.round(Number(rows[i].amount) * 100)).toBe(Math.round(Number(rows[i].after) * 100));
      }
    });

    it('waits for first use when asked, and checks the request body', async () => {
      const res = await northwind.post(`${BASE}/assign/`, { subscriberId: subscriber.northwind, templateId: tenCents.id, activateUponFirstUse: true });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ status: 'pending', activateUponFirstUse: true });
      expect(res.json().activationDate).toBeUndefined();
      expect(res.json().expirationDate).toBeUndefined();
      const before = await count('prepaid_package');
      const bad = [
        [{ templateId: tenCents.id }, 'subscriberId', 'required'],
        [{ subscriberId: 'x', templateId: tenCents.id }, 'subscriberId', 'type'],
        [{ subscriberId: subscriber.northwind, templateId: 1.5 }, 'templateId', 'type'],
        [{ subscriberId: subscriber.northwind, templateId: tenCents.id, activateUponFirstUse: 'yes' }, 'activateUponFirstUse', 'type'],
        [{ subscriberId: subscriber.northwind, templateId: tenCents.id, price: 0 }, 'price', 'additionalProperties'],
      ] as const;
      for (const [body, field, rule] of bad) {
        for (const call of ['assign', 'purchase']) {
          const r = await northwind.post(`${BASE}/${call}/`, body);
          expect(r.statusCode, `${call} ${JSON.stringify(body)}`).toBe(400);
          expect(r.json().fields).toContainEqual(expect.objectContaining({ field, rule }));
        }
      }
      expect(await count('prepaid_package')).toBe(before);
    });

    it('keeps subscribers, templates and packages of other tenants out of reach', async () => {
      const packages = await count('prepaid_package');
      const entries = await count('ledger_entry');
      for (const call of ['assign', 'purchase']) {
        expect((await bluesky.post(`${BASE}/${call}/`, { subscriberId: subscriber.northwind, templateId: tenCents.id })).statusCode).toBe(404);
        const blueTemplate = (await bluesky.get(TEMPLATES)).json()[0];
        expect((await northwind.post(`${BASE}/${call}/`, { subscriberId: subscriber.northwind, templateId: blueTemplate.id })).statusCode).toBe(404);
        // The administrator sees both, but a template is offered only down its own reseller's branch.
        const notOffered = await admin.post(`${BASE}/${call}/`, { subscriberId: subscriber.northwind, templateId: blueTemplate.id });
        expect(notOffered.statusCode).toBe(400);
        expect(notOffered.json().fields[0]).toMatchObject({ field: 'templateId', rule: 'offered' });
        // A sub-reseller does not see its parent's templates.
        expect((await iot.post(`${BASE}/${call}/`, { subscriberId: subscriber.iot, templateId: tenCents.id })).statusCode).toBe(404);
      }
      expect(await count('prepaid_package')).toBe(packages);
      expect(await count('ledger_entry')).toBe(entries);
      expect((await bluesky.get(`${BASE}/list/${subscriber.northwind}`)).statusCode).toBe(404);
      const someone = (await northwind.get(`${BASE}/list/${subscriber.northwind}`)).json().subscriberPackages[0];
      expect((await bluesky.post(`${BASE}/api/expire/`, { packageId: someone.id })).statusCode).toBe(404);
      const blueSales = (await bluesky.post(`${BASE}/sales`, { page: { page: 0, size: 500 } })).json();
      expect(blueSales.items.every((p: Row) => p.resellerId === 3)).toBe(true);
      const iotSales = (await iot.post(`${BASE}/sales`, { page: { page: 0, size: 500 } })).json();
      expect(iotSales.totalItemsCount).toBeGreaterThan(0);
      expect(iotSales.items.every((p: Row) => p.resellerId === 2)).toBe(true);
      const harbor = await ctx.as('harbor');
      expect((await harbor.get(`${BASE}/list/${subscriber.northwind}`)).statusCode).toBe(403);
    });

    it('expires a package now, once, and lists it only when asked', async () => {
      const res = await northwind.post(`${BASE}/purchase/`, { subscriberId: subscriber.northwind, templateId: tenCents.id });
      const pkg = res.json();
      const expired = await northwind.post(`${BASE}/api/expire/`, { packageId: pkg.id });
      expect(expired.statusCode, expired.body).toBe(200);
      expect(expired.json()).toMatchObject({ id: pkg.id, status: 'expired' });
      expect(Math.abs(new Date(expired.json().expirationDate).getTime() - Date.now())).toBeLessThan(60_000);
      const again = await northwind.post(`${BASE}/api/expire/`, { packageId: pkg.id });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe('The package has already expired');
      expect((await northwind.post(`${BASE}/api/expire/`, { packageId: 'x' })).statusCode).toBe(400);
      expect((await northwind.post(`${BASE}/api/expire/`, { packageId: 99999999 })).statusCode).toBe(404);
      const current = (await northwind.get(`${BASE}/list/${subscriber.northwind}`)).json().subscriberPackages as Row[];
      expect(current.map((p) => p.id)).not.toContain(pkg.id);
      expect(current.length).toBeGreaterThan(0);
      const all = (await northwind.get(`${BASE}/list/${subscriber.northwind}?show_expired=true`)).json().subscriberPackages as Row[];
      expect(all.map((p) => p.id)).toContain(pkg.id);
      // A package whose period has run out reads as expired.
      const running = current.find((p) => p.status === 'active')!;
      await sql`update prepaid_package set expiration_date = now() - interval '1 minute' where id = ${running.id}`.execute(ctx.db);
      const later = (await northwind.get(`${BASE}/list/${subscriber.northwind}?show_expired=true`)).json().subscriberPackages as Row[];
      expect(later.find((p) => p.id === running.id)?.status).toBe('expired');
    });

    it('pages the sales history and downloads it whole as CSV, behind the Sales sub-privilege', async () => {
      const page = (await northwind.post(`${BASE}/sales`, { page: { page: 0, size: 2 } })).json();
      expect(page.items).toHaveLength(2);
      expect(page.totalItemsCount).toBeGreaterThan(5);
      expect(new Date(page.items[0].purchaseDate).getTime()).toBeGreaterThanOrEqual(new Date(page.items[1].purchaseDate).getTime());
      const search = (await northwind.post(`${BASE}/sales`, { searchBy: 'templateName', searchKey: 'ten cents', sortBy: 'id', sortDir: 'asc' })).json();
      expect(search.items.every((p: Row) => p.templateName === 'Ten cents a month')).toBe(true);
      expect((await northwind.post(`${BASE}/sales`, { sortBy: 'password' })).statusCode).toBe(400);

      const download = await northwind.post(`${BASE}/sales/download`, {});
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-type']).toContain('text/csv');
      const lines = parseCsv(download.body);
      expect(lines[0]).toContain('templateName');
      expect(lines.length - 1).toBe(page.totalItemsCount);
      const priceColumn = lines[0].indexOf('price');
      expect(lines.slice(1).some((l) => l[priceColumn] === '0.10')).toBe(true);
      const filtered = parseCsv((await northwind.post(`${BASE}/sales/download`, { searchBy: 'templateName', searchKey: 'ten cents' })).body);
      expect(filtered.length - 1).toBe(search.totalItemsCount);

      const role = await ctx.db
        .insertInto('role')
        .values({ name: 'Seller', resellerId: 1, privileges: JSON.stringify([{ privilege: 'PrePaidPackages', subPrivileges: [] }]) })
        .returning('id')
        .executeTakeFirstOrThrow();
      await ctx.db
        .insertInto('appUser')
        .values({
          username: 'seller',
          email: 'seller@demo.example',
          passwordHash: await hashPassword('Seller@2026x'),
          firstName: null,
          lastName: null,
          resellerId: 1,
          accountId: null,
          roleId: role.id,
          preferences: null,
        })
        .execute();
      const seller = ctx.client(await ctx.login('seller', 'Seller@2026x'));
      expect((await seller.post(`${BASE}/sales`, {})).statusCode).toBe(403);
      expect((await seller.post(`${BASE}/sales/download`, {})).statusCode).toBe(403);
      expect((await seller.get(`${BASE}/list/${subscriber.northwind}`)).statusCode).toBe(200);
      expect((await seller.get(`${TEMPLATES}?subscriber_id=${subscriber.northwind}`)).statusCode).toBe(200);
      expect((await seller.post(`${TEMPLATES}/paged`, {})).statusCode).toBe(403);
    });
  });
});
