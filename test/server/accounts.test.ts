import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '@server/domains/auth/password';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;

describe.each(engines)('accounts on %s', (engine) => {
  let ctx: Ctx;
  let admin: Client;

  beforeAll(async () => {
    ctx = await testApp(engine);
    admin = await ctx.as('admin');
  });
  afterAll(async () => ctx?.close());

  const paged = (c: Client, body: object, query = '?include_inventory=true') => c.post(`/portal/accounts/paged${query}`, body);

  describe('paging and sorting', () => {
    it('sorts by accountId ascending by default and pages zero-based', async () => {
      const first = (await paged(admin, { page: { page: 0, size: 5 } })).json();
      expect(first.totalItemsCount).toBe(26);
      expect(first.totalPageCount).toBe(6);
      expect(first.currentPage).toBe(0);
      expect(first.items.map((a: { accountId: number }) => a.accountId)).toEqual([1, 2, 3, 4, 5]);
      const last = (await paged(admin, { page: { page: 5, size: 5 } })).json();
      expect(last.items).toHaveLength(1);
      expect(last.currentPage).toBe(5);
    });

    it('sorts by a column in both directions, with the reseller name joined', async () => {
      const asc = (await paged(admin, { sortBy: 'name', sortDir: 'asc', page: { page: 0, size: 3 } })).json();
      expect(asc.items.map((a: { name: string }) => a.name)).toEqual(['Alpine Sensors', 'Andes Mining', 'Atlas Agritech']);
      const desc = (await paged(admin, { sortBy: 'city', sortDir: 'desc', page: { page: 0, size: 1 } })).json();
      expect(desc.items[0].city).toBe('Zurich');
      const lastPage = (await paged(admin, { sortBy: 'city', sortDir: 'desc', page: { page: 12, size: 2 } })).json();
      expect(lastPage.items.map((a: { city?: string }) => a.city)).toEqual([undefined, undefined]);
      const byReseller = (await paged(admin, { sortBy: 'resellerName', sortDir: 'asc', page: { page: 0, size: 1 } })).json();
      expect(byReseller.items[0].resellerName).toBe('Blue Sky Telecom');
    });

    it('answers 400 naming the field for a sort, filter or page outside the whitelist', async () => {
      const badSort = await paged(admin, { sortBy: 'password_hash' });
      expect(badSort.statusCode).toBe(400);
      expect(badSort.json().fields).toEqual([expect.objectContaining({ field: 'sortBy', rule: 'enum' })]);
      const badDir = await paged(admin, { sortBy: 'name', sortDir: 'sideways' });
      expect(badDir.json().fields[0].field).toBe('sortDir');
      const badFilter = await paged(admin, { searchBy: 'passwordHash', searchKey: 'x' });
      expect(badFilter.statusCode).toBe(400);
      expect(badFilter.json().fields[0].field).toBe('searchBy');
      const badSize = await paged(admin, { page: { page: 0, size: 100000 } });
      expect(badSize.json().fields[0].field).toBe('page.size');
    });

    it('leaves inventory accounts out unless include_inventory=true', async () => {
      const without = (await paged(admin, {}, '')).json();
      const withInventory = (await paged(admin, {})).json();
      expect(withInventory.totalItemsCount - without.totalItemsCount).toBe(2);
    });
  });

  describe('search filters', () => {
    const search = async (searchBy: string, searchKey: string) =>
      (await admin.post('/portal/accounts/search?include_inventory=true', { searchBy, searchKey })).json();

    it('multi matches the id or the name', async () => {
      expect((await search('multi', 'fleet')).items.map((a: { name: string }) => a.name)).toEqual(['Meridian Fleet']);
      const byId = await search('multi', '7');
      expect(byId.items.map((a: { accountId: number }) => a.accountId)).toEqual([7]);
    });
    it('account id matches exactly and ignores text', async () => {
      expect((await search('accountId', '12')).items.map((a: { name: string }) => a.name)).toEqual(['Baltic Ferries']);
      expect((await search('accountId', 'abc')).totalItemsCount).toBe(0);
    });
    it('name, address and city match part of the text, case-insensitively', async () => {
      expect((await search('name', 'ALPINE')).items[0].name).toBe('Alpine Sensors');
      expect((await search('address', '13 harbour')).items.map((a: { name: string }) => a.name)).toEqual(['Meridian Fleet']);
      expect((await search('city', 'osl')).items.map((a: { name: string }) => a.name)).toEqual(['Tundra Freight']);
    });
    it('treats LIKE wildcards in the key as text', async () => {
      expect((await search('name', '%')).totalItemsCount).toBe(0);
      expect((await search('name', '_')).totalItemsCount).toBe(0);
    });
    it('offers reseller filters to the admin only', async () => {
      expect((await search('resellerName', 'blue sky')).totalItemsCount).toBe(10);
      const northwind = await ctx.as('northwind');
      const refused = await northwind.post('/portal/accounts/search', { searchBy: 'resellerName', searchKey: 'blue' });
      expect(refused.statusCode).toBe(400);
    });
    it('trims the key and treats an empty key as no search', async () => {
      expect((await search('name', '  tundra  ')).totalItemsCount).toBe(1);
      expect((await search('name', '   ')).totalItemsCount).toBe(26);
    });
  });

  describe('create and update', () => {
    it("creates an account in the caller's reseller and reads it back", async () => {
      const northwind = await ctx.as('northwind');
      const created = await northwind.post('/portal/accounts/', { name: 'Polar Buoys', city: 'Tromsø', country: 'NO', usageCredit: 99.5 });
      expect(created.statusCode).toBe(201);
      const row = created.json();
      expect(row).toMatchObject({
        name: 'Polar Buoys',
        city: 'Tromsø',
        country: 'NO',
        usageCredit: 99.5,
        resellerName: 'Northwind Mobile',
        inventoryAccount: false,
      });
      const read = await northwind.get(`/portal/accounts/${row.accountId}`);
      expect(read.json()).toEqual(row);
      const listed = (await northwind.get('/portal/accounts/list')).json();
      expect(listed).toContainEqual({ accountId: row.accountId, name: 'Polar Buoys', resellerId: row.resellerId });
    });

    it('updates the fields sent and keeps the others', async () => {
      const created = (await admin.post('/portal/accounts/', { name: 'Update Me', city: 'Porto', address: 'Rua 1' })).json();
      const updated = await admin.put('/portal/accounts/', { accountId: created.accountId, name: 'Updated Co', city: '' });
      expect(updated.statusCode).toBe(200);
      expect(updated.json()).toMatchObject({ accountId: created.accountId, name: 'Updated Co', address: 'Rua 1' });
      expect(updated.json().city).toBeUndefined();
    });

    it('accepts back a row as it was read, server-owned fields included', async () => {
      const row = (await admin.get('/portal/accounts/4')).json();
      const res = await admin.put('/portal/accounts/', { ...row, city: 'Montreal' });
      expect(res.statusCode).toBe(200);
      // The version rises with every change.
      expect(res.json()).toEqual({ ...row, city: 'Montreal', version: row.version + 1 });
    });

    it('refuses a duplicate name, ignoring case, with 409 and nothing written', async () => {
      const before = (await paged(admin, {})).json().totalItemsCount;
      const dup = await admin.post('/portal/accounts/', { name: 'harbor LOGISTICS' });
      expect(dup.statusCode).toBe(409);
      expect(dup.json().fields).toEqual([{ field: 'name', rule: 'unique', messageId: 'entity.account.unique', message: 'account name already exists' }]);
      expect((await paged(admin, {})).json().totalItemsCount).toBe(before);
      const other = (await admin.post('/portal/accounts/', { name: 'Rename Target' })).json();
      const renamed = await admin.put('/portal/accounts/', { accountId: other.accountId, name: 'Harbor Logistics' });
      expect(renamed.statusCode).toBe(409);
      expect((await admin.put('/portal/accounts/', { accountId: other.accountId, name: 'Rename Target' })).statusCode).toBe(200);
    });

    it.each([
      [{}, 'name', 'required', 'Name is required'],
      [{ name: 'A' }, 'name', 'minLength', 'Name must be valid'],
      [{ name: 'x'.repeat(51) }, 'name', 'maxLength', 'Name must be less than 50 characters'],
      [{ name: 'Valid Name', email: 'not-an-email' }, 'email', 'format', 'E-mail must be valid'],
      [{ name: 'Valid Name', country: 'Norway' }, 'country', 'pattern', 'Please choose a country'],
      [{ name: 'Valid Name', usageCredit: 1.005 }, 'usageCredit', 'multipleOf', 'Please enter a valid $ amount.'],
      [{ name: 'Valid Name', usageCredit: -1 }, 'usageCredit', 'minimum', 'Please enter a valid $ amount.'],
      [{ name: 'Valid Name', pricingPlanId: 'x' }, 'pricingPlanId', 'type', 'Please provide a valid number.'],
      [{ name: 'Valid Name', city: 'c'.repeat(51) }, 'city', 'maxLength', 'Max 50 characters allowed.'],
      [{ name: 'Valid Name', address: 'a'.repeat(151) }, 'address', 'maxLength', 'Max 150 characters allowed.'],
      [{ name: 'Valid Name', secret: 1 }, 'secret', 'additionalProperties', 'This field is not accepted'],
    ])('refuses %j: %s %s', async (body, field, rule, message) => {
      const res = await admin.post('/portal/accounts/', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
      expect(res.json().fields).toContainEqual(expect.objectContaining({ field, rule, message }));
      const found = (await admin.post('/portal/accounts/search?include_inventory=true', { searchBy: 'name', searchKey: 'Valid Name' })).json();
      expect(found.totalItemsCount).toBe(0);
    });

    it('refuses an update without the key, and of an unknown id', async () => {
      expect((await admin.put('/portal/accounts/', { name: 'No Key' })).json().fields[0]).toMatchObject({ field: 'accountId', rule: 'required' });
      expect((await admin.put('/portal/accounts/', { accountId: 99999, name: 'Ghost' })).statusCode).toBe(404);
      expect((await admin.get('/portal/accounts/abc')).statusCode).toBe(400);
    });
  });

  describe('plans', () => {
    const planIds = async (c: Client) => {
      const lists = (await c.get('/portal/pricing-plans/')).json();
      return {
        local: Object.fromEntries(lists.pricingPlans.map((p: { pricingPlanId: number; pricingPlanName: string }) => [p.pricingPlanName, p.pricingPlanId])),
        international: Object.fromEntries(
          lists.internationalPricingPlans.map((p: { internationalPricingPlanId: number; internationalPricingPlanName: string }) => [
            p.internationalPricingPlanName,
            p.internationalPricingPlanId,
          ]),
        ),
      };
    };

    it('takes a visible plan or none (-1), and refuses a plan of another reseller naming the field, writing nothing', async () => {
      const northwind = await ctx.as('northwind');
      const own = await planIds(northwind);
      const others = await planIds(await ctx.as('bluesky'));
      expect(Object.keys(own.local)).not.toContain('Blue Sky Worldwide');
      const created = await northwind.post('/portal/accounts/', {
        name: 'Plan Holder',
        pricingPlanId: own.local['Europe IoT Standard'],
        internationalPricingPlanId: -1,
      });
      expect(created.statusCode).toBe(201);
      const { accountId } = created.json();

      const refused = await northwind.put('/portal/accounts/', {
        accountId,
        name: 'Plan Holder',
        pricingPlanId: others.local['Blue Sky Worldwide'],
        internationalPricingPlanId: others.international['Blue Sky Voice World'],
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().fields).toEqual([
        expect.objectContaining({ field: 'pricingPlanId', rule: 'reference', message: 'Please choose a pricing plan from the list' }),
        expect.objectContaining({ field: 'internationalPricingPlanId', rule: 'reference', message: 'Please choose an international plan from the list' }),
      ]);
      expect((await northwind.get(`/portal/accounts/${accountId}`)).json()).toMatchObject({
        pricingPlanId: own.local['Europe IoT Standard'],
        internationalPricingPlanId: -1,
      });
      expect((await northwind.post('/portal/accounts/', { name: 'Sneaky Plan', pricingPlanId: others.local['Blue Sky Worldwide'] })).statusCode).toBe(400);
    });

    it('names the plan a parent assigned the reseller without offering it to give, as the server refuses it', async () => {
      const iot = await ctx.as('northwind-iot');
      const parentPlan = (await planIds(await ctx.as('northwind'))).local['Europe IoT Standard'];
      await ctx.db.updateTable('reseller').set({ pricingPlanId: parentPlan }).where('name', '=', 'Northwind IoT').execute();
      const plans = (await iot.get('/portal/pricing-plans/')).json().pricingPlans as { pricingPlanId: number; assignable: boolean }[];
      expect(plans.find((p) => p.pricingPlanId === parentPlan)).toMatchObject({ assignable: false });
      expect(plans.filter((p) => p.pricingPlanId !== parentPlan).every((p) => p.assignable)).toBe(true);
      const refused = await iot.post('/portal/accounts/', { name: 'Parent Priced', pricingPlanId: parentPlan });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().fields).toEqual([expect.objectContaining({ field: 'pricingPlanId', rule: 'reference' })]);
      // Whoever gives the plan sees it as theirs to give.
      expect(
        ((await (await ctx.as('northwind')).get('/portal/pricing-plans/')).json().pricingPlans as { pricingPlanId: number; assignable: boolean }[]).find(
          (p) => p.pricingPlanId === parentPlan,
        ),
      ).toMatchObject({ assignable: true });
    });

    it('keeps a plan the administrator set, which the reseller cannot see, while the reseller edits other fields', async () => {
      const northwind = await ctx.as('northwind');
      const blueSkyPlan = (await planIds(await ctx.as('bluesky'))).local['Blue Sky Worldwide'];
      const { accountId } = (await northwind.post('/portal/accounts/', { name: 'Admin Planned' })).json();
      expect((await admin.put('/portal/accounts/', { accountId, name: 'Admin Planned', pricingPlanId: blueSkyPlan })).statusCode).toBe(200);
      const edited = await northwind.put('/portal/accounts/', { accountId, name: 'Admin Planned', city: 'Oslo', pricingPlanId: blueSkyPlan });
      expect(edited.statusCode).toBe(200);
      expect(edited.json()).toMatchObject({ city: 'Oslo', pricingPlanId: blueSkyPlan });
    });
  });

  describe('access', () => {
    it('answers 401 without a token or with a bad one', async () => {
      expect((await ctx.app.inject({ method: 'POST', url: '/portal/accounts/paged', payload: {} })).statusCode).toBe(401);
      const bad = await ctx.client('not-a-token').get('/portal/accounts/1');
      expect(bad.statusCode).toBe(401);
      expect(bad.json()).toMatchObject({ statusCode: 401, code: 'UNAUTHORIZED' });
    });

    it('keeps a reseller to its subtree: parent sees its sub-reseller, not the reverse, nor other resellers', async () => {
      const northwind = await ctx.as('northwind');
      const iot = await ctx.as('northwind-iot');
      const names = async (c: Client) =>
        new Set((await paged(c, { page: { page: 0, size: 500 } })).json().items.map((a: { resellerName: string }) => a.resellerName));
      expect(await names(northwind)).toEqual(new Set(['Northwind Mobile', 'Northwind IoT']));
      expect(await names(iot)).toEqual(new Set(['Northwind IoT']));
      const blueSkyAccount = (await admin.post('/portal/accounts/search', { searchBy: 'name', searchKey: 'Pacific Rail' })).json().items[0];
      expect((await northwind.get(`/portal/accounts/${blueSkyAccount.accountId}`)).statusCode).toBe(404);
      expect((await northwind.put('/portal/accounts/', { accountId: blueSkyAccount.accountId, name: 'Stolen' })).statusCode).toBe(404);
      const intoOther = await northwind.post('/portal/accounts/', { name: 'Wrong Reseller', resellerId: blueSkyAccount.resellerId });
      expect(intoOther.statusCode).toBe(400);
      expect(intoOther.json().fields[0]).toMatchObject({ field: 'resellerId', rule: 'reference' });
      const resellers = (await iot.get('/portal/reseller-info/list')).json();
      expect(resellers.map((r: { name: string }) => r.name)).toEqual(['Northwind IoT']);
    });

    it('shows an account user only its own account', async () => {
      const harbor = await ctx.as('harbor');
      const page = (await paged(harbor, {})).json();
      expect(page.items.map((a: { name: string }) => a.name)).toEqual(['Harbor Logistics']);
    });

    it('answers 403 to a user whose role lacks the Accounts privilege', async () => {
      const role = await ctx.db
        .insertInto('role')
        .values({ name: 'Dashboard only', resellerId: 1, privileges: JSON.stringify([{ privilege: 'Dashboard', subPrivileges: [] }]) })
        .returning('id')
        .executeTakeFirstOrThrow();
      await ctx.db
        .insertInto('appUser')
        .values({
          username: 'viewer',
          email: 'viewer@demo.example',
          passwordHash: await hashPassword('Viewer@2026x'),
          firstName: 'V',
          lastName: null,
          resellerId: 1,
          accountId: null,
          roleId: role.id,
          preferences: null,
        })
        .execute();
      const viewer = ctx.client(await ctx.login('viewer', 'Viewer@2026x'));
      expect((await paged(viewer, {})).statusCode).toBe(403);
      expect((await viewer.get('/portal/accounts/1')).statusCode).toBe(403);
      expect((await viewer.get('/portal/user/ui-privileges')).json()).toEqual({ userPrivileges: [{ privilege: 'Dashboard', subPrivileges: [] }] });
    });
  });

  it('serves an OpenAPI document generated from the schemas', async () => {
    const doc = (await admin.get('/portal/v3/api-docs')).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/portal/accounts/paged', '/portal/accounts/{id}', '/portal/accounts/']));
    expect(doc.paths['/portal/accounts/'].post.requestBody.content['application/json'].schema.properties.name).toMatchObject({ minLength: 2, maxLength: 50 });
  });
});
