/**
 * The entity schema: standard JSON Schema (draft-07) plus a few `x-` keywords.
 * One file in schemas/ drives the server's routes, validation and SQL whitelist, the OpenAPI document,
 * the web app's endpoints, grid and form, and the mocks. This module holds the types and the pure helpers
 * every side shares, so a list request means the same thing everywhere.
 */
import { customComparison, customMatches, customName, customSearchFilter, listValue, type CustomFieldDefinition } from './customFields';
import type { ListRequest, SortDir } from './wire';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './wire';

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';

export interface PropertySchema {
  type?: JsonType | JsonType[];
  title?: string;
  description?: string;
  readOnly?: boolean;
  format?: string;
  enum?: unknown[];
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  errorMessage?: Record<string, string> | string;
  /**
   * Value must be unique in the table, ignoring case: `true` (message `x-entity.uniqueMessage`), a message id,
   * or `{ message, scope }` to be unique only among rows sharing the `scope` properties (e.g. per reseller).
   */
  'x-unique'?: boolean | string | { message?: string; scope?: string[] };
  /** Accepted on writes, never read back (e.g. a password). */
  writeOnly?: boolean;
  /** Display format for grids: money, bytes, date, datetime, status. */
  'x-format'?: string;
  /**
   * The entity this id (or each id of this array) refers to: its options come from that entity's list call, and the
   * server accepts only an id of a row the caller may see (`reseller`: a reseller of the caller's subtree).
   */
  'x-reference'?: string;
  /** The value of a reference that stands for no row (e.g. -1, shown as N/D); not looked up. */
  'x-none'?: number;
  /** Message id when the reference names no row the caller may use (default `validation.reference.unknown`). */
  'x-referenceMessage'?: string;
  /**
   * A commercial or structural field: written only from above the row's tenant (see `x-entity.tenant`), never by a
   * user of that tenant itself; the form shows it read-only to them.
   */
  'x-protected'?: boolean;
  /** A read-only value read from another table through a foreign key of this entity. */
  'x-join'?: { table: string; on: string; column: string; key?: string };
  /** Kept in tables of their own, not a column: the domain's hooks write and read it (e.g. a profile's rates). */
  'x-apart'?: boolean;
  /** The field's label in English: the text of the message id `title` names, until a catalogue translates it. */
  'x-label'?: string;
  /** Column name when it is not the snake_case form of the property. */
  'x-column'?: string;
  /**
   * How a search key matches. `affix`: a number-like identifier (IMSI, ICCID, MSISDN) matches by its beginning or
   * its end, as users type a prefix (country and network) or the last digits printed on a card; btree indexes on
   * the value and on its reverse serve both. Default: text contains the key, ignoring case.
   */
  'x-search'?: 'affix';
  [key: string]: unknown;
}

export type ApiOperation = 'paged' | 'search' | 'list' | 'get' | 'create' | 'update' | 'delete' | 'download';

export interface SearchFilter {
  /** The searchBy value; a property name, or a name of its own with `fields`. */
  by: string;
  /** A custom field's filter (`custom.<key>`): how its values are compared depends on the definition. */
  custom?: CustomFieldDefinition;
  /** Properties searched; defaults to [by]. */
  fields?: string[];
  /** Message id of the filter's label; defaults to the property's title. */
  title?: string;
  /** Offered to (and accepted from) the admin only. */
  adminOnly?: boolean;
  /**
   * Matches rows that own a row of another table whose `column` contains the key (e.g. any of a subscriber's
   * MSISDNs): `on` is that table's column holding this entity's key. `match: 'affix'` matches the column's
   * beginning or end instead (see the property keyword `x-search`).
   */
  child?: { table: string; on: string; column: string; match?: 'affix' | 'equals' };
}

/** A query parameter of the `list` call comparing one property for equality (see `x-list.filters`). */
export interface ListFilter {
  query: string;
  field: string;
}

export interface ColumnSpec {
  field: string;
  width?: number;
  flex?: number;
  sortable?: boolean;
  hide?: boolean;
}

