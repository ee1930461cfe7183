import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '@server/domains/auth/password';
import { loadSchemas } from '@server/engine/schemas';
import { ADMIN_ONLY, PRIVILEGE_CATALOGUE } from '@shared/privileges';
import { apiRoute, protectedFields, referenceFields } from '@shared/schema';
import { createBody } from './examples';
import { engines, testApp } from './helpers';
import { changeOwnPassword, ENDED, sessionAnswers, STANDS } from './sessionHelpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;

const schemas = loadSchemas();

const fill = (url: string) => url.replace(/:(\w+)/g, (_m, name) => (name === 'id' ? '1' : 'x'));

/**
 * Walks the server's own route table, so a new route is covered the day it is added: every route says who
 * may call it, and the server holds that line for callers without a token, without the privilege, and
 * from another reseller.
 */
describe.each(engines)('access to every route on %s', (engine) => {
  let ctx: Ctx;
  let nobody: ReturnType<Ctx['client']>;
  beforeAll(async () => {
    ctx = await testApp(engine);
    const role = await ctx.db.insertInto('role').values({ name: 'Nothing', resellerId: 3, privileges: '[]' }).returning('id').executeTakeFirstOrThrow();
    await ctx.db
      .insertInto('appUser')
      .values({
        username: 'nobody',
        email: 'nobody@demo.example',
        passwordHash: await hashPassword('Nobody@2026x'),
        firstName: null,
        lastName: null,
        resellerId: 3,
        accountId: null,
        roleId: role.id,
        preferences: null,
      })
      .execute();
    nobody = ctx.client(await ctx.login('nobody', 'Nobody@2026x'));
  });
  afterAll(async () => ctx?.close());

  it('knows what every route requires', () => {
    const routes = ctx.app.portalRoutes;
    const count = (access: string) => routes.filter((r) => r.access === access).length;
    console.log(
      `routes: ${routes.length} (public ${count('public')}, signed-in ${count('signedIn')}, admin ${count('admin')}, privilege ${count('privilege')})`,
    );
    expect(routes.length).toBeGreaterThan(30);
    expect(count('public')).toBeLessThanOrEqual(7); // sign-in, version, reset (2), join (3)
  });

  it('answers 401 to every non-public route without a token', async () => {
    for (const r of ctx.app.portalRoutes.filter((x) => x.access !== 'public')) {
      const res = await ctx.app.inject({ method: r.method as 'GET', url: fill(r.url), payload: r.method === 'GET' || r.method === 'DELETE' ? undefined : {} });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(401);
    }
  });

  it('answers 403 to every privileged route for a user without the privilege, and to admin routes for a reseller', async () => {
    const bluesky = await ctx.as('bluesky');
    for (const r of ctx.app.portalRoutes.filter((x) => x.access === 'privilege' || x.access === 'admin')) {
      const caller = r.access === 'admin' ? bluesky : nobody;
      const res = await caller.send(r.method as 'GET', fill(r.url), r.method === 'GET' || r.method === 'DELETE' ? undefined : {});
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
    }
  });

  /**
   * A row of Northwind Mobile (reseller 1) to attack: made for the test from the schema's rules by Northwind's manager
   * (by the administrator for Northwind when the manager may not create it); an entity the portal does not create
   * offers a seeded row instead.
   */
  async function northwindRow(schema: (typeof schemas)[number]): Promise<unknown> {
    const key = schema['x-entity'].key;
    const create = apiRoute(schema, 'create');
    if (!create) {
      const admin = await ctx.as('admin');
      const rows = (await admin.post(apiRoute(schema, 'paged')!.path, { searchBy: 'resellerId', searchKey: '1', page: { page: 0, size: 1 } })).json().items;
      expect(rows.length, 'a seeded Northwind row to attack').toBe(1);
      return rows[0][key];
    }
    const northwind = await ctx.as('northwind');
    const body = await createBody(schema, northwind, schemas, { fromRules: true, resellerId: 1 }).catch(() => undefined);
    let res = body && (await northwind.send(create.method, create.path, body));
    if (!res || res.statusCode === 403) {
      const admin = await ctx.as('admin');
      res = await admin.send(create.method, create.path, { ...(await createBody(schema, admin, schemas, { fromRules: true, resellerId: 1 })), resellerId: 1 });
    }
    expect(res.statusCode, `a Northwind row to attack: ${res.body}`).toBe(201);
    expect(res.json().resellerId).toBe(1);
    return res.json()[key];
  }

  describe.each(schemas.filter((s) => s['x-entity'].scope === 'reseller').map((s) => [s.$id, s] as const))('rows of %s', (_id, schema) => {
    it('stay out of reach of another reseller, unchanged', async () => {
      const admin = await ctx.as('admin');
      const bluesky = await ctx.as('bluesky');
      const key = schema['x-entity'].key;
      const paged = apiRoute(schema, 'paged')!;
      const id = String(await northwindRow(schema));
      const before = (await admin.get(apiRoute(schema, 'get')!.path.replace('{id}', id))).json();
      expect((await bluesky.get(apiRoute(schema, 'get')!.path.replace('{id}', id))).statusCode).toBe(404);
      const update = apiRoute(schema, 'update');
      if (update) {
        const field = ['name', 'label', 'lastName', 'city'].find((f) => f in schema.properties)!;
        const res = await bluesky.send(update.method, update.path.replace('{id}', id), { ...before, [field]: 'Taken over' });
        expect([403, 404], `update: ${res.body}`).toContain(res.statusCode);
      }
      const remove = apiRoute(schema, 'delete');
      if (remove) expect([403, 404]).toContain((await bluesky.send(remove.method, remove.path.replace('{id}', id))).statusCode);
      const seen = (await bluesky.post(paged.path, { page: { page: 0, size: 500 } })).json().items.map((r: Record<string, unknown>) => r[key]);
      expect(seen.map(String)).not.toContain(id);
      const create = apiRoute(schema, 'create');
      if (create) {
        const planted = {
          ...(await createBody(schema, bluesky, schemas, { fromRules: true, resellerId: 3 }).catch(() => ({}))),
          ...Object.fromEntries(
            Object.entries({ name: 'Planted row', username: 'planted', email: 'planted@x.example' }).filter(([k]) => k in schema.properties),
          ),
        };
        const res = await bluesky.send(create.method, create.path, { ...planted, resellerId: 1 });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().fields.map((f: { field: string }) => f.field)).toContain('resellerId');
      }
      expect((await admin.get(apiRoute(schema, 'get')!.path.replace('{id}', id))).json()).toEqual(before);
    });
  });

  // The reseller's own business (its plans, zones, profiles, groups…): an account's user of the reseller reads, never
  // writes, whatever its role grants.
  describe.each(schemas.filter((s) => s['x-entity'].resellerWrites).map((s) => [s.$id, s] as const))('rows of %s', (_id, schema) => {
    it('are never written by an account user of their reseller, whatever its role holds', async () => {
      const admin = await ctx.as('admin');
      const { table, key } = schema['x-entity'];
      // A Northwind row: one there is (the test above may have made it), else a new one.
      const found = await ctx.db
        .selectFrom(table as 'reseller')
        .select(key as 'id')
        .where('resellerId' as 'id', '=', 1)
        .executeTakeFirst();
      const id = String(found ? found[key as 'id'] : await northwindRow(schema));
      const get = apiRoute(schema, 'get')!.path.replace('{id}', id);
      const before = (await admin.get(get)).json();
      const count = async () =>
        Number(
          (
            await ctx.db
              .selectFrom(table as 'reseller')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const rows = await count();
      await ctx.withPrivileges('harbor', [schema['x-entity'].privilege], async (harbor) => {
        const create = apiRoute(schema, 'create');
        if (create) {
          const res = await harbor.send(create.method, create.path, await createBody(schema, admin, schemas, { fromRules: true, resellerId: 1 }));
          expect(res.statusCode, `create: ${res.body}`).toBe(403);
        }
        const update = apiRoute(schema, 'update');
        if (update) {
          const field = ['name', 'label', 'lastName', 'city'].find((f) => f in schema.properties)!;
          const res = await harbor.send(update.method, update.path.replace('{id}', id), { ...before, [field]: 'Changed by an account' });
          expect(res.statusCode, `update: ${res.body}`).toBe(403);
        }
        const remove = apiRoute(schema, 'delete');
        if (remove) expect((await harbor.send(remove.method, remove.path.replace('{id}', id))).statusCode).toBe(403);
      });
      expect((await admin.get(get)).json()).toEqual(before);
      expect(await count()).toBe(rows);
    });
  });

  it('answers 403 to a provider user without the Administrator privilege on every administrator route', async () => {
    const role = await ctx.db
      .insertInto('role')
      .values({ name: 'Provider support', resellerId: -1, privileges: JSON.stringify(PRIVILEGE_CATALOGUE.filter((p) => p.privilege !== ADMIN_ONLY)) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.db
      .insertInto('appUser')
      .values({
        username: 'support',
        email: 'support@provider.example',
        passwordHash: await hashPassword('Support@2026x'),
        firstName: null,
        lastName: null,
        resellerId: -1,
        accountId: null,
        roleId: role.id,
        preferences: null,
      })
      .execute();
    const support = ctx.client(await ctx.login('support', 'Support@2026x'));
    const admin = ctx.app.portalRoutes.filter((r) => r.access === 'admin');
    expect(admin.length).toBeGreaterThan(3);
    for (const r of admin) {
      const res = await support.send(r.method as 'GET', fill(r.url), r.method === 'GET' || r.method === 'DELETE' ? undefined : {});
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
    }
  });

  it('refuses an old token after a password change, renewal included, while the changing session goes on', async () => {
    const role = await ctx.db.insertInto('role').values({ name: 'Changer', resellerId: 3, privileges: '[]' }).returning('id').executeTakeFirstOrThrow();
    await ctx.db
      .insertInto('appUser')
      .values({
        username: 'changer',
        email: 'changer@demo.example',
        passwordHash: await hashPassword('Changer@2026x'),
        firstName: null,
        lastName: null,
        resellerId: 3,
        accountId: null,
        roleId: role.id,
        preferences: null,
      })
      .execute();
    const elsewhere = ctx.client(await ctx.login('changer', 'Changer@2026x'));
    const here = ctx.client(await ctx.login('changer', 'Changer@2026x'));
    expect(await sessionAnswers(elsewhere)).toEqual(STANDS);
    const fresh = ctx.client(await changeOwnPassword(here, 'Changer@2026x', 'Changed@2026y'));
    expect(await sessionAnswers(elsewhere)).toEqual(ENDED);
    expect(await sessionAnswers(here)).toEqual(ENDED);
    expect(await sessionAnswers(fresh)).toEqual(STANDS);
  });

  it('refuses to act on a more powerful user: no change of e-mail or password, no delete', async () => {
    const role = await ctx.db
      .insertInto('role')
      .values({ name: 'User clerk', resellerId: 1, privileges: JSON.stringify([{ privilege: 'Users', subPrivileges: [] }]) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.db
      .insertInto('appUser')
      .values({
        username: 'clerk',
        email: 'clerk@demo.example',
        passwordHash: await hashPassword('Clerk@2026x'),
        firstName: null,
        lastName: null,
        resellerId: 1,
        accountId: null,
        roleId: role.id,
        preferences: null,
      })
      .execute();
    const clerk = ctx.client(await ctx.login('clerk', 'Clerk@2026x'));
    const manager = await ctx.db.selectFrom('appUser').selectAll().where('username', '=', 'northwind').executeTakeFirstOrThrow();
    for (const res of [
      await clerk.put('/portal/user', { userId: manager.id, email: 'taken@evil.example' }),
      await clerk.put('/portal/user', { userId: manager.id, password: 'Taken@2026over' }),
      await clerk.delete(`/portal/user/${manager.id}`),
    ])
      expect(res.statusCode, res.body).toBe(403);
    expect(await ctx.db.selectFrom('appUser').selectAll().where('id', '=', manager.id).executeTakeFirstOrThrow()).toEqual(manager);
  });

  it("keeps labs to each tenant: a reseller switches neither another tenant's nor the provider's, an account user none", async () => {
    const bluesky = await ctx.as('bluesky');
    const harbor = await ctx.as('harbor');
    for (const resellerId of [1, 2, -1]) {
      expect((await bluesky.put('/portal/labs/subscriberSms', { enabled: false, resellerId })).statusCode, `${resellerId}`).toBe(403);
      expect((await bluesky.get(`/portal/labs?resellerId=${resellerId}`)).statusCode, `${resellerId}`).toBe(403);
    }
    expect((await harbor.put('/portal/labs/subscriberSms', { enabled: false })).statusCode).toBe(403);
    expect(await ctx.db.selectFrom('labSwitch').selectAll().execute()).toEqual([]);
  });

  it("keeps payments to each tenant: no other reseller's payment, card, account or limits by id, administrator calls refused to resellers", async () => {
    const admin = await ctx.as('admin');
    const northwind = await ctx.as('northwind');
    const bluesky = await ctx.as('bluesky');
    const iot = await ctx.as('northwind-iot');
    const harbor = await ctx.as('harbor');
    const manual = await admin.post('/portal/payments/submit/manual', { resellerId: 1, amount: 10, description: 'Access check' });
    expect(manual.statusCode, manual.body).toBe(201);
    const id = manual.json().id as number;
    const card = await northwind.post('/portal/payments/methods/credit-cards', {
      number: '4242424242424242',
      holderName: 'Nora Demo',
      holderIdNumber: '123456782',
      expiryMonth: 12,
      expiryYear: 2099,
    });
    expect(card.statusCode, card.body).toBe(201);
    const account = (await ctx.db.selectFrom('account').select('accountId').where('name', '=', 'Harbor Logistics').executeTakeFirstOrThrow()).accountId;
    const reads: [string, 'GET' | 'POST' | 'PUT' | 'DELETE', string, unknown?][] = [
      ['payment', 'GET', `/portal/payments/${id}`],
      ['invoice', 'GET', `/portal/payments/bit-pay/${id}`],
      ['list', 'POST', '/portal/payments/paged', { resellerId: 1 }],
      ['limits', 'GET', '/portal/payments/parameters?reseller_id=1'],
      ['set limits', 'PUT', '/portal/payments/parameters/resellers/1', { cardDailyLimit: 1 }],
      ['card', 'DELETE', `/portal/payments/methods/credit-cards/${card.json().id}`],
      ['account payments', 'GET', `/portal/accounts/${account}/payments`],
      ['account list', 'POST', `/portal/accounts/${account}/payments/paged`, {}],
    ];
    for (const caller of [bluesky, iot]) {
      for (const [what, method, url, body] of reads) expect((await caller.send(method, url, body)).statusCode, what).toBe(404);
    }
    // An account user reaches no reseller's payments, and its privileges give it no payment calls.
    expect((await harbor.get(`/portal/payments/${id}`)).statusCode).toBe(403);
    expect((await harbor.post('/portal/payments/paged', {})).statusCode).toBe(403);
    for (const [url, body] of [
      [`/portal/payments/bank-wires/${id}/confirm`, undefined],
      [`/portal/payments/bank-wires/${id}/reject`, undefined],
      ['/portal/payments/reset', { paymentIds: [id] }],
      ['/portal/payments/submit/manual', { resellerId: 1, amount: 5, description: 'Self credit' }],
    ] as const)
      expect((await northwind.post(url, body)).statusCode, url).toBe(403);
    expect((await northwind.get(`/portal/payments/bank-wires/${id}/proof`)).statusCode).toBe(403);
    expect((await northwind.get('/portal/payments/bank-wires/pending')).statusCode).toBe(403);
    // Nobody sets its own limits; the provider's defaults are the administrator's.
    expect((await northwind.put('/portal/payments/parameters/resellers/1', { cardDailyLimit: 1 })).statusCode).toBe(403);
    expect((await northwind.put('/portal/payments/parameters/resellers/-1', { cardDailyLimit: 1 })).statusCode).toBe(403);
    expect((await northwind.get(`/portal/payments/${id}`)).statusCode).toBe(200);
    expect((await ctx.db.selectFrom('payment').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('confirmed');
    expect(await ctx.db.selectFrom('paymentParameters').select('resellerId').where('resellerId', '=', 1).execute()).toEqual([]);
  });

  describe.each(
    loadSchemas()
      .filter((s) => s['x-entity'].tenant && protectedFields(s).length)
      .map((s) => [s.$id, s] as const),
  )('own tenant row of %s', (_id, schema) => {
    it('keeps its protected fields from a user inside the tenant, and writes nothing', async () => {
      // The account user of Harbor Logistics on its own account; Blue Sky Telecom's manager on its own reseller.
      const accountTenant = schema['x-entity'].tenant === 'account';
      const insider = await ctx.as(accountTenant ? 'harbor' : 'bluesky');
      const key = schema['x-entity'].key;
      const own = (await insider.post(apiRoute(schema, 'paged')!.path, {})).json().items[0];
      const update = apiRoute(schema, 'update')!;
      const example = await createBody(schema, insider, schemas);
      for (const field of protectedFields(schema)) {
        const prop = schema.properties[field];
        // A valid value other than the stored one: only the rule that the field is protected refuses it.
        const text = prop.enum ? prop.enum.find((v) => v !== own[field]) : example[field];
        const value = prop.type === 'boolean' ? !own[field] : prop.type === 'number' ? 12345 : prop.type === 'string' ? text : 3;
        const res = await insider.send(update.method, update.path.replace('{id}', own[key]), { [key]: own[key], [field]: value });
        expect(res.statusCode, `${field}: ${res.body}`).toBe(403);
        expect(res.json().fields.map((f: { field: string }) => f.field)).toEqual([field]);
      }
      expect((await insider.get(apiRoute(schema, 'get')!.path.replace('{id}', own[key]))).json()).toEqual(own);
      // An account user creates no accounts; a reseller does create resellers below it.
      const create = apiRoute(schema, 'create');
      if (create && accountTenant) expect((await insider.send(create.method, create.path, example)).statusCode).toBe(403);
    });
  });

  describe.each(
    loadSchemas()
      .filter((s) => apiRoute(s, 'create') && referenceFields(s).length)
      .map((s) => [s.$id, s] as const),
  )('references of %s', (_id, schema) => {
    it.each(referenceFields(schema).map((r) => [r.field, r] as const))("refuses %s naming another tenant's row or none at all", async (_field, ref) => {
      const bluesky = await ctx.as('bluesky');
      const many = schema.properties[ref.field].type === 'array';
      // A row of Northwind Mobile (reseller 1) where the referenced entity belongs to resellers; a missing id in any case.
      const targets: number[] = [2147483000];
      if (ref.entity === 'reseller') targets.push(1);
      else {
        const referenced = loadSchemas().find((s) => s.$id === ref.entity)!;
        if (referenced['x-entity'].scope === 'reseller') targets.push((await northwindRow(referenced)) as number);
      }
      const create = apiRoute(schema, 'create')!;
      // The example's other references: the required ones to a row of the caller's own, the rest left out.
      const example: Record<string, unknown> = Object.fromEntries(
        Object.entries(await createBody(schema, bluesky, schemas)).filter(([k]) => referenceFields(schema).every((r) => r.field !== k)),
      );
      for (const other of referenceFields(schema).filter((r) => r.field !== ref.field && (schema.required ?? []).includes(r.field))) {
        const referenced = loadSchemas().find((s) => s.$id === other.entity)!;
        const [own] = (await bluesky.post(apiRoute(referenced, 'paged')!.path, { page: { page: 0, size: 1 } })).json().items;
        example[other.field] = own[referenced['x-entity'].key];
      }
      for (const target of targets) {
        const fresh = Object.fromEntries(
          Object.entries({ name: `Reference ${target}`, username: `ref.${target}`, email: `ref.${target}@x.example` }).filter(([k]) => k in schema.properties),
        );
        const body = { ...example, ...fresh, [ref.field]: many ? [target] : target };
        const res = await bluesky.send(create.method, create.path, body);
        expect(res.statusCode, `${ref.field} = ${target}: ${res.body}`).toBe(400);
        expect(res.json().fields.map((f: { field: string }) => f.field)).toContain(ref.field);
      }
    });
  });
});
