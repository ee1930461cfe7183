import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '@server/app';
import { loadSchemas } from '@server/engine/schemas';
import { apiRoute, filterFields, type EntitySchema } from '@shared/schema';
import { createBody } from './examples';
import { ADMIN_PASSWORD, engines, testApp } from './helpers';

const schemas = loadSchemas();

/** Every schema in schemas/ gets the same round trip through the generated calls. */
describe.each(engines)('schema contract on %s', (engine) => {
  let ctx: Awaited<ReturnType<typeof testApp>>;
  beforeAll(async () => {
    ctx = await testApp(engine);
  });
  afterAll(async () => ctx?.close());

  describe.each(schemas.map((s) => [s.$id, s] as const))('%s', (_id, schema: EntitySchema) => {
    const call = (op: Parameters<typeof apiRoute>[1], id?: number) => {
      const route = apiRoute(schema, op)!;
      return { method: route.method, url: route.path.replace('{id}', String(id)) };
    };

    it('has a default sort, columns and filters that exist', () => {
      expect(schema.properties[schema['x-list'].defaultSort.sortBy]).toBeDefined();
      for (const c of schema['x-columns']) expect(schema.properties[c.field], c.field).toBeDefined();
      for (const f of schema['x-list'].search) for (const field of filterFields(f)) expect(schema.properties[field], field).toBeDefined();
    });

    const creatable = Boolean(apiRoute(schema, 'create'));

    // Entities the portal does not create (subscribers come from SIM orders) round-trip a seeded row instead.
    it.runIf(!creatable)('reads, lists, searches and updates a seeded row', async () => {
      const admin = await ctx.as('admin');
      const key = schema['x-entity'].key;
      const page = (await admin.post(call('paged').url, { sortBy: key, sortDir: 'desc', page: { page: 0, size: 1 } })).json();
      expect(page.totalItemsCount).toBeGreaterThan(0);
      const row = page.items[0];
      expect((await admin.get(call('get', row[key]).url)).json()).toEqual(row);
      for (const filter of schema['x-list'].search) {
        const res = await admin.post(call('paged').url, { searchBy: filter.by, searchKey: 'zz' });
        expect(res.statusCode, filter.by).toBe(200);
      }
      const update = call('update', row[key]);
      const example = await createBody(schema, admin, schemas);
      const updated = await admin.send(update.method, update.url, { ...row, ...example });
      expect(updated.statusCode, updated.body).toBe(200);
      expect(updated.json()).toMatchObject(example);
    });

    it.runIf(creatable)('creates, reads, lists, searches and updates its example (its own, or one made from its rules)', async () => {
      const admin = await ctx.as('admin');
      const example = await createBody(schema, admin, schemas);
      const create = call('create');
      const created = await admin.send(create.method, create.url, example);
      expect(created.statusCode, created.body).toBe(201);
      const key = schema['x-entity'].key;
      const id = created.json()[key] as number;
      const readable = Object.fromEntries(Object.entries(example).filter(([k]) => !schema.properties[k].writeOnly));
      expect(created.json()).toMatchObject(readable);
      for (const [k, p] of Object.entries(schema.properties)) if (p.writeOnly) expect(created.json()).not.toHaveProperty(k);
      const read = await admin.get(call('get', id).url);
      expect(read.json()).toEqual(created.json());
      const page = (await admin.post(call('paged').url, { sortBy: key, sortDir: 'desc', page: { page: 0, size: 1 } })).json();
      expect(page.items[0][key]).toBe(id);
      for (const filter of schema['x-list'].search) {
        const res = await admin.post(call('paged').url, { searchBy: filter.by, searchKey: 'zz' });
        expect(res.statusCode, filter.by).toBe(200);
      }
      const update = call('update', id);
      const updated = await admin.send(update.method, update.url, created.json() as object);
      expect(updated.statusCode, updated.body).toBe(200);
    });
  });
});

describe('an entity given to the server is one schema and one table', () => {
  const contractProbe = {
    $id: 'contractProbe',
    title: 'entity.contractProbe.title',
    type: 'object',
    required: ['name'],
    properties: {
      id: { type: 'integer', readOnly: true },
      name: { type: 'string', minLength: 2, maxLength: 50, 'x-unique': true, errorMessage: { minLength: 'validation.name.invalid' } },
      vendor: { type: 'string', maxLength: 50 },
      resellerId: { type: 'integer' },
    },
    'x-entity': { name: 'contractProbe', domain: 'contract-probes', table: 'contract_probe', key: 'id', privilege: 'Inventory', scope: 'reseller' },
    'x-api': {
      paged: 'POST /portal/contract-probes/paged',
      get: 'GET /portal/contract-probes/{id}',
      create: 'POST /portal/contract-probes/',
      update: 'PUT /portal/contract-probes/',
      delete: 'DELETE /portal/contract-probes/{id}',
    },
    'x-list': { defaultSort: { sortBy: 'name', sortDir: 'asc' }, search: [{ by: 'vendor' }] },
    'x-columns': [{ field: 'name' }],
  } as unknown as EntitySchema;

  it('gets validated, scoped calls including delete', async () => {
    const ctx = await testApp('pglite');
    // What its migration holds: the table, with the version every updated entity carries and the trigger raising it.
    await sql`create table contract_probe (id serial primary key, name text not null, vendor text, reseller_id integer not null references reseller(id), version integer not null default 1)`.execute(
      ctx.db,
    );
    await sql`create trigger contract_probe_version before update on contract_probe for each row execute function raise_row_version()`.execute(ctx.db);
    const app = await buildApp({ database: { ...ctx.database, close: async () => {} }, jwtSecret: 'test-secret', schemas: [...schemas, contractProbe] });
    const jwt = (await app.inject({ method: 'POST', url: '/portal/auth', payload: { userName: 'northwind', password: ctx.demoPassword } })).json().jwt;
    const headers = { authorization: `Bearer ${jwt}` };
    const created = await app.inject({ method: 'POST', url: '/portal/contract-probes/', headers, payload: { name: 'Quectel EG25', vendor: 'Quectel' } });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Quectel EG25', resellerId: 1 });
    const bad = await app.inject({ method: 'POST', url: '/portal/contract-probes/', headers, payload: { name: 'Q' } });
    expect(bad.json().fields[0]).toMatchObject({ field: 'name', rule: 'minLength', message: 'Name must be valid' });
    const found = await app.inject({ method: 'POST', url: '/portal/contract-probes/paged', headers, payload: { searchBy: 'vendor', searchKey: 'quec' } });
    expect(found.json().totalItemsCount).toBe(1);
    const adminJwt = (await app.inject({ method: 'POST', url: '/portal/auth', payload: { userName: 'admin', password: ADMIN_PASSWORD } })).json().jwt;
    const blueSky = (await app.inject({ method: 'POST', url: '/portal/auth', payload: { userName: 'bluesky', password: ctx.demoPassword } })).json().jwt;
    expect(
      (await app.inject({ method: 'DELETE', url: `/portal/contract-probes/${created.json().id}`, headers: { authorization: `Bearer ${blueSky}` } })).statusCode,
    ).toBe(404);
    expect((await app.inject({ method: 'DELETE', url: `/portal/contract-probes/${created.json().id}`, headers })).statusCode).toBe(204);
    expect(
      (await app.inject({ method: 'GET', url: `/portal/contract-probes/${created.json().id}`, headers: { authorization: `Bearer ${adminJwt}` } })).statusCode,
    ).toBe(404);
    await app.close();
    await ctx.close();
    // Two servers are built here, each compiling every route's validators: more than the usual time on a busy machine.
  }, 90_000);
});