export interface EntitySchema {
  $id: string;
  title: string;
  description?: string;
  type: 'object';
  required?: string[];
  properties: Record<string, PropertySchema>;
  /** Valid bodies for a create; the contract test of every schema round-trips the first one. */
  examples?: Record<string, unknown>[];
  'x-entity': {
    name: string;
    domain: string;
    table: string;
    key: string;
    privilege: string;
    /**
     * reseller: rows carry resellerId and are visible in the caller's reseller subtree. tree: the rows are the resellers
     * themselves, visible when in the caller's subtree (its `path` under the caller's).
     */
    scope: 'reseller' | 'tree' | 'none';
    routes?: { list?: string; detail?: string };
    /**
     * The entity's names in English: `single` is the text of `entity.<name>.single` (a row: form and window titles,
     * breadcrumbs), `plural` that of the schema's `title`, `entity.<name>.title` (the list and its menu entry).
     */
    labels?: { single: string; plural: string };
    /**
     * A side menu entry leading to `routes.list`: placed after the entry whose id is `after` (an entry of the menu or
     * another entity's name), with a Blueprint icon by its name, shown to `privileges` (default: `privilege`).
     */
    menu?: { after: string; icon: string; privileges?: string[] };
    /** Message id for a duplicate of an `x-unique` field. */
    uniqueMessage?: string;
    /** Message id when a row cannot be deleted because others refer to it. */
    inUseMessage?: string;
    /** Privileges that also open the `list` call, whose id and name pairs fill selects on other screens. */
    listPrivileges?: string[];
    /** Only the administrator creates, updates and deletes rows; the privilege opens the reads. */
    adminWrites?: boolean;
    /**
     * The rows are their reseller's own business (its plans, zones, profiles, groups…): an account's users read them
     * (as far as the domain lets them) but never create, update or delete them.
     */
    resellerWrites?: boolean;
    /**
     * With scope `reseller`: rows of the resellers above the caller (the provider's included) are seen as well, to
     * read and to refer to; only rows of the caller's own subtree are written (the domain's hooks enforce it).
     */
    inherited?: boolean;
    /** Properties required on create only (e.g. a password, which an update may leave out). */
    requiredOnCreate?: string[];
    /**
     * The rows are tenants themselves: `account` (an account user's own account) or `reseller`. A user inside the
     * row's tenant never writes its `x-protected` fields, and an account user creates and deletes no accounts.
     */
    tenant?: 'account' | 'reseller';
  };
  /** The calls, e.g. `"get": "GET /portal/things/{id}"`; a list names several paths of one call (the first is the client's). */
  'x-api': Partial<Record<ApiOperation, string | string[]>>;
  'x-list': {
    defaultSort: { sortBy: string; sortDir: SortDir };
    pageSize?: number;
    /** Properties returned by the `list` call (id and name pairs for selects). */
    listFields?: string[];
    /**
     * Path parameters of list calls (a second path of `paged`, `search` or `download`) and the property each filters
     * on, e.g. `{ "resellerId": "parentId" }` for `POST /resellers/list/{resellerId}`: a parent's children.
     */
    pathFilters?: Record<string, string>;
    /** Rows whose boolean `field` is true are left out unless the query parameter `query` is "true". */
    hiddenUnless?: { query: string; field: string };
    /**
     * Query parameters of the `list` call that narrow its rows to those whose `field` equals the parameter's value
     * (e.g. `?reseller_id=7`), within what the caller sees; the parameter takes the property's type.
     */
    filters?: ListFilter[];
    search: SearchFilter[];
  };
  'x-columns': ColumnSpec[];
  'x-ui'?: Record<string, unknown>;
}

export interface ApiRoute {
  op: ApiOperation;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
}

export function apiRoutes(schema: EntitySchema): ApiRoute[] {
  return Object.entries(schema['x-api']).flatMap(([op, specs]) =>
    [specs ?? []].flat().map((spec) => {
      const [method, path] = String(spec).split(/\s+/);
      return { op: op as ApiOperation, method: method as ApiRoute['method'], path };
    }),
  );
}

