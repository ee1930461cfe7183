import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Kysely } from 'kysely';
import {
  apiRoutes,
  insideTenant,
  isNumeric,
  isVersioned,
  listEquality,
  ListRequestError,
  mayCreateRows,
  normaliseListRequest,
  propertyType,
  protectedFields,
  VERSION,
  withColumnRange,
  writableFields,
  type ApiOperation,
  type ApiRoute,
  type EntitySchema,
  type NormalisedListRequest,
} from '@shared/schema';
import { CUSTOM_PROPERTY, customEntityOf, customName, listValue, type CustomFieldDefinition } from '@shared/customFields';
import { cellKinds, XLSX_CONTENT_TYPE } from '@shared/spreadsheet';
import { bodySchema, cleanProperty } from '@shared/validation';
import type { FieldError, ListRequest } from '@shared/wire';
import { conflict, englishText, fieldError, forbidden, HttpError, invalid, notFound } from '../http/errors';
import { principalOf } from '../http/guard';
import { idParams, INT_MIN, listRequestSchema, pageSchema, parseInteger } from '../http/input';
import type { Principal } from '../http/principal';
import type { Engine } from '../db';
import { copyBatches, copyCsv, downloadFormat, downloadQuery, queryBatches, sendCsv, sendCsvFile } from './csv';
import { sendXlsx } from './xlsx';
import { customFieldsOf } from './customFields';
import { createReferenceCheck } from './references';
import { EntityRepository, type Visibility } from './repository';
import type { Database } from '../db/types';

type Body = Record<string, unknown>;
type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

export const toFastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** The operations that write rows. */
const WRITES = new Set(['create', 'update', 'delete']);

/** The row's id in the path, checked by the route's params schema (`idParams`). */
const parseId = (request: FastifyRequest): number => (request.params as { id: number }).id;

/** Only writable properties, with empty optional text stored as null. */
function writableValues(schema: EntitySchema, body: Body): Body {
  const out: Body = {};
  for (const name of writableFields(schema)) {
    if (!(name in body) || name === schema['x-entity'].key) continue;
    const value = body[name];
    out[name] = value === '' && !(schema.required ?? []).includes(name) ? null : value;
  }
  return out;
}

function pgCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? (error as { code?: string }).code : undefined;
}

/**
 * Drops the properties the server owns (read-only, joined, the version unless kept), so a client may send back a
 * row it read; unknown properties stay, for the validator to refuse.
 */
function withoutServerFields(schema: EntitySchema, body: unknown, keep: string[] = []): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const writable = new Set(writableFields(schema));
  return Object.fromEntries(Object.entries(body).filter(([k]) => keep.includes(k) || writable.has(k) || (k !== VERSION && !(k in schema.properties))));
}

/**
 * Prepares a create or update body for the app's validator, which checks it against `bodySchema`: the fields the
 * server owns are dropped, and `PUT /things/{id}` puts the path's id into the body as its key.
 */
function bodyForValidation(schema: EntitySchema, mode: 'create' | 'update') {
  const key = schema['x-entity'].key;
  return async (request: FastifyRequest) => {
    const body = withoutServerFields(schema, request.body, mode === 'update' ? [key, VERSION] : []);
    if (mode === 'update' && (request.routeOptions.url ?? '').includes(':id') && typeof body === 'object' && body !== null && !Array.isArray(body)) {
      // Before validation: the path's text, parsed as the params schema will be.
      (body as Body)[key] = parseInteger((request.params as { id?: unknown }).id, 'id');
    }
    request.body = body;
  };
}

/**
 * The version of the row an update was made from: the body's `version`, else an `If-Match` header (an ETag the get
 * call sends). Without either, the update applies to whatever the row holds now.
 */
function expectedVersion(request: FastifyRequest): number | undefined {
  const body = request.body as Body | undefined;
  const raw = typeof body === 'object' && body !== null && VERSION in body ? body[VERSION] : request.headers['if-match']?.replace(/^(W\/)?"(.*)"$/, '$2');
  if (raw === undefined || raw === null) return undefined;
  const version = Number(raw);
  if (!Number.isSafeInteger(version) || version < 0 || version > 2147483647) throw invalid([fieldError(VERSION, 'type', 'validation.invalid')]);
  return version;
}

/** Somebody saved the row since the caller read it: its change would be lost. */
const stale = () => new HttpError(409, 'STALE', 'error.stale', [fieldError(VERSION, 'stale', 'error.stale')]);

