import { describe, expect, it } from 'vitest';
import { MOCK_PASSWORD } from './data';
import { MOCK_BASE as BASE, useMockServer } from './testServer';

useMockServer();

async function signIn(userName: string): Promise<string> {
  const res = await fetch(`${BASE}/auth`, { method: 'POST', body: JSON.stringify({ userName, password: MOCK_PASSWORD }) });
  return ((await res.json()) as { jwt: string }).jwt;
}

async function call(token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${BASE}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: res.status === 204 ? null : await res.json() };
}

describe('mock backend', () => {
  it('refuses bad credentials and calls without a token', async () => {
    const bad = await fetch(`${BASE}/auth`, { method: 'POST', body: JSON.stringify({ userName: 'nora', password: 'x' }) });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ statusCode: 401, code: 'BAD_CREDENTIALS' });
    expect((await fetch(`${BASE}/accounts/list`)).status).toBe(401);
  });

  it('pages, sorts and searches like the server, within the caller’s resellers', async () => {
    const token = await signIn('nora');
    const page = await call(token, 'POST', '/accounts/paged?include_inventory=true', { sortBy: 'name', sortDir: 'desc', page: { page: 0, size: 2 } });
    expect(page.body).toMatchObject({ totalItemsCount: 5, totalPageCount: 3, currentPage: 0 });
    expect(page.body.items.map((r: { name: string }) => r.name)).toEqual(['Northwind Stock', 'Echo Metering']);

    const withoutInventory = await call(token, 'POST', '/accounts/paged', {});
    expect(withoutInventory.body.totalItemsCount).toBe(4);

    const search = await call(token, 'POST', '/accounts/search?include_inventory=true', { searchBy: 'multi', searchKey: '103' });
    expect(search.body.items.map((r: { name: string }) => r.name)).toEqual(['Cobalt Sensors']);
  });

  it('refuses what the server refuses at the edge: a lone surrogate in a name, search text over 200 characters', async () => {
    const token = await signIn('nora');
    const created = await call(token, 'POST', '/accounts/', { name: 'Surrogate \ud800 Ltd' });
    expect(created.status).toBe(400);
    expect(created.body.fields).toEqual([expect.objectContaining({ field: 'name', rule: 'characters', messageId: 'validation.character.notAllowed' })]);
    const long = await call(token, 'POST', '/accounts/search', { searchBy: 'name', searchKey: 'x'.repeat(201) });
    expect(long.status).toBe(400);
  });

  it('answers 400 for a filter the schema does not allow', async () => {
    const token = await signIn('nora');
    const res = await call(token, 'POST', '/accounts/search', { searchBy: 'resellerName', searchKey: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.fields[0]).toMatchObject({ field: 'searchBy', messageId: 'validation.searchBy.invalid' });
  });

  it('creates, reads and updates, with 409 on a duplicate name', async () => {
    const token = await signIn('nora');
    const created = await call(token, 'POST', '/accounts/', { name: 'Gamma Ports', city: 'Genoa', resellerId: 11 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ accountId: 107, resellerName: 'Harbor IoT' });
    expect((await call(token, 'GET', '/accounts/107')).body.name).toBe('Gamma Ports');

    const duplicate = await call(token, 'POST', '/accounts/', { name: 'alpha logistics', resellerId: 10 });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.fields).toEqual([{ field: 'name', rule: 'unique', messageId: 'entity.account.unique', message: 'account name already exists' }]);

    // A PUT changes the fields it sends; the version it was read at guards against a lost update.
    const updated = await call(token, 'PUT', '/accounts/', { accountId: 107, name: 'Gamma Harbour', resellerId: 11, version: 1 });
    expect(updated.body).toMatchObject({ accountId: 107, name: 'Gamma Harbour', city: 'Genoa', version: 2 });
    const stale = await call(token, 'PUT', '/accounts/', { accountId: 107, city: 'Savona', version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'STALE', fields: [{ field: 'version', rule: 'stale' }] });
    expect((await call(token, 'GET', '/accounts/107')).body.city).toBe('Genoa');
  });

  it('answers 400 with the schema’s message ids, and 403 for another tenant’s row', async () => {
    const token = await signIn('nora');
    const invalid = await call(token, 'POST', '/accounts/', { name: 'A', resellerId: 10 });
    expect(invalid.status).toBe(400);
    expect(invalid.body.fields[0]).toMatchObject({ field: 'name', rule: 'minLength', messageId: 'validation.name.invalid', message: 'Name must be valid' });
    expect((await call(token, 'GET', '/accounts/104')).status).toBe(403);
    expect((await call(token, 'GET', '/accounts/999')).status).toBe(404);
    const foreign = await call(token, 'POST', '/accounts/', { name: 'Elsewhere', resellerId: 20 });
    expect(foreign.body.fields[0].messageId).toBe('validation.reseller.notAllowed');
  });

  it('answers 403 without the entity’s privilege', async () => {
    const token = await signIn('viewer');
    expect((await call(token, 'POST', '/accounts/paged', {})).status).toBe(403);
  });

  it('serves the profile, privileges and the reseller subtree', async () => {
    const token = await signIn('nora');
    expect((await call(token, 'GET', '/user')).body).toMatchObject({ firstName: 'Nora', resellerInfo: { id: 10, name: 'Northwind Mobile' } });
    expect((await call(token, 'GET', '/user/ui-privileges')).body.userPrivileges.map((p: { privilege: string }) => p.privilege)).toEqual([
      'Dashboard',
      'Accounts',
      'Users',
      'Search',
    ]);
    expect((await call(token, 'GET', '/reseller-info/list')).body).toEqual([
      { id: 10, name: 'Northwind Mobile', parentId: -1 },
      { id: 11, name: 'Harbor IoT', parentId: 10 },
    ]);
    expect((await call(token, 'POST', '/user/preferences', { preferences: '[]' })).status).toBe(204);
  });
});