export function apiRoute(schema: EntitySchema, op: ApiOperation): ApiRoute | undefined {
  return apiRoutes(schema).find((r) => r.op === op);
}

export function propertyType(prop: PropertySchema): JsonType {
  const t = Array.isArray(prop.type) ? prop.type.find((x) => x !== ('null' as JsonType)) : prop.type;
  return t ?? 'string';
}

export function isNumeric(prop: PropertySchema): boolean {
  const t = propertyType(prop);
  return t === 'integer' || t === 'number';
}

/** Properties a list may be sorted by: scalar ones, own or joined, that are read back (not those kept apart). */
export function sortableFields(schema: EntitySchema): string[] {
  return Object.entries(schema.properties)
    .filter(([, p]) => !['object', 'array'].includes(propertyType(p)) && !p.writeOnly && !p['x-apart'])
    .map(([name]) => name);
}

export function searchFilters(schema: EntitySchema, isAdmin: boolean): SearchFilter[] {
  return schema['x-list'].search.filter((f) => isAdmin || !f.adminOnly);
}

/** The properties a filter compares; none for a `child` filter, which looks in another table. */
export function filterFields(filter: SearchFilter): string[] {
  return filter.fields ?? (filter.child || filter.custom ? [] : [filter.by]);
}

/** Properties a client may write: everything but read-only and joined ones. */
export function writableFields(schema: EntitySchema): string[] {
  return Object.entries(schema.properties)
    .filter(([, p]) => !p.readOnly && !p['x-join'])
    .map(([name]) => name);
}

export interface UniqueRule {
  field: string;
  scope: string[];
  messageId: string;
}

export function uniqueRules(schema: EntitySchema): UniqueRule[] {
  const fallback = schema['x-entity'].uniqueMessage ?? 'validation.unique';
  return Object.entries(schema.properties).flatMap(([field, p]) => {
    const u = p['x-unique'];
    if (!u) return [];
    if (typeof u === 'object') return [{ field, scope: u.scope ?? [], messageId: u.message ?? fallback }];
    return [{ field, scope: [], messageId: typeof u === 'string' ? u : fallback }];
  });
}

export interface NormalisedListRequest {
  sortBy: string;
  sortDir: SortDir;
  searchBy?: SearchFilter;
  searchKey?: string;
  page: number;
  size: number;
  /** Start after the row with this key (keyset paging); see PageInfo.after. */
  after?: number | string;
}

export class ListRequestError extends Error {
  constructor(
    public readonly field: string,
    public readonly rule: string,
    public readonly messageId: string,
  ) {
    super(`${field}: ${rule}`);
  }
}

/** The longest search text a list accepts: far beyond any name or identifier, short enough to cost nothing. */
export const MAX_SEARCH_KEY = 200;

/** PostgreSQL's integer: the column of an `integer` property unless it declares `format: int64` (a bigint column). */
export const INTEGER_RANGE = { min: -2_147_483_648, max: 2_147_483_647 } as const;

/** The whole numbers an integer property's column holds. */
export function integerRange(prop: PropertySchema): { min: number; max: number } {
  return prop.format === 'int64' ? { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER } : INTEGER_RANGE;
}

/**
 * The property with its column's range where it gives none itself, in its items too (an array of ids): a body's
 * whole number is checked against what the column holds before any query sees it.
 */
export function withColumnRange(prop: PropertySchema): PropertySchema {
  const out = { ...prop };
  if (propertyType(prop) === 'integer') {
    const { min, max } = integerRange(prop);
    out.minimum = prop.minimum ?? min;
    out.maximum = prop.maximum ?? max;
  }
  if (prop.items && typeof prop.items === 'object') out.items = withColumnRange(prop.items as PropertySchema);
  return out;
}

