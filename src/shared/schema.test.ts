import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import account from '@schemas/account.json';
import subscriber from '@schemas/subscriber.json';
import {
  ListRequestError,
  MAX_SEARCH_KEY,
  apiRoutes,
  normaliseListRequest,
  pageInMemory,
  searchComparison,
  sortableFields,
  writableFields,
  type EntitySchema,
} from './schema';

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
    expect(normaliseListRequest(schema, {}, false)).toEqual({
      sortBy: 'accountId',
      sortDir: 'asc',
      page: 0,
      size: 50,
      searchBy: undefined,
      searchKey: undefined,
    });
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
    const afterBeta = pageInMemory(
      schema,
      rows,
      normaliseListRequest(schema, { sortBy: 'city', sortDir: 'desc', page: { page: 1, size: 1, after: 1 } }, false),
    );
    expect(afterBeta).toMatchObject({ currentPage: 1, totalItemsCount: 3, items: [{ accountId: 3 }] });
    expect(() => pageInMemory(schema, rows, normaliseListRequest(schema, { page: { page: 1, size: 1, after: 9 } }, false))).toThrow(ListRequestError);
  });
});

describe('list requests are bounded before any query', () => {
  const refusal = (req: object) => {
    try {
      normaliseListRequest(schema, req, true);
    } catch (e) {
      if (e instanceof ListRequestError) return [e.field, e.rule, e.messageId];
      throw e;
    }
    return undefined;
  };

  it('refuses a page past an integer, a page that is no object, and a key of the wrong type', () => {
    expect(refusal({ page: { page: 1e308 } })).toEqual(['page.page', 'range', 'validation.page.invalid']);
    expect(refusal({ page: { page: 2147483648 } })).toEqual(['page.page', 'range', 'validation.page.invalid']);
    expect(refusal({ page: 'abc' })).toEqual(['page', 'type', 'validation.page.invalid']);
    // The key of accounts is an integer: text, a fraction or a number past the column are no row.
    for (const after of ['abc', '12', 1.5, 2147483648, 1e308])
      expect(refusal({ page: { after } }), String(after)).toEqual(['page.after', 'type', 'validation.page.after']);
    expect(refusal({ page: { after: 12 } })).toBeUndefined();
  });

  it(`refuses search text over ${MAX_SEARCH_KEY} characters, and search text that is no text`, () => {
    expect(refusal({ searchKey: 'x'.repeat(MAX_SEARCH_KEY) })).toBeUndefined();
    expect(refusal({ searchKey: 'x'.repeat(MAX_SEARCH_KEY + 1) })).toEqual(['searchKey', 'maxLength', 'validation.searchKey.tooLong']);
    expect(refusal({ searchKey: 12 })).toEqual(['searchKey', 'type', 'validation.invalid']);
  });

  it('compares a key with an integer property only when the column can hold it (a 15-digit IMSI is no subscriber id)', () => {
    const props = (subscriber as unknown as EntitySchema).properties;
    expect(searchComparison(props.subscriberId, '901280000000001')).toEqual({ kind: 'never' });
    expect(searchComparison(props.subscriberId, '2147483648')).toEqual({ kind: 'never' });
    expect(searchComparison(props.subscriberId, '2147483647')).toEqual({ kind: 'equals', value: 2147483647 });
    expect(searchComparison(props.imsi, '901280000000001')).toEqual({ kind: 'affix', value: '901280000000001' });
  });
});

describe('every schema bounds its text', () => {
  const dir = new URL('../../schemas/', import.meta.url);
  const files = ['', 'children/'].flatMap((sub) =>
    readdirSync(new URL(sub, dir))
      .filter((f) => f.endsWith('.json'))
      .map((f) => `${sub}${f}`),
  );

  /** The string properties without a maxLength, at any depth (object properties and array items). */
  interface Prop {
    type?: string | string[];
    maxLength?: number;
    properties?: Record<string, Prop>;
    items?: Prop;
  }
  function unbounded(prop: Prop, path: string): string[] {
    const types = [prop.type].flat();
    const own = types.includes('string') && prop.maxLength === undefined ? [path] : [];
    const nested = Object.entries(prop.properties ?? {}).flatMap(([name, p]) => unbounded(p, `${path}.${name}`));
    return [...own, ...nested, ...(prop.items ? unbounded(prop.items, `${path}[]`) : [])];
  }

  it.each(files)('%s gives every string property a maxLength', (file) => {
    const entity = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as EntitySchema;
    expect(unbounded({ properties: entity.properties }, entity.$id)).toEqual([]);
  });
});
