import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '@server/domains/auth/password';
import { loadSchemas } from '@server/engine/schemas';
import { apiRoute } from '@shared/schema';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;

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
    await ctx.db.insertInto('appUser').values({ username: 'nobody', email: 'nobody@demo.example', passwordHash: await hashPassword('Nobody@2026x'), firstName: null, lastName: null, resellerId: 3, accountId: null, roleId: role.id, preferences: null }).execute();
    nobody = ctx.client(await ctx.login('nobody', 'Nobody@2026x'));
  });
  afterAll(async () => ctx?.close());

  it('knows what every route requires', () => {
    const routes = ctx.app.portalRoutes;
    const count = (access: string) => routes.filter((r) => r.access === access).length;
    console.log(`routes: ${routes.length} (public ${count('public')}, signed-in ${count('signedIn')}, admin ${count('admin')}, privilege ${count('privilege')})`);
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

  describe.each(loadSchemas().filter((s) => s['x-entity'].scope === 'reseller').map((s) => [s.$id, s] as const))('rows of %s', (_id, schema) => {
    it('stay out of reach of another reseller, unchanged', async () => {
      const admin = await ctx.as('admin');
      const bluesky = await ctx.as('bluesky');
      const key = schema['x-entity'].key;
      const paged = apiRoute(schema, 'paged')!;
      // A row of Northwind Mobile (reseller 1).
      const rows = (await admin.post(paged.path, { searchBy: 'resellerId', searchKey: '1', page: { page: 0, size: 1 } })).json().items;
      expect(rows.length, 'a Northwind row to attack').toBe(1);
      const id = rows[0][key];
      const before = (await admin.get(apiRoute(schema, 'get')!.path.replace('{id}', id))).json();
      expect((await bluesky.get(apiRoute(schema, 'get')!.path.replace('{id}', id))).statusCode).toBe(404);
      const update = apiRoute(schema, 'update');
      if (update) {
        const field = 'name' in schema.properties ? 'name' : 'lastName';
        const res = await bluesky.send(update.method, update.path.replace('{id}', id), { ...before, [field]: 'Taken over' });
        expect([403, 404], `update: ${res.body}`).toContain(res.statusCode);
      }
      const remove = apiRoute(schema, 'delete');
      if (remove) expect([403, 404]).toContain((await bluesky.send(remove.method, remove.path.replace('{id}', id))).statusCode);
      const seen = (await bluesky.post(paged.path, { page: { page: 0, size: 500 } })).json().items.map((r: Record<string, unknown>) => r[key]);
      expect(seen).not.toContain(id);
      const create = apiRoute(schema, 'create');
      if (create && schema.examples?.[0]) {
        const planted = Object.fromEntries(Object.entries({ ...schema.examples[0], name: 'Planted row', username: 'planted', email: 'planted@x.example' }).filter(([k]) => k in schema.properties));
        const res = await bluesky.send(create.method, create.path, { ...planted, resellerId: 1 });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().fields.map((f: { field: string }) => f.field)).toContain('resellerId');
      }
      expect((await admin.get(apiRoute(schema, 'get')!.path.replace('{id}', id))).json()).toEqual(before);
    });
  });
});