/** Whether `value` can be the key of a row: a whole number in the key column's range, or short text for a text key. */
function keyValue(schema: EntitySchema, value: unknown): boolean {
  const prop = schema.properties[schema['x-entity'].key] ?? {};
  if (!isNumeric(prop)) return typeof value === 'string' && value.length > 0 && value.length <= 100;
  const { min, max } = integerRange(prop);
  return Number.isInteger(value) && (value as number) >= min && (value as number) <= max;
}

/**
 * Applies defaults and checks a list request against the schema's whitelist: an unknown sort field or
 * filter is refused, so no string from a request ever names a column.
 */
export function normaliseListRequest(
  schema: EntitySchema,
  req: ListRequest,
  isAdmin: boolean,
  custom: readonly CustomFieldDefinition[] = [],
): NormalisedListRequest {
  const list = schema['x-list'];
  const sortBy = req.sortBy || list.defaultSort.sortBy;
  const customNames = custom.map(customName);
  if (!sortableFields(schema).includes(sortBy) && !customNames.includes(sortBy)) throw new ListRequestError('sortBy', 'enum', 'validation.sortBy.invalid');
  const sortDir = req.sortDir ?? (req.sortBy ? 'asc' : list.defaultSort.sortDir);
  if (sortDir !== 'asc' && sortDir !== 'desc') throw new ListRequestError('sortDir', 'enum', 'validation.sortDir.invalid');
  if (req.page !== undefined && req.page !== null && (typeof req.page !== 'object' || Array.isArray(req.page)))
    throw new ListRequestError('page', 'type', 'validation.page.invalid');
  const size = req.page?.size ?? list.pageSize ?? DEFAULT_PAGE_SIZE;
  const page = req.page?.page ?? 0;
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) throw new ListRequestError('page.size', 'range', 'validation.pageSize.invalid');
  if (!Number.isInteger(page) || page < 0 || page > INTEGER_RANGE.max) throw new ListRequestError('page.page', 'range', 'validation.page.invalid');
  const after = req.page?.after;
  if (after !== undefined && !keyValue(schema, after)) throw new ListRequestError('page.after', 'type', 'validation.page.after');
  if (req.searchKey !== undefined && req.searchKey !== null && typeof req.searchKey !== 'string')
    throw new ListRequestError('searchKey', 'type', 'validation.invalid');
  if (typeof req.searchKey === 'string' && req.searchKey.length > MAX_SEARCH_KEY)
    throw new ListRequestError('searchKey', 'maxLength', 'validation.searchKey.tooLong');
  const searchKey = typeof req.searchKey === 'string' ? req.searchKey.trim() : undefined;
  let searchBy: SearchFilter | undefined;
  if (searchKey) {
    const by = req.searchBy || 'multi';
    const filters = [...searchFilters(schema, isAdmin), ...custom.map(customSearchFilter)];
    searchBy = filters.find((f) => f.by === by) ?? (req.searchBy ? undefined : filters[0]);
    if (!searchBy) throw new ListRequestError('searchBy', 'enum', 'validation.searchBy.invalid');
  }
  return { sortBy, sortDir, searchBy, searchKey: searchKey || undefined, page, size, ...(after !== undefined ? { after } : {}) };
}

/** How a search key is compared with one property: whole numbers equal, text contains (case-insensitive). */
export type SearchComparison = { kind: 'equals'; value: number } | { kind: 'contains' | 'affix'; value: string } | { kind: 'never' };

/** An identifier's search key: a leading '+' of a phone number and spaces a user pasted do not count. */
function affixKey(key: string): string {
  return key.replace(/^\+/, '').replace(/\s+/g, '');
}

export function searchComparison(prop: PropertySchema, key: string): SearchComparison {
  if (isNumeric(prop)) {
    // A key no value of the column can equal matches nothing: a 15-digit IMSI is no subscriber id (an integer).
    if (!/^-?\d{1,15}$/.test(key)) return { kind: 'never' };
    const value = Number(key);
    if (propertyType(prop) === 'integer' && (value < integerRange(prop).min || value > integerRange(prop).max)) return { kind: 'never' };
    return { kind: 'equals', value };
  }
  if (propertyType(prop) === 'boolean') return { kind: 'never' };
  if (prop['x-search'] === 'affix') return { kind: 'affix', value: affixKey(key) };
  return { kind: 'contains', value: key.toLowerCase() };
}