/**
 * A change of `x-protected` fields by a user inside the row's own tenant (an account user on its own account),
 * refused naming each field. Sending a field back unchanged, as a form does, is no change.
 */
function protectedChanges(schema: EntitySchema, principal: Principal, values: Body, existing: Body): FieldError[] {
  if (!insideTenant(schema, principal, existing)) return [];
  return protectedFields(schema)
    .filter((field) => field in values && JSON.stringify(values[field] ?? null) !== JSON.stringify(existing[field] ?? null))
    .map((field) => fieldError(field, 'protected', 'validation.field.protected'));
}

/** What a domain adds to the generic calls of its entity, inside the writing transaction. */
export interface EntityHooks {
  /**
   * Turns validated values into what is stored and enforces the domain's own rules (throwing an HttpError).
   * `existing` is the row before an update.
   */
  beforeWrite?(ctx: { mode: 'create' | 'update'; values: Body; existing?: Body; principal: Principal; trx: Kysely<Database> }): Promise<Body>;
  beforeDelete?(ctx: { existing: Body; principal: Principal; trx: Kysely<Database> }): Promise<void>;
  /** Writes what lives beside the row (e.g. child tables), after the row itself; `values` as validated. */
  afterWrite?(ctx: { mode: 'create' | 'update'; id: number; values: Body; principal: Principal; trx: Kysely<Database> }): Promise<void>;
  /** Adds what lives beside a row to the row a get, create or update answers. */
  afterRead?(row: Body, db: Kysely<Database>): Promise<Body>;
  /** Adds what lives beside the rows of a list page (e.g. counts the caller may see). */
  afterPage?(rows: Body[], principal: Principal, db: Kysely<Database>): Promise<Body[]>;
  /** Narrows the `list` call's choices to those the caller may use where they are offered (e.g. roles it may grant). */
  afterList?(rows: Body[], principal: Principal, db: Kysely<Database>): Promise<Body[]>;
  /**
   * Turns a checked list request into the one the list runs, for a search the schema's filters cannot say alone
   * (e.g. the subscribers of a group, which may be a stored search); throws an HttpError for a key naming nothing the
   * caller may use. Paged, search and download calls go through it.
   */
  beforeList?(ctx: {
    req: NormalisedListRequest;
    principal: Principal;
    db: Kysely<Database>;
    custom: readonly CustomFieldDefinition[];
  }): Promise<NormalisedListRequest>;
}

