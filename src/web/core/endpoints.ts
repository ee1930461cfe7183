/**
 * RTK Query endpoints generated from each schema's `x-api`: one injection per entity, named after it
 * (`accountPaged`, `accountGet`, `accountCreate`, ...), so the cache and the dev tools read like the schema.
 * Rows are tagged `{ type: <entity>, id }`, lists `{ type: <entity>, id: 'LIST' }`; writes invalidate both.
 */
import type { EndpointBuilder, FetchArgs } from '@reduxjs/toolkit/query';
import { apiRoute, type ApiOperation, type EntitySchema } from '@shared/schema';
import type { DownloadFormat } from '@shared/spreadsheet';
import type { ListRequest, Page } from '@shared/wire';
import { api, type AppBaseQuery } from './api';
import { apiPath } from './config';
import { ENTITY_SCHEMAS, entityName, entityTag } from './schemas';
import type { EntityRow } from './types';

type Builder = EndpointBuilder<AppBaseQuery, string, 'api'>;
export type RowId = string | number;

function call(schema: EntitySchema, op: ApiOperation, init: Omit<FetchArgs, 'url' | 'method'> & { id?: RowId } = {}): FetchArgs {
  const route = apiRoute(schema, op);
  if (!route) throw new Error(`${entityName(schema)} has no ${op} call in x-api`);
  const { id, ...rest } = init;
  const url = apiPath(route.path).replace('{id}', encodeURIComponent(String(id ?? '')));
  return { url, method: route.method, ...rest };
}

/** Lists show every row; a schema's `hiddenUnless` rows (e.g. inventory accounts) are asked for explicitly. */
function listParams(schema: EntitySchema): Record<string, string> | undefined {
  const hidden = schema['x-list'].hiddenUnless;
  return hidden ? { [hidden.query]: 'true' } : undefined;
}

/**
 * What else a write of an entity's rows changes: a custom field's definition changes which fields apply (the
 * `custom-fields` call) and, once deleted, the values the rows carry; a reseller's name, the reseller selects.
 */
const DEPENDENT_TAGS: Readonly<Record<string, readonly string[]>> = {
  customField: ['custom-fields', 'subscriber', 'account', 'reseller'],
  // The resellers offered in selects (`GET /reseller-info/list`).
  reseller: ['ResellerList'],
};

function entityDefinitions(build: Builder, schema: EntitySchema) {
  const type = entityTag(schema);
  const dependent = DEPENDENT_TAGS[entityName(schema)] ?? [];
  const key = schema['x-entity'].key;
  const LIST = { type, id: 'LIST' };
  const rowTag = (row: EntityRow) => ({ type, id: String(row[key]) });
  const pageTags = (page: Page<EntityRow> | undefined) => [LIST, ...(page?.items ?? []).map(rowTag)];

  return {
    Paged: build.query<Page<EntityRow>, ListRequest>({
      query: (body) => call(schema, 'paged', { body, params: listParams(schema) }),
      providesTags: pageTags,
    }),
    Search: build.query<Page<EntityRow>, ListRequest>({
      query: (body) => call(schema, 'search', { body, params: listParams(schema) }),
      providesTags: pageTags,
    }),
    List: build.query<EntityRow[], void>({
      query: () => call(schema, 'list'),
      providesTags: [LIST],
    }),
    Get: build.query<EntityRow, RowId>({
      query: (id) => call(schema, 'get', { id }),
      providesTags: (_row, _error, id) => [{ type, id: String(id) }],
    }),
    Create: build.mutation<EntityRow, EntityRow>({
      query: (body) => call(schema, 'create', { body }),
      invalidatesTags: [LIST, ...dependent],
    }),
    Update: build.mutation<EntityRow, EntityRow>({
      query: (body) => call(schema, 'update', { body, id: String(body[key] ?? '') }),
      // A refused save changes nothing: the form keeps the user's edits (a stale row is reloaded only when asked).
      invalidatesTags: (_row, error, body) => (error ? [] : [LIST, rowTag(body), ...dependent]),
    }),
    /** Saves the whole search as a file, CSV or an Excel workbook; answers the file's name. */
    Download: build.mutation<string, { search: ListRequest; format: DownloadFormat }>({
      query: ({ search, format }) => ({
        ...call(schema, 'download', { body: search, params: { ...listParams(schema), format } }),
        responseHandler: saveAttachment,
      }),
    }),
    Delete: build.mutation<void, RowId>({
      query: (id) => call(schema, 'delete', { id }),
      invalidatesTags: (_result, _error, id) => [LIST, { type, id: String(id) }, ...dependent],
    }),
  };
}

/** The file name a `content-disposition: attachment; filename="…"` header gives. */
function attachmentName(response: Response): string {
  return /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'download';
}

/**
 * Hands a downloaded file to the browser's save mechanism. Errors are read as JSON like any other answer. The
 * body has to be read whole here: the request carries the bearer token, which a plain link cannot.
 */
export async function saveAttachment(response: Response): Promise<unknown> {
  if (!response.ok) return response.json().catch(() => null);
  const name = attachmentName(response);
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
  return name;
}

type Capitalised<Op extends string> = Capitalize<Op>;
type Prefixed<P extends string, D> = { [K in keyof D & string as `${P}${K}`]: D[K] };

/** Renames `{ Paged, Get }` to `{ accountPaged, accountGet }`, keeping each definition's type. */
function prefixKeys<P extends string, D extends object>(prefix: P, definitions: D): Prefixed<P, D> {
  const renamed: Record<string, unknown> = {};
  for (const [name, definition] of Object.entries(definitions)) renamed[`${prefix}${name}`] = definition;
  return renamed as Prefixed<P, D>;
}

function capitalise<Op extends ApiOperation>(op: Op): Capitalised<Op> {
  return (op.charAt(0).toUpperCase() + op.slice(1)) as Capitalised<Op>;
}

/**
 * Not generated by `npm run api:gen`: these calls are built at run time from the same `x-api` of each schema the
 * server registers its routes from, so the list, form and grid engine reaches any entity through one interface.
 */
function injectEntityEndpoints(schema: EntitySchema) {
  const name = entityName(schema);
  const declared = new Set(Object.keys(schema['x-api']));
  const injected = api.injectEndpoints({
    endpoints: (build) => {
      const all = entityDefinitions(build, schema);
      // Only the calls the schema declares become endpoints; `endpoint()` below never hands out the others.
      const own = Object.fromEntries(Object.entries(all).filter(([op]) => declared.has(op.toLowerCase())));
      return prefixKeys(name, own as typeof all);
    },
  });
  const endpoint = <Op extends ApiOperation>(op: Op) => (declared.has(op) ? injected.endpoints[`${name}${capitalise(op)}`] : undefined);
  return {
    schema,
    paged: endpoint('paged'),
    search: endpoint('search'),
    list: endpoint('list'),
    get: endpoint('get'),
    create: endpoint('create'),
    update: endpoint('update'),
    delete: endpoint('delete'),
    download: endpoint('download'),
  };
}

export type EntityEndpoints = ReturnType<typeof injectEntityEndpoints>;

const registry = new Map<string, EntityEndpoints>(ENTITY_SCHEMAS.map((schema) => [entityName(schema), injectEntityEndpoints(schema)]));

export function entityEndpoints(schema: EntitySchema): EntityEndpoints {
  const found = registry.get(entityName(schema));
  if (!found) throw new Error(`No endpoints for ${entityName(schema)}`);
  return found;
}