/** Whether a value matches a search comparison, as the database would decide it (the mocks use it). */
export function matchesComparison(cmp: SearchComparison, value: unknown): boolean {
  if (cmp.kind === 'equals') return value === cmp.value;
  if (cmp.kind === 'contains')
    return String(value ?? '')
      .toLowerCase()
      .includes(cmp.value);
  if (cmp.kind === 'affix') return value != null && (String(value).startsWith(cmp.value) || String(value).endsWith(cmp.value));
  return false;
}

/**
 * The properties a list's rows must equal: each `x-list.pathFilters` parameter the path gives and, for the `list` call
 * (`query` given), each `x-list.filters` query parameter that is not empty. Values as the request carries them.
 */
export function listEquality(schema: EntitySchema, params: Record<string, unknown> = {}, query?: Record<string, unknown>): Record<string, unknown> {
  const present = (value: unknown) => value !== undefined && value !== null && value !== '';
  const fromPath = Object.entries(schema['x-list'].pathFilters ?? {}).filter(([param]) => present(params[param]));
  const fromQuery = query ? (schema['x-list'].filters ?? []).filter((f) => present(query[f.query])) : [];
  return Object.fromEntries([...fromPath.map(([param, field]) => [field, params[param]]), ...fromQuery.map((f) => [f.field, query![f.query]])]);
}

/** The comparison of a child filter's column (`child.match`). */
export function childComparison(child: NonNullable<SearchFilter['child']>, key: string): SearchComparison {
  if (child.match === 'equals') {
    // An id of the child row (e.g. an account's id): whole numbers in the 32-bit range, else nothing matches.
    const value = Number(key.trim());
    return /^-?\d{1,10}$/.test(key.trim()) && Math.abs(value) <= 2147483647 ? { kind: 'equals', value } : { kind: 'never' };
  }
  return child.match === 'affix' ? { kind: 'affix', value: affixKey(key) } : { kind: 'contains', value: key.toLowerCase() };
}

/** The same search, sort and paging in memory: used by the mocks so they answer like the server. */
export function pageInMemory<T extends Record<string, unknown>>(schema: EntitySchema, rows: T[], req: NormalisedListRequest) {
  let items = rows;
  if (req.searchBy && req.searchKey) {
    const key = req.searchKey;
    const fields = filterFields(req.searchBy);
    const child = req.searchBy.child ? req.searchBy.by : undefined;
    // In memory, a child filter looks in the row's array of that name (e.g. `msisdn` rows carry `msisdns`).
    const childCmp = req.searchBy.child ? childComparison(req.searchBy.child, key) : undefined;
    const inChild = (row: T) =>
      childCmp !== undefined && Array.isArray(row[`${child}s`]) && (row[`${child}s`] as unknown[]).some((v) => matchesComparison(childCmp, v));
    const custom = req.searchBy.custom;
    const customCmp = custom ? customComparison(custom, key) : undefined;
    const inCustom = (row: T) => custom !== undefined && customMatches(customCmp!, listValue(row, customName(custom)));
    items = items.filter((row) => inChild(row) || inCustom(row) || fields.some((f) => matchesComparison(searchComparison(schema.properties[f], key), row[f])));
  }
  const dir = req.sortDir === 'asc' ? 1 : -1;
  const key = schema['x-entity'].key;
  const compare = (a: unknown, b: unknown) => (a === b ? 0 : (a as never) < (b as never) ? -1 : 1);
  const empty = (v: unknown) => v === null || v === undefined;
  // Empty values last in both directions, as the server sorts them.
  const bySort = (a: T, b: T) => {
    const x = listValue(a, req.sortBy);
    const y = listValue(b, req.sortBy);
    if (empty(x) || empty(y)) return empty(x) === empty(y) ? 0 : empty(x) ? 1 : -1;
    return dir * compare(x, y);
  };
  items = [...items].sort((a, b) => bySort(a, b) || dir * compare(a[key], b[key]));
  const total = items.length;
  // Keyset paging: the page starts right after the row whose key is `after`, which must be in the list.
  let start = req.page * req.size;
  if (req.after !== undefined) {
    const at = items.findIndex((row) => String(row[key]) === String(req.after));
    if (at < 0) throw new ListRequestError('page.after', 'exists', 'validation.page.after');
    start = at + 1;
  }
  return {
    items: items.slice(start, start + req.size),
    totalItemsCount: total,
    totalPageCount: Math.max(1, Math.ceil(total / req.size)),
    currentPage: req.page,
  };
}