/** Handlers of the generic calls, shared by every schema. */
function handlersFor(
  db: Kysely<Database>,
  engine: Engine,
  schema: EntitySchema,
  hooks: EntityHooks,
  checkReferences: ReturnType<typeof createReferenceCheck>,
  reads: Kysely<Database>,
): Record<ApiOperation, Handler> {
  const repo = new EntityRepository(db, schema, { read: reads });
  const key = schema['x-entity'].key;
  const customEntity = customEntityOf(schema);
  const customFields = customFieldsOf(db);
  const scoped = schema['x-entity'].scope === 'reseller';
  const uniqueMessage = schema['x-entity'].uniqueMessage ?? 'validation.unique';
  const inUseMessage = schema['x-entity'].inUseMessage ?? 'error.inUse';
  const versioned = isVersioned(schema);
  // A list's rows equal the path's `x-list.pathFilters` parameters and, for the `list` call, its `x-list.filters` query
  // parameters (parsed by the route's schemas).
  const visibility = (request: FastifyRequest, listCall = false): Visibility => {
    const query = request.query as Body;
    const where = listEquality(schema, request.params as Body, listCall ? query : undefined);
    return { principal: principalOf(request), query, ...(Object.keys(where).length ? { where } : {}) };
  };
  const read = async (id: number, v: Visibility, trx: Kysely<Database> = db) => {
    const row = await repo.get(id, v, trx);
    return row && hooks.afterRead ? hooks.afterRead(row, trx) : row;
  };

  /** A list request's mistakes answer 400 naming the field and the rule. */
  async function listing<T>(fn: () => T | Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof ListRequestError) throw invalid([fieldError(e.field, e.rule, e.messageId)]);
      throw e;
    }
  }
  /** The custom fields that apply to the caller's rows: its lists sort, search and export them too. */
  const callerFields = async (principal: Principal) => (customEntity ? customFields.forPath(customEntity, principal.resellerPath) : []);
  const listRequest = async (request: FastifyRequest) => {
    const principal = principalOf(request);
    const custom = await callerFields(principal);
    const req = normaliseListRequest(schema, (request.body ?? {}) as ListRequest, principal.isAdmin, custom);
    return hooks.beforeList ? hooks.beforeList({ req, principal, db, custom }) : req;
  };

  const paged: Handler = async (request, reply) =>
    listing(async () => {
      const req = await listRequest(request);
      if (!hooks.afterPage) return pageReply(reply, await repo.pageBody(req, visibility(request)));
      const page = await repo.page(req, visibility(request));
      return { ...page, items: await hooks.afterPage(page.items, principalOf(request), db) };
    });

  /**
   * The whole search as CSV (or, with `?format=xlsx`, an Excel workbook), streamed: one column per readable property,
   * named as on the wire, then one per custom field of the caller (`custom.<key>`), which a CSV update reads back.
   */
  const download: Handler = async (request, reply) => {
    const defs = await callerFields(principalOf(request));
    const custom = defs.map(customName);
    const fields = [...repo.exportFields().filter((f) => f !== CUSTOM_PROPERTY), ...custom];
    const query = await listing(async () => repo.exportQuery(await listRequest(request), visibility(request)));
    const day = new Date().toISOString().slice(0, 10);
    const values = (row: Body) => {
      if (custom.length && typeof row[CUSTOM_PROPERTY] === 'string') row[CUSTOM_PROPERTY] = JSON.parse(row[CUSTOM_PROPERTY] as string);
      return fields.map((f) => listValue(row, f));
    };
    const name = `${schema['x-entity'].name}-${day}`;
    if (downloadFormat(request) === 'xlsx')
      return sendXlsx(reply, `${name}.xlsx`, fields, cellKinds(schema, fields, defs), queryBatches(db, engine, query), values);
    // On PostgreSQL the database writes the file in one COPY (see copyCsv), else its rows come through one COPY
    // (copyBatches); elsewhere batch by batch.
    const written = await copyCsv(db, query, fields);
    if (written) return sendCsvFile(reply, `${name}.csv`, written);
    return sendCsv(reply, `${name}.csv`, fields, copyBatches(db, query) ?? queryBatches(db, engine, query), values);
  };

  /** The tenant whose custom fields a row takes: the row's reseller (a reseller row's own line of resellers). */
  const customTenant = (principal: Principal, values: Body, existing?: Body) =>
    Number(
      customEntity === 'reseller'
        ? (existing?.[key] ?? values.parentId ?? principal.resellerId)
        : (values.resellerId ?? existing?.resellerId ?? principal.resellerId),
    );

  /** The custom values to store: the sent ones checked against the row's tenant's fields and merged over the stored. */
  async function withCustomValues(trx: Kysely<Database>, principal: Principal, mode: 'create' | 'update', values: Body, existing?: Body) {
    if (!customEntity) return;
    const sent = values[CUSTOM_PROPERTY] ?? undefined;
    const defs = await customFields.forReseller(customEntity, customTenant(principal, values, existing), trx);
    const { values: stored, errors } = customFields.resolve(defs, sent, existing?.[CUSTOM_PROPERTY] as Body | undefined, mode);
    if (errors.length) throw invalid(errors);
    if (stored) values[CUSTOM_PROPERTY] = stored;
    else delete values[CUSTOM_PROPERTY];
  }

  /**
   * Checks shared by create and update, inside the writing transaction; answers what is stored. On every write: the
   * row is the caller's (the visibility of `existing`), the caller does not change what its own tenant may not
   * (`x-protected`), and every id the body carries names a row the caller may see (`x-reference`).
   */
  async function prepareWrite(trx: Kysely<Database>, principal: Principal, mode: 'create' | 'update', values: Body, existing?: Body) {
    if (existing) {
      const refused = protectedChanges(schema, principal, values, existing);
      if (refused.length) throw new HttpError(403, 'FORBIDDEN', 'validation.field.protected', refused);
    }
    const unknown = await checkReferences(trx, principal, schema, values, existing);
    if (unknown.length) throw invalid(unknown);
    await withCustomValues(trx, principal, mode, values, existing);
    const stored = hooks.beforeWrite ? await hooks.beforeWrite({ mode, values, existing, principal, trx }) : values;
    const taken = await repo.duplicates({ ...existing, ...stored }, existing ? Number(existing[key]) : undefined, trx);
    if (taken.length) throw conflict(taken.map((rule) => fieldError(rule.field, 'unique', rule.messageId)));
    return stored;
  }

  async function write<T>(fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    try {
      return await db.transaction().execute(fn);
    } catch (e) {
      // A concurrent writer can still win the race between the check and the insert.
      if (pgCode(e) === '23505') throw conflict([fieldError('', 'unique', uniqueMessage)]);
      // Another table still refers to the row: 23503 (NO ACTION), 23001 (ON DELETE RESTRICT).
      if (pgCode(e) === '23503' || pgCode(e) === '23001') throw conflict([fieldError('', 'inUse', inUseMessage)]);
      throw e;
    }
  }

  return {
    paged,
    search: paged,
    download,
    list: async (request) => {
      const rows = await repo.list(schema['x-list'].listFields ?? [key, 'name'], visibility(request, true));
      return hooks.afterList ? hooks.afterList(rows, principalOf(request), db) : rows;
    },
    get: async (request) => (await read(parseId(request), visibility(request))) ?? Promise.reject(notFound()),
    create: async (request, reply) => {
      const principal = principalOf(request);
      if (!mayCreateRows(schema, principal)) throw forbidden();
      // Validated by the app's validator against bodySchema, server-owned fields dropped (bodyForValidation).
      const values = writableValues(schema, request.body as Body);
      if (scoped && (values.resellerId === undefined || values.resellerId === null)) values.resellerId = principal.resellerId;
      const row = await write(async (trx) => {
        const id = await repo.insert(await prepareWrite(trx, principal, 'create', values), trx);
        await hooks.afterWrite?.({ mode: 'create', id, values, principal, trx });
        return read(id, { principal }, trx);
      });
      return reply.status(201).send(row);
    },
    /**
     * Changes only the fields the body sends. `PUT /things/{id}` names the row in the path, `PUT /things/` in the
     * body. With the version the row was read at (body or If-Match), a row saved since answers 409 and is kept.
     */
    update: async (request) => {
      const principal = principalOf(request);
      const version = versioned ? expectedVersion(request) : undefined;
      const body = request.body as Body; // validated like a create's, the key in it (bodyForValidation)
      const id = Number(body[key]);
      const values = writableValues(schema, body);
      if (scoped && values.resellerId === null) delete values.resellerId;
      return write(async (trx) => {
        const existing = await repo.get(id, visibility(request), trx);
        if (!existing) throw notFound();
        if (version !== undefined && existing[VERSION] !== version) throw stale();
        if (!(await repo.update(id, await prepareWrite(trx, principal, 'update', values, existing), trx, version))) throw stale();
        await hooks.afterWrite?.({ mode: 'update', id, values, principal, trx });
        return read(id, { principal }, trx);
      });
    },
    delete: async (request, reply) => {
      const id = parseId(request);
      const principal = principalOf(request);
      if (!mayCreateRows(schema, principal)) throw forbidden();
      await write(async (trx) => {
        const existing = await repo.get(id, visibility(request), trx);
        if (!existing) throw notFound();
        await hooks.beforeDelete?.({ existing, principal, trx });
        await repo.remove(id, trx);
      });
      return reply.status(204).send();
    },
  };
}

