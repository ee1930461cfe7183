import { describe, expect, it } from 'vitest';
import type { EntitySchema } from '@shared/schema';
import account from '../../../schemas/account.json';
import { readListQuery, toListRequest, writeListQuery } from './listQuery';

const schema = account as unknown as EntitySchema;
const read = (query: string, admin = false) => readListQuery(new URLSearchParams(query), schema, admin);

describe('list query in the address', () => {
  it('defaults to the first filter, page 1 and the schema sort', () => {
    expect(read('')).toEqual({ searchKey: '', searchBy: 'multi', page: 1, sortBy: 'accountId', sortDir: 'asc' });
  });

  it('reads a search and a page, shown from 1 and sent from 0', () => {
    const query = read('searchKey=%20Hamburg%20&searchBy=city&page=3');
    expect(query).toMatchObject({ searchKey: 'Hamburg', searchBy: 'city', page: 3 });
    expect(toListRequest(query, schema)).toEqual({
      sortBy: 'accountId',
      sortDir: 'asc',
      searchBy: 'city',
      searchKey: 'Hamburg',
      page: { page: 2, size: 50 },
    });
  });

  it('ignores what the schema does not allow', () => {
    expect(read('searchBy=password&page=-4&sortBy=secret&sortDir=up')).toEqual(read(''));
    expect(read('page=abc').page).toBe(1);
  });

  it('offers admin-only filters to the admin only', () => {
    expect(read('searchKey=x&searchBy=resellerName').searchBy).toBe('multi');
    expect(read('searchKey=x&searchBy=resellerName', true).searchBy).toBe('resellerName');
  });

  it('writes back only what differs from the defaults', () => {
    expect(writeListQuery(read(''), schema).toString()).toBe('page=1');
    expect(writeListQuery({ ...read(''), searchKey: 'alpha', searchBy: 'name', page: 1 }, schema).toString()).toBe('searchKey=alpha&searchBy=name&page=1');
    expect(writeListQuery({ ...read(''), sortBy: 'city', sortDir: 'desc' }, schema).toString()).toBe('page=1&sortBy=city&sortDir=desc');
  });

  it('leaves the search out of the request when there is no key', () => {
    expect(toListRequest(read('searchBy=city'), schema)).toEqual({ sortBy: 'accountId', sortDir: 'asc', page: { page: 0, size: 50 } });
  });
});
