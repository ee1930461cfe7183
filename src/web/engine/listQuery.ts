/**
 * A list's state lives in the address (`?searchKey=&searchBy=&page=&sortBy=&sortDir=`), so a search can be
 * bookmarked and the back button steps through it. Pages read from 1 in the address and go zero-based on
 * the wire.
 */
import { CUSTOM_KEY_PATTERN, CUSTOM_PREFIX, customName, type CustomFieldDefinition } from '@shared/customFields';
import { searchFilters, sortableFields, type EntitySchema } from '@shared/schema';
import type { ListRequest, SortDir } from '@shared/wire';
import { DEFAULT_PAGE_SIZE } from '@shared/wire';

export interface ListQuery {
  searchKey: string;
  searchBy: string;
  /** One-based, as shown. */
  page: number;
  sortBy: string;
  sortDir: SortDir;
}

const CUSTOM_KEY = new RegExp(CUSTOM_KEY_PATTERN);

/**
 * Whether a name is a custom field's (`custom.<key>`) the list may sort and search by: one of the fields that apply,
 * or, while they are still loading (`undefined`), any well-formed name, so an address is not rewritten before they
 * arrive (the server refuses a name that does not apply).
 */
function isCustomName(name: string, custom: readonly CustomFieldDefinition[] | undefined): boolean {
  if (!name.startsWith(CUSTOM_PREFIX)) return false;
  return custom ? custom.some((def) => customName(def) === name) : CUSTOM_KEY.test(name.slice(CUSTOM_PREFIX.length));
}

export function readListQuery(
  params: URLSearchParams,
  schema: EntitySchema,
  isAdmin: boolean,
  custom: readonly CustomFieldDefinition[] | undefined = [],
): ListQuery {
  const filters = searchFilters(schema, isAdmin).map((f) => f.by);
  const { sortBy: defaultSortBy, sortDir: defaultSortDir } = schema['x-list'].defaultSort;
  const searchBy = params.get('searchBy') ?? '';
  const page = Number.parseInt(params.get('page') ?? '', 10);
  const sortBy = params.get('sortBy') ?? '';
  const sortDir = params.get('sortDir');
  const validSort = sortableFields(schema).includes(sortBy) || isCustomName(sortBy, custom);
  return {
    searchKey: (params.get('searchKey') ?? '').trim(),
    searchBy: filters.includes(searchBy) || isCustomName(searchBy, custom) ? searchBy : (filters[0] ?? ''),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    sortBy: validSort ? sortBy : defaultSortBy,
    sortDir: validSort && (sortDir === 'asc' || sortDir === 'desc') ? sortDir : validSort ? 'asc' : defaultSortDir,
  };
}

/** The address for a list state; defaults are left out so a plain list keeps a plain address. */
export function writeListQuery(query: ListQuery, schema: EntitySchema): URLSearchParams {
  const params = new URLSearchParams();
  if (query.searchKey) params.set('searchKey', query.searchKey);
  // A chosen filter stays in the address even before any text is typed, so the choice survives a reload.
  const firstFilter = schema['x-list'].search[0]?.by;
  if (query.searchKey || query.searchBy !== firstFilter) params.set('searchBy', query.searchBy);
  params.set('page', String(query.page));
  const { sortBy, sortDir } = schema['x-list'].defaultSort;
  if (query.sortBy !== sortBy || query.sortDir !== sortDir) {
    params.set('sortBy', query.sortBy);
    params.set('sortDir', query.sortDir);
  }
  return params;
}

export function pageSize(schema: EntitySchema): number {
  return schema['x-list'].pageSize ?? DEFAULT_PAGE_SIZE;
}

/**
 * The request of a list state. With `after` (the key of the previous page's last row), the server finds the page
 * from that row through the order's index instead of counting past every earlier row.
 */
export function toListRequest(query: ListQuery, schema: EntitySchema, after?: number | string): ListRequest {
  const request: ListRequest = {
    sortBy: query.sortBy,
    sortDir: query.sortDir,
    page: { page: query.page - 1, size: pageSize(schema), ...(after !== undefined ? { after } : {}) },
  };
  if (query.searchKey) {
    request.searchBy = query.searchBy;
    request.searchKey = query.searchKey;
  }
  return request;
}