const pick = (props: Record<string, unknown>, names?: string[]) => (names ? Object.fromEntries(names.map((n) => [n, props[n]])) : props);

/**
 * The query parameters of the `list` call (`x-list.filters`), each of its property's type and column range, so the
 * app's validator parses them and answers 400 naming the parameter for a value the property cannot hold; an empty
 * one stands for no filter.
 */
function listQuery(schema: EntitySchema) {
  const filters = schema['x-list'].filters ?? [];
  if (!filters.length) return undefined;
  const parameter = ({ field }: { field: string }) => {
    const prop = withColumnRange({ type: propertyType(schema.properties[field]) });
    // An empty parameter (`?type=`) is null: no filter.
    const type = [propertyType(prop), 'null'];
    const description = `Only rows whose ${field} equals this value; empty for all`;
    return { ...prop, type, ...(isNumeric(prop) ? { 'x-rule': 'range' } : { maxLength: 100 }), description };
  };
  return { type: 'object', properties: Object.fromEntries(filters.map((f) => [f.query, parameter(f)])) };
}

/** OpenAPI description of a generated route; validation itself is the engine's (ajv with ajv-errors). */
/** The response schema of one row of an entity, as its generated routes answer it (a domain's own routes reuse it). */
export function entityRowSchema(schema: EntitySchema) {
  return {
    type: 'object',
    properties: {
      ...Object.fromEntries(Object.entries(schema.properties).map(([n, p]) => [n, cleanProperty({ ...p, errorMessage: undefined, default: undefined })])),
      ...(isVersioned(schema) ? { [VERSION]: { type: 'integer', description: 'Raised by every update; send it back with an update' } } : {}),
    },
  };
}

