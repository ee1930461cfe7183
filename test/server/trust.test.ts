import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '@server/domains/auth/password';
import type { PrivilegeItem } from '@shared/privileges';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;
type Row = Record<string, any>;

const PASSWORD = 'Trust@2026pass';
const grant = (...names: string[]): PrivilegeItem[] => names.map((privilege) => ({ privilege, subPrivileges: [] }));

/**
 * Who may write what: administrator power from the role, no action on a more powerful user or role, no change of
 * one's own commercial fields, no reference to a row out of reach, lists of one's own tenant, and no lost update.
 */
describe.each(engines)('trust boundaries on %s', (engine) => {
  let ctx: Ctx;
  let admin: Client;
  let northwind: Client;
  let harbor: Client;

  /** A user of `resellerId` with a role of its own granting `privileges`, signed in. */
  async function userWith(username: string, resellerId: number, privileges: PrivilegeItem[], accountId: number | null = null) {
    const role = await ctx.db
      .insertInto('role')
      .values({ name: `${username} role`, resellerId, privileges: JSON.stringify(privileges) })
      .returning('id')
      .executeTakeFirstOrThrow();
    const user = await ctx.db
      .insertInto('appUser')
      .values({
        username,
        email: `${username}@trust.example`,
        passwordHash: await hashPassword(PASSWORD),
        firstName: null,
        lastName: null,
        resellerId,
        accountId,
        roleId: role.id,
        preferences: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { client: ctx.client(await ctx.login(username, PASSWORD)), userId: user.id, roleId: role.id };
  }

  const userRow = async (username: string) => ctx.db.selectFrom('appUser').selectAll().where('username', '=', username).executeTakeFirstOrThrow();

  beforeAll(async () => {
    ctx = await testApp(engine);
    admin = await ctx.as('admin');
    northwind = await ctx.as('northwind');
    harbor = await ctx.as('harbor');
  });
  afterAll(async () => ctx?.close());

  describe('administrator power comes from the role', () => {
    it('refuses every administrator route to a provider user whose role lacks Administrator', async () => {
      const { client: support } = await userWith('provider-support', -1, grant('Dashboard', 'Subscribers', 'Users'));
      expect((await support.get('/portal/admin/outbox')).statusCode).toBe(403);
      expect((await support.get('/portal/admin/join-requests')).statusCode).toBe(403);
      const adminRoutes = ctx.app.portalRoutes.filter((r) => r.access === 'admin');
      expect(adminRoutes.length).toBeGreaterThan(3);
      for (const r of adminRoutes) {
        const res = await support.send(r.method as 'GET', r.url.replace(/:(\w+)/g, '1'), r.method === 'GET' || r.method === 'DELETE' ? undefined : {});
        expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
      }
      // The administrator still reaches them.
      expect((await admin.get('/portal/admin/outbox')).statusCode).toBe(200);
    });

    it('lets only a role of the provider hold Administrator, and never leaves the portal without an administrator', async () => {
      const planted = await admin.post('/portal/roles', { name: 'Reseller admin', resellerId: 1, privileges: grant('Administrator', 'Users') });
      expect(planted.statusCode).toBe(400);
      expect(planted.json().fields).toEqual([expect.objectContaining({ field: 'privileges', rule: 'administrator' })]);
      const adminRole = (await admin.get('/portal/roles')).json().find((r: Row) => r.name === 'Administrator');
      const demoted = await admin.put(`/portal/roles/${adminRole.id}`, { privileges: grant('Dashboard') });
      expect(demoted.statusCode, demoted.body).toBe(409);
      expect(demoted.json().fields[0]).toMatchObject({ field: 'privileges', rule: 'lastAdministrator' });
      expect((await admin.get('/portal/admin/outbox')).statusCode).toBe(200);
    });
  });

  describe('no action on a more powerful user or role', () => {
    it('lets a user manager change weaker users only, and never the reseller manager, its e-mail, password or existence', async () => {
      const { client: clerk } = await userWith('nw-clerk', 1, grant('Users', 'Accounts'));
      const manager = await userRow('northwind');
      const before = await userRow('northwind');
      for (const res of [
        await clerk.put('/portal/user', { userId: manager.id, email: 'attacker@evil.example' }),
        await clerk.put('/portal/user', { userId: manager.id, password: 'Taken@2026over' }),
        await clerk.delete(`/portal/user/${manager.id}`),
      ]) {
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json().fields).toEqual([expect.objectContaining({ field: 'userId', rule: 'privileges' })]);
      }
      expect(await userRow('northwind')).toEqual(before);
      // The administrator is out of its reach altogether.
      const adminId = (await userRow('admin')).id;
      expect((await clerk.put('/portal/user', { userId: adminId, email: 'x@evil.example' })).statusCode).toBe(404);
      // A weaker user is fine.
      const { userId: weak } = await userWith('nw-weak', 1, grant('Accounts'));
      const changed = await clerk.put('/portal/user', { userId: weak, firstName: 'Renamed' });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json().firstName).toBe('Renamed');
    });

    it('refuses to edit or delete a role holding more than the editor', async () => {
      const { client: roleEditor } = await userWith('nw-role-editor', 1, grant('Roles', 'Users'));
      // Its pickers do not even offer the role (it may not give it); the administrator finds it.
      const roles = (await admin.get('/portal/roles')).json() as Row[];
      const managerRole = roles.find((r) => r.name === 'Reseller manager' && r.resellerId === 1)!;
      expect((await roleEditor.get('/portal/roles')).json().map((r: Row) => r.id)).not.toContain(managerRole.id);
      const res = await roleEditor.put(`/portal/roles/${managerRole.id}`, { name: 'Trimmed', privileges: grant('Users') });
      expect(res.statusCode).toBe(403);
      expect((await roleEditor.delete(`/portal/roles/${managerRole.id}`)).statusCode).toBe(403);
      expect((await admin.get(`/portal/roles/${managerRole.id}`)).json().name).toBe('Reseller manager');
    });

    it("gives a user only a role of its own reseller, never the provider's or another tenant's", async () => {
      const roles = (await admin.get('/portal/roles')).json() as Row[];
      const administrator = roles.find((r) => r.name === 'Administrator')!;
      const blueSky = roles.find((r) => r.resellerId === 3)!;
      const nwUser = await userRow('harbor');
      for (const roleId of [administrator.id, blueSky.id]) {
        const res = await admin.put('/portal/user', { userId: nwUser.id, roleId });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().fields[0]).toMatchObject({ field: 'roleId', rule: 'scope' });
      }
      expect((await userRow('harbor')).roleId).toBe(nwUser.roleId);
    });

    it('keeps a user from disabling itself', async () => {
      const me = await userRow('northwind');
      const res = await northwind.put('/portal/user', { userId: me.id, disabled: true });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields[0]).toMatchObject({ field: 'disabled', rule: 'self' });
    });
  });

  describe('an account user and its own commercial fields', () => {
    it('changes its contact details, but not its reseller, credit, plans or inventory flag, and creates no account', async () => {
      const own = (await harbor.post('/portal/accounts/paged', {})).json().items[0] as Row;
      expect(own.name).toBe('Harbor Logistics');
      const plans = (await admin.get('/portal/pricing-plans/')).json().pricingPlans as Row[];
      const attempts: [string, unknown][] = [
        ['resellerId', 3],
        ['usageCredit', 999999],
        ['pricingPlanId', plans[0].pricingPlanId],
        ['internationalPricingPlanId', -1],
        ['inventoryAccount', true],
      ];
      for (const [field, value] of attempts) {
        const res = await harbor.put('/portal/accounts/', { accountId: own.accountId, [field]: value });
        expect(res.statusCode, `${field}: ${res.body}`).toBe(403);
        expect(res.json().fields).toEqual([expect.objectContaining({ field, rule: 'protected' })]);
      }
      const after = (await admin.get(`/portal/accounts/${own.accountId}`)).json();
      expect(after).toEqual({ ...own, resellerName: after.resellerName });
      // Sending a protected field back unchanged, as the form does, is no change.
      const contact = await harbor.put('/portal/accounts/', { ...own, city: 'Delft', email: 'ops@harbor.example' });
      expect(contact.statusCode, contact.body).toBe(200);
      expect(contact.json()).toMatchObject({ city: 'Delft', email: 'ops@harbor.example', usageCredit: own.usageCredit });
      const created = await harbor.post('/portal/accounts/', { name: 'Shadow account' });
      expect(created.statusCode).toBe(403);
      expect((await admin.post('/portal/accounts/search', { searchBy: 'name', searchKey: 'Shadow account' })).json().items).toEqual([]);
    });
  });

  describe('every reference in a body names a row the caller may use', () => {
    it("refuses another tenant's or a missing allowed list on a roaming profile, and its networks stay hidden", async () => {
      const blueSkyList = (await admin.post('/portal/allowed-lists/paged', { searchBy: 'name', searchKey: 'Americas' })).json().items[0].allowedListId;
      for (const ids of [[blueSkyList], [999999]]) {
        const res = await northwind.post('/portal/roaming-profiles', {
          name: `Borrowed ${ids[0]}`,
          reference: `BORROW${ids[0]}`.slice(0, 16),
          slots: 1,
          allowedListIds: ids,
        });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().fields).toEqual([expect.objectContaining({ field: 'allowedListIds', rule: 'reference' })]);
      }
      const own = (await northwind.post('/portal/roaming-profiles/paged', {})).json().items[0] as Row;
      const res = await northwind.put(`/portal/roaming-profiles/${own.id}`, { allowedListIds: [blueSkyList] });
      expect(res.statusCode).toBe(400);
      expect((await northwind.get(`/portal/roaming-profiles/${own.id}`)).json().allowedListIds).not.toContain(blueSkyList);
    });

    it("refuses another tenant's zone on a template and another tenant's account on a user", async () => {
      const blueSkyZone = (await admin.post('/portal/zones/location-zones/paged', { searchBy: 'name', searchKey: 'North America' })).json().items[0].id;
      const template = await northwind.post('/portal/pre-paid-packages/templates', {
        name: 'Borrowed zone',
        locationZoneId: blueSkyZone,
        periodDays: 30,
        price: 10,
      });
      expect(template.statusCode, template.body).toBe(400);
      expect(template.json().fields[0]).toMatchObject({ field: 'locationZoneId', rule: 'reference' });
      const cedar = (await admin.post('/portal/accounts/search', { searchBy: 'name', searchKey: 'Cedar Health' })).json().items[0].accountId;
      const managerRole = (await northwind.get('/portal/roles')).json().find((r: Row) => r.name.startsWith('Reseller manager') && r.resellerId === 1).id;
      const user = await northwind.post('/portal/user', {
        username: 'nw.cross',
        email: 'cross@trust.example',
        password: PASSWORD,
        roleId: managerRole,
        accountId: cedar,
      });
      expect(user.statusCode).toBe(400);
      expect(user.json().fields[0]).toMatchObject({ field: 'accountId', rule: 'reference' });
    });
  });

  describe('pickers and lists offer only what the caller may use', () => {
    it('offers a subscriber only the plans the change accepts, and refuses the rest naming the field', async () => {
      const sub =
        (await northwind.post('/portal/subscribers/search', { searchBy: 'resellerName', searchKey: 'Northwind Mobile', page: { page: 0, size: 1 } })).json()
          .items[0] ?? (await northwind.post('/portal/subscribers/paged', { page: { page: 0, size: 1 } })).json().items[0];
      const offered = (await northwind.get(`/portal/subscriber-info/${sub.subscriberId}/pricing-plans`)).json() as Row[];
      const names = offered.map((p) => p.pricingPlanName);
      expect(names).not.toContain('Blue Sky Worldwide');
      expect(names.length).toBeGreaterThan(0);
      const all = (await admin.get('/portal/pricing-plans/')).json().pricingPlans as Row[];
      for (const plan of all) {
        const res = await northwind.post('/portal/subscriber-info/api/', {
          operation: 'pricing-plan',
          subscriberId: sub.subscriberId,
          pricingPlanId: plan.pricingPlanId,
        });
        const accepted = offered.some((p) => p.pricingPlanId === plan.pricingPlanId);
        expect(res.statusCode, `${plan.pricingPlanName}: ${res.body}`).toBe(accepted ? 200 : 400);
        if (!accepted) expect(res.json().fields[0]).toMatchObject({ field: 'pricingPlanId', rule: 'reference' });
      }
    });

    it("shows an account user only its account's plans and its own reseller", async () => {
      const harborAccount = (await harbor.post('/portal/accounts/paged', {})).json().items[0].accountId;
      const plan = (await northwind.get('/portal/pricing-plans/')).json().pricingPlans.find((p: Row) => p.pricingPlanName === 'Europe IoT Standard');
      expect((await northwind.put('/portal/accounts/', { accountId: harborAccount, pricingPlanId: plan.pricingPlanId })).statusCode).toBe(200);
      const lists = (await harbor.get('/portal/pricing-plans/')).json();
      expect(lists.pricingPlans).toEqual([plan]);
      expect(lists.internationalPricingPlans).toEqual([]);
      expect((await harbor.get('/portal/reseller-info/list')).json().map((r: Row) => r.name)).toEqual(['Northwind Mobile']);
      // A reseller manager sees its subtree's plans and the plan its parent assigned it, not another tenant's.
      const nwPlans = (await northwind.get('/portal/pricing-plans/')).json().pricingPlans.map((p: Row) => p.pricingPlanName);
      expect(nwPlans).toEqual(expect.arrayContaining(['Europe IoT Standard', 'Sensors Low Data']));
      expect(nwPlans).not.toContain('Blue Sky Worldwide');
    });
  });

  describe('an account user prices nothing of its own', () => {
    it("offers and accepts only its account's plan for a subscriber, alone or in bulk, and leaves the service class as it is", async () => {
      const harborAccount = (await harbor.post('/portal/accounts/paged', {})).json().items[0].accountId;
      const plans = (await northwind.get('/portal/pricing-plans/')).json().pricingPlans as Row[];
      const own = plans.find((p) => p.pricingPlanName === 'Europe IoT Standard')!;
      // Another plan of Harbor's reseller, which the reseller's own users may give the subscriber.
      const northwindId = (await ctx.db.selectFrom('reseller').select('id').where('name', '=', 'Northwind Mobile').executeTakeFirstOrThrow()).id;
      const otherRow =
        (await ctx.db.selectFrom('pricingPlan').select('id').where('resellerId', '=', northwindId).where('id', '!=', own.pricingPlanId).executeTakeFirst()) ??
        (await ctx.db.insertInto('pricingPlan').values({ name: 'Northwind spare plan', resellerId: northwindId }).returning('id').executeTakeFirstOrThrow());
      const other = { pricingPlanId: otherRow.id };
      expect((await northwind.put('/portal/accounts/', { accountId: harborAccount, pricingPlanId: own.pricingPlanId })).statusCode).toBe(200);
      const sub = (await harbor.post('/portal/subscribers/paged', { page: { page: 0, size: 1 } })).json().items[0];
      const before = await ctx.db
        .selectFrom('subscriber')
        .select(['pricingPlanId', 'serviceClassId'])
        .where('subscriberId', '=', sub.subscriberId)
        .executeTakeFirstOrThrow();
      await ctx.withPrivileges('harbor', [{ privilege: 'SubscriberDetails', subPrivileges: ['Services'] }], async (withServices) => {
        // One subscriber: the change dialog's choices, and the change itself.
        const offered = (await withServices.get(`/portal/subscriber-info/${sub.subscriberId}/pricing-plans`)).json() as Row[];
        expect(offered.map((p) => p.pricingPlanId)).toEqual([own.pricingPlanId]);
        const refused = await withServices.post('/portal/subscriber-info/api/', {
          operation: 'pricing-plan',
          subscriberId: sub.subscriberId,
          pricingPlanId: other.pricingPlanId,
        });
        expect(refused.statusCode, refused.body).toBe(400);
        expect(refused.json().fields[0]).toMatchObject({ field: 'pricingPlanId', rule: 'reference' });
        // In bulk.
        const bulk = await withServices.post('/portal/subscribers/bulk/preview', {
          action: 'pricing-plan',
          params: { pricingPlanId: other.pricingPlanId },
          selection: { ids: [sub.subscriberId] },
        });
        expect(bulk.statusCode, bulk.body).toBe(400);
        expect(bulk.json().fields[0]).toMatchObject({ field: 'params.pricingPlanId', rule: 'exists' });
        // Its service class.
        const serviceClass = await ctx.db.selectFrom('serviceClass').select('id').where('resellerId', '=', -1).executeTakeFirstOrThrow();
        const classChange = await withServices.post(`/portal/subscriber-info/${sub.subscriberId}`, { serviceClassId: serviceClass.id });
        expect(classChange.statusCode, classChange.body).toBe(403);
        expect(classChange.json().fields[0]).toMatchObject({ field: 'serviceClassId', rule: 'protected' });
      });
      expect(
        await ctx.db
          .selectFrom('subscriber')
          .select(['pricingPlanId', 'serviceClassId'])
          .where('subscriberId', '=', sub.subscriberId)
          .executeTakeFirstOrThrow(),
      ).toEqual(before);
      // The reseller's own users still choose among the reseller's plans.
      const nwOffered = (await northwind.get(`/portal/subscriber-info/${sub.subscriberId}/pricing-plans`)).json() as Row[];
      expect(nwOffered.map((p) => p.pricingPlanId)).toContain(other.pricingPlanId);
    });
  });

  describe('no lost update', () => {
    it('refuses a save over a newer row with 409, keeping the newer row', async () => {
      const zone = '/portal/zones/location-zones/1';
      const row = (await admin.get(zone)).json();
      expect(row.version).toEqual(expect.any(Number));
      const first = await admin.put(zone, { ...row, name: 'Europe first' });
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json().version).toBe(row.version + 1);
      const second = await admin.put(zone, { ...row, name: 'Europe second' });
      expect(second.statusCode).toBe(409);
      expect(second.json()).toMatchObject({ code: 'STALE', fields: [{ field: 'version', rule: 'stale' }] });
      expect((await admin.get(zone)).json().name).toBe('Europe first');
      // The same through If-Match, as an API client holding an ETag would.
      const headers = { authorization: `Bearer ${await ctx.login('admin')}`, 'if-match': `"${row.version}"` };
      const ifMatch = await ctx.app.inject({ method: 'PUT', url: zone, headers, payload: { name: 'Europe third' } });
      expect(ifMatch.statusCode).toBe(409);
      expect((await admin.get(zone)).json().name).toBe('Europe first');
    });

    it('changes only the fields a PUT sends, on either update path', async () => {
      const row = (await northwind.post('/portal/roaming-profiles/paged', {})).json().items[0] as Row;
      const full = (await northwind.get(`/portal/roaming-profiles/${row.id}`)).json();
      const renamed = await northwind.send('PUT', '/portal/roaming-profiles', { id: row.id, name: 'Renamed only' });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json()).toMatchObject({
        name: 'Renamed only',
        reference: full.reference,
        slots: full.slots,
        sponsorIds: full.sponsorIds,
        rates: full.rates,
      });
      const account = (await admin.post('/portal/accounts/search', { searchBy: 'name', searchKey: 'Meridian Fleet' })).json().items[0];
      const city = await admin.put('/portal/accounts/', { accountId: account.accountId, city: 'Bremen' });
      expect(city.json()).toMatchObject({ name: 'Meridian Fleet', city: 'Bremen', country: account.country });
      // A required field sent empty is still refused.
      expect((await admin.put('/portal/accounts/', { accountId: account.accountId, name: null })).statusCode).toBe(400);
    });

    it('updates a local plan through POST /portal/pricing-plans/local/{id} as well as PUT', async () => {
      const plan = (await northwind.post('/portal/pricing-plans/local/paged', { searchBy: 'planName', searchKey: 'Global Fleet Premium' })).json().items[0];
      const res = await northwind.post(`/portal/pricing-plans/local/${plan.id}`, { name: 'Global Fleet Premium+' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().name).toBe('Global Fleet Premium+');
    });
  });
});
