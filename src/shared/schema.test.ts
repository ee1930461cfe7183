import { describe, expect, it } from 'vitest';
import account from '@schemas/account.json';
import { ListRequestError, apiRoutes, normaliseListRequest, pageInMemory, sortableFields, writableFields, type EntitySchema } from './schema';

const schema = account as unknown as EntitySchema;

describe('entity schema helpers', () => {
  it('reads the calls of x-api', () => {
    expect(apiRoutes(schema)).toContainEqual({ op: 'paged', method: 'POST', path: '/portal/accounts/paged' });
    expect(apiRoutes(schema)).toContainEqual({ op: 'get', method: 'GET', path: '/portal/accounts/{id}' });
  });

  it('lets clients write only own, non read-only properties', () => {
    const writable = writableFields(schema);
    expect(writable).toContain('name');
    expect(writable).not.toContain('accountId');
    expect(writable).not.toContain('resellerName');
  });

  it('applies the default sort and page size', () => {
    expect(normaliseListRequest(schema, {}, false)).toEqual({ sortBy: 'accountId', sortDir: 'asc', page: 0, size: 50, searchBy: undefined, searchKey: undefined });
    expect(sortableFields(schema)).toContain('resellerName');
  });

  it('refuses names outside the whitelist and admin filters for others', () => {
    expect(() => normaliseListRequest(schema, { sortBy: 'name; drop table account' }, true)).toThrow(ListRequestError);
    expect(() => normaliseListRequest(schema, { searchBy: 'resellerName', searchKey: 'x' }, false)).toThrow(ListRequestError);
    expect(normaliseListRequest(schema, { searchBy: 'resellerName', searchKey: ' x ' }, true).searchKey).toBe('x');
  });

  it('pages in memory like the server: search, sort with empty values last, zero-based pages', () => {
    const rows = [
      { accountId: 1, name: 'Beta', city: 'Oslo' },
      { accountId: 2, name: 'alpha', city: undefined },
      { accountId: 3, name: 'Gamma', city: 'Bergen' },
    ];
    const desc = pageInMemory(schema, rows, normaliseListRequest(schema, { sortBy: 'city', sortDir: 'desc' }, false));
    expect(desc.items.map((r) => r.accountId)).toEqual([1, 3, 2]);
    const found = pageInMemory(schema, rows, normaliseListRequest(schema, { searchBy: 'multi', searchKey: '3' }, false));
    expect(found.items.map((r) => r.accountId)).toEqual([3]);
    const second = pageInMemory(schema, rows, normaliseListRequest(schema, { page: { page: 1, size: 2 } }, false));
    expect(second).toMatchObject({ totalItemsCount: 3, totalPageCount: 2, currentPage: 1, items: [{ accountId: 3 }] });
    // After a row (keyset), in the list's order; a row not in the list is refused, naming the field.
    const afterBeta = pageInMemory(schema, rows, normaliseListRequest(schema, { sortBy: 'city', sortDir: 'desc', page: { page: 1, size: 1, after: 1 } }, false));
    expect(afterBeta).toMatchObject({ currentPage: 1, totalItemsCount: 3, items: [{ accountId: 3 }] });
    expect(() => pageInMemory(schema, rows, normaliseListRequest(schema, { page: { page: 1, size: 1, after: 9 } }, false))).toThrow(ListRequestError);
  });
});