/**
 * Answers a page as `EntityRepository.pageBody` gives it, on a route whose response is `entityPageSchema`: its JSON
 * text as it is (a string sent as JSON skips the response schema's serialiser), or the page for that schema to write.
 */
export function pageReply<T>(reply: FastifyReply, body: T | string): T | string {
  if (typeof body === 'string') void reply.type('application/json; charset=utf-8');
  return body;
}

/** The response schema of a page of an entity's rows (the paged and search calls). */
export function entityPageSchema(schema: EntitySchema) {
  // The response is serialised by this schema, which drops any property it does not name.
  return pageSchema(entityRowSchema(schema));
}

function routeDocs(schema: EntitySchema, route: ApiRoute) {
  const row = entityRowSchema(schema);
  const listRequest = listRequestSchema(schema['x-list'].search.map((f) => f.by));
  const envelope = entityPageSchema(schema);
  const tags = [schema['x-entity'].domain];
  // Any value of an integer key: some rows, such as the provider's, have negative ids. A list's path parameters are
  // its `x-list.pathFilters`, ids as well.
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const params = names.length ? { params: idParams(names, { min: INT_MIN }) } : {};
  const rows = englishText(schema.title ?? schema.$id).toLowerCase();
  const one = `${schema['x-entity'].name.replace(/([A-Z])/g, ' $1').toLowerCase()}`;
  switch (route.op) {
    case 'paged':
      return { tags, summary: `A page of ${rows}, sorted and searched`, ...params, body: listRequest, response: { 200: envelope } };
    case 'search':
      return { tags, summary: `A page of ${rows} (same as the paged call)`, ...params, body: listRequest, response: { 200: envelope } };
    case 'download':
      return {
        tags,
        ...params,
        querystring: downloadQuery,
        body: listRequest,
        summary: `The whole search of ${rows} as CSV, or as an Excel workbook with ?format=xlsx (streamed)`,
        produces: ['text/csv', XLSX_CONTENT_TYPE],
      };
    case 'list': {
      const querystring = listQuery(schema);
      return {
        tags,
        summary: `Every visible one of ${rows}, few fields each`,
        ...(querystring ? { querystring } : {}),
        response: { 200: { type: 'array', items: { ...row, properties: pick(row.properties, schema['x-list'].listFields) } } },
      };
    }
    case 'get':
      return { tags, summary: `One ${one}`, ...params, response: { 200: row } };
    case 'delete':
      return { tags, summary: `Deletes a ${one}`, ...params };
    case 'create':
      return { tags, summary: `Creates a ${one}`, body: bodySchema(schema, 'create'), response: { 201: row } };
    case 'update':
      return { tags, summary: `Changes the fields of a ${one} the body sends`, body: bodySchema(schema, 'update'), response: { 200: row } };
  }
}

/** Registers every call named in each schema's `x-api`, guarded by the schema's privilege; lists read `read`. */
export function registerEntityRoutes(
  app: FastifyInstance,
  db: Kysely<Database>,
  engine: Engine,
  schemas: EntitySchema[],
  hooks: Record<string, EntityHooks> = {},
  read: Kysely<Database> = db,
) {
  const checkReferences = createReferenceCheck(db, schemas);
  for (const schema of schemas) {
    const handlers = handlersFor(db, engine, schema, hooks[schema.$id] ?? {}, checkReferences, read);
    for (const route of apiRoutes(schema)) {
      const options: RouteOptions = {
        method: route.method,
        url: toFastifyPath(route.path),
        config: {
          privilege: route.op === 'list' ? [schema['x-entity'].privilege, ...(schema['x-entity'].listPrivileges ?? [])] : schema['x-entity'].privilege,
          ...(schema['x-entity'].adminWrites && WRITES.has(route.op) ? { adminOnly: true } : {}),
          ...(schema['x-entity'].resellerWrites && WRITES.has(route.op) ? { resellerOnly: true } : {}),
          // The entity form shows each error beside its top-level field.
          ...(route.op === 'create' || route.op === 'update' ? { topLevelFields: true } : {}),
        },
        // Documents the call and, through the app's validator, checks it with the schema's messages.
        schema: routeDocs(schema, route),
        ...(route.op === 'create' || route.op === 'update' ? { preValidation: bodyForValidation(schema, route.op) } : {}),
        handler: handlers[route.op],
      };
      app.route(options);
    }
  }
}
