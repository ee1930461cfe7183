import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { normaliseListRequest } from '@shared/schema';
import { queryBatches } from '@server/engine/csv';
import { EntityRepository } from '@server/engine/repository';
import { loadSchemas } from '@server/engine/schemas';
import type { Engine } from '@server/db';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;

/** Rows of a CSV answer as objects keyed by its header, after checking the mark that tells spreadsheets it is UTF-8. */
function rowsOf(body: string): Record<string, string>[] {
  expect(body.charCodeAt(0)).toBe(0xfeff);
  const parsed = Papa.parse<Record<string, string>>(body.slice(1), { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  return parsed.data;
}

describe.each(engines)('streamed CSV downloads on %s', (engine) => {
  let ctx: Ctx;
  let admin: Client;

  beforeAll(async () => {
    ctx = await testApp(engine);
    admin = await ctx.as('admin');
  });
  afterAll(async () => ctx?.close());

  const download = (c: Client, body: object, query = '?include_inventory=true') => c.post(`/portal/accounts/list/download${query}`, body);
  const paged = (c: Client, body: object, query = '?include_inventory=true') =>
    c.post(`/portal/accounts/paged${query}`, { ...body, page: { page: 0, size: 200 } });

  it('sends every row of the search as an attachment, one column per property', async () => {
    const res = await download(admin, {});
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="account-\d{4}-\d{2}-\d{2}\.csv"$/);
    const rows = rowsOf(res.body);
    const page = (await paged(admin, {})).json();
    expect(rows).toHaveLength(page.totalItemsCount);
    expect(Object.keys(rows[0])).toEqual(expect.arrayContaining(['accountId', 'name', 'resellerId', 'resellerName', 'usageCredit']));
    expect(rows.map((r) => Number(r.accountId))).toEqual(page.items.map((a: { accountId: number }) => a.accountId));
  });

  it('follows the search and the sort of the list', async () => {
    const body = { searchBy: 'name', searchKey: 'a', sortBy: 'name', sortDir: 'desc' };
    const rows = rowsOf((await download(admin, body)).body);
    const page = (await paged(admin, body)).json();
    expect(rows.map((r) => r.name)).toEqual(page.items.map((a: { name: string }) => a.name));
    expect(rows.length).toBeLessThan((await paged(admin, {})).json().totalItemsCount);
  });

  it("keeps a reseller to its own subtree's rows", async () => {
    const northwind = await ctx.as('northwind');
    const rows = rowsOf((await download(northwind, {})).body);
    const page = (await paged(northwind, {})).json();
    expect(rows).toHaveLength(page.totalItemsCount);
    expect(new Set(rows.map((r) => r.resellerName))).toEqual(new Set(page.items.map((a: { resellerName: string }) => a.resellerName)));
    expect(rows.length).toBeLessThan(rowsOf((await download(admin, {})).body).length);
  });

  it('neutralises formulas and keeps exact decimals', async () => {
    const created = await admin.post('/portal/accounts/', { name: 'Formula Test', city: '=HYPERLINK("http://evil")', usageCredit: 1234.5, resellerId: 1 });
    expect(created.statusCode).toBe(201);
    const [row] = rowsOf((await download(admin, { searchBy: 'name', searchKey: 'Formula Test' })).body);
    expect(row.city).toBe(`'=HYPERLINK("http://evil")`);
    expect(row.usageCredit).toMatch(/^1234\.50?$/);
  });

  it('refuses a sort outside the whitelist and a caller without the privilege, writing nothing', async () => {
    const bad = await download(admin, { sortBy: 'password_hash' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields[0].field).toBe('sortBy');
    const anonymous = await ctx.app.inject({ method: 'POST', url: '/portal/accounts/list/download', payload: {} });
    expect(anonymous.statusCode).toBe(401);
  });

  it('never writes a password hash into the users download', async () => {
    const res = await admin.post('/portal/user/list/download', {});
    expect(res.statusCode).toBe(200);
    const header = res.body.slice(1).split('\r\n')[0];
    expect(header).toContain('username');
    expect(header.toLowerCase()).not.toContain('password');
  });

  it('reads a query batch by batch, every row once, in order', async () => {
    const schema = loadSchemas().find((s) => s.$id === 'account')!;
    const repo = new EntityRepository(ctx.db, schema);
    const req = normaliseListRequest(schema, { sortBy: 'name', sortDir: 'asc' }, true);
    const adminPrincipal = { isAdmin: true } as never;
    const batches: number[] = [];
    const names: string[] = [];
    for await (const rows of queryBatches(
      ctx.db,
      engine as Engine,
      repo.exportQuery(req, { principal: adminPrincipal, query: { include_inventory: 'true' } }),
      4,
    )) {
      batches.push(rows.length);
      names.push(...rows.map((r) => String(r.name)));
    }
    const all = (await paged(admin, { sortBy: 'name', sortDir: 'asc' })).json().items.map((a: { name: string }) => a.name);
    expect(names).toEqual(all);
    expect(batches.slice(0, -1).every((n) => n === 4)).toBe(true);
    expect(batches.length).toBe(Math.ceil(all.length / 4));
  });
});