/**
 * The English texts an entity schema carries (`x-entity.labels`, each property's `x-label`), by the message id they
 * give text to. They stand under the catalogues: a catalogue's own text for the id, English included, wins.
 */
export function entityMessages(schema: EntitySchema): Record<string, string> {
  const out: Record<string, string> = {};
  const { name, labels } = schema['x-entity'];
  if (labels) {
    out[`entity.${name}.single`] = labels.single;
    out[schema.title] = labels.plural;
  }
  for (const p of Object.values(schema.properties)) if (p['x-label'] && p.title) out[p.title] = p['x-label'];
  return out;
}

/** The English texts of every schema (see entityMessages). */
export function schemaMessages(schemas: readonly EntitySchema[]): Record<string, string> {
  return Object.assign({}, ...schemas.map(entityMessages)) as Record<string, string>;
}

/** The property every updatable entity's rows carry: raised by each update, sent back with an update to detect a lost one. */
export const VERSION = 'version';

/** Whether an entity's rows carry a version: every entity with an update call (its table has the column). */
export function isVersioned(schema: EntitySchema): boolean {
  return schema['x-api'].update !== undefined;
}

/** The reference fields of an entity: property name, referenced entity, and whether it holds a list of ids. */
export function referenceFields(schema: EntitySchema): { field: string; entity: string; none?: number; messageId: string }[] {
  return Object.entries(schema.properties).flatMap(([field, p]) =>
    p['x-reference'] ? [{ field, entity: p['x-reference'], none: p['x-none'], messageId: p['x-referenceMessage'] ?? 'validation.reference.unknown' }] : [],
  );
}

/** The fields a user inside the row's own tenant sees read-only and may not change. */
export function protectedFields(schema: EntitySchema): string[] {
  return Object.entries(schema.properties)
    .filter(([, p]) => p['x-protected'])
    .map(([name]) => name);
}

/** Who is writing, as far as the tenant rules need to know. */
export interface TenantCaller {
  resellerId: number;
  accountId: number | null;
  isAdmin: boolean;
}

/**
 * Whether the caller is inside the row's own tenant (an account user on its account, a reseller's user on that
 * reseller): it then sees the row's `x-protected` fields read-only. The administrator never is.
 */
export function insideTenant(schema: EntitySchema, caller: TenantCaller, row: Record<string, unknown>): boolean {
  const tenant = schema['x-entity'].tenant;
  if (!tenant || caller.isAdmin) return false;
  const id = Number(row[schema['x-entity'].key]);
  return tenant === 'account' ? caller.accountId !== null && caller.accountId === id : caller.resellerId === id;
}

/** Whether the caller may create, update and delete rows of the entity at all (`adminWrites`, `resellerWrites`). */
export function mayWriteRows(schema: EntitySchema, caller: TenantCaller): boolean {
  if (caller.isAdmin) return true;
  const { adminWrites, resellerWrites } = schema['x-entity'];
  return !adminWrites && !(resellerWrites && caller.accountId !== null);
}

/** Whether the caller may create (or delete) rows of the entity: an account user never creates tenants. */
export function mayCreateRows(schema: EntitySchema, caller: TenantCaller): boolean {
  return mayWriteRows(schema, caller) && !(schema['x-entity'].tenant && caller.accountId !== null && !caller.isAdmin);
}
