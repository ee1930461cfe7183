import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import {
  apiRoute,
  apiRoutes,
  ListRequestError,
  normaliseListRequest,
  writableFields,
  type ApiOperation,
  type ApiRoute,
  type EntitySchema,
} from '@shared/schema';
import { bodySchema, cleanProperty } from '@shared/validation';
import type { ListRequest } from '@shared/wire';
import { conflict, fieldError, invalid, notFound } from '../http/errors';
import { principalOf } from '../http/guard';
import type { Principal } from '../http/principal';
import type { Engine } from '../db';
import { queryBatches, sendCsv } from './csv';
import { EntityRepository, type Visibility } from './repository';
import { createValidator } from './validator';

type Body = Record<string, unknown>;
type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

export const toFastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

function parseId(request: FastifyRequest): number {
  const raw = (request.params as { id?: string }).id ?? '';
  if (!/^-?\d{1,10}$/.test(raw)) throw invalid([fieldError('id', 'type', 'validation.invalid')]);
  return Number(raw);
}

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

async function resellerInSubtree(db: Kysely<any>, principal: Principal, resellerId: number): Promise<boolean> {
  const row = await db.selectFrom('reseller').select('id').where('id', '=', resellerId)
    .where('path', 'like', sql<string>`${principal.resellerPath} || '%'`).executeTakeFirst();
  return Boolean(row);
}

function pgCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? (error as { code?: string }).code : undefined;
}

/** Drops the properties the server owns (read-only, joined), so a client may send back a row it read. */
function withoutServerFields(schema: EntitySchema, body: unknown, keep?: string): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const writable = new Set(writableFields(schema));
  return Object.fromEntries(Object.entries(body).filter(([k]) => k === keep || writable.has(k) || !(k in schema.properties)));
}

/** What a domain adds to the generic calls of its entity, inside the writing transaction. */
export interface EntityHooks {
  /**
   * Turns validated values into what is stored and enforces the domain's own rules (throwing an HttpError).
   * `existing` is the row before an update.
   */
  beforeWrite?(ctx: { mode: 'create' | 'update'; values: Body; existing?: Body; principal: Principal; trx: Kysely<any> }): Promise<Body>;
  beforeDelete?(ctx: { existing: Body; principal: Principal; trx: Kysely<any> }): Promise<void>;
  /** Writes what lives beside the row (e.g. child tables), after the row itself; `values` as validated. */
  afterWrite?(ctx: { mode: 'create' | 'update'; id: number; values: Body; principal: Principal; trx: Kysely<any> }): Promise<void>;
  /** Adds what lives beside a row to the row a get, create or update answers. */
  afterRead?(row: Body, db: Kysely<any>): Promise<Body>;
}

/** Handlers of the generic calls, shared by every schema. */
function handlersFor(db: Kysely<any>, engine: Engine, schema: EntitySchema, hooks: EntityHooks): Record<ApiOperation, Handler> {
  const repo = new EntityRepository(db, schema);
  const validator = createValidator(schema);
  const key = schema['x-entity'].key;
  const scoped = schema['x-entity'].scope === 'reseller';
  const uniqueMessage = schema['x-entity'].uniqueMessage ?? 'validation.unique';
  const inUseMessage = schema['x-entity'].inUseMessage ?? 'error.inUse';
  const updateRoute = apiRoute(schema, 'update');
  const visibility = (request: FastifyRequest): Visibility => ({ principal: principalOf(request), query: request.query as Body });
  const read = async (id: number, v: Visibility, trx: Kysely<any> = db) => {
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
  const listRequest = (request: FastifyRequest) => normaliseListRequest(schema, (request.body ?? {}) as ListRequest, principalOf(request).isAdmin);

  const paged: Handler = async (request) => listing(() => repo.page(listRequest(request), visibility(request)));

  /** The whole search as CSV, streamed: one column per readable property, named as on the wire. */
  const download: Handler = async (request, reply) => {
    const fields = repo.exportFields();
    const query = await listing(() => repo.exportQuery(listRequest(request), visibility(request)));
    const day = new Date().toISOString().slice(0, 10);
    return sendCsv(reply, `${schema['x-entity'].name}-${day}.csv`, fields, queryBatches(db, engine, query), (row) => fields.map((f) => row[f]));
  };

  /** Checks shared by create and update, inside the writing transaction; answers what is stored. */
  async function prepareWrite(trx: Kysely<any>, principal: Principal, mode: 'create' | 'update', values: Body, existing?: Body) {
    if (scoped && values.resellerId !== undefined && values.resellerId !== null && !(await resellerInSubtree(trx, principal, Number(values.resellerId)))) {
      throw invalid([fieldError('resellerId', 'scope', 'validation.reseller.notAllowed')]);
    }
    const stored = hooks.beforeWrite ? await hooks.beforeWrite({ mode, values, existing, principal, trx }) : values;
    const taken = await repo.duplicates({ ...existing, ...stored }, existing ? Number(existing[key]) : undefined, trx);
    if (taken.length) throw conflict(taken.map((rule) => fieldError(rule.field, 'unique', rule.messageId)));
    return stored;
  }

  async function write<T>(fn: (trx: Kysely<any>) => Promise<T>): Promise<T> {
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
    list: async (request) => repo.list(schema['x-list'].listFields ?? [key, 'name'], visibility(request)),
    get: async (request) => (await read(parseId(request), visibility(request))) ?? Promise.reject(notFound()),
    create: async (request, reply) => {
      const principal = principalOf(request);
      const body = withoutServerFields(schema, request.body);
      const errors = validator.validate('create', body);
      if (errors.length) throw invalid(errors);
      const values = writableValues(schema, body as Body);
      if (scoped && (values.resellerId === undefined || values.resellerId === null)) values.resellerId = principal.resellerId;
      const row = await write(async (trx) => {
        const id = await repo.insert(await prepareWrite(trx, principal, 'create', values), trx);
        await hooks.afterWrite?.({ mode: 'create', id, values, principal, trx });
        return read(id, { principal }, trx);
      });
      return reply.status(201).send(row);
    },
    update: async (request) => {
      const principal = principalOf(request);
      const body = withoutServerFields(schema, request.body, key) as Body;
      // `PUT /things/{id}` names the row in the path, `PUT /things/` in the body.
      if (updateRoute?.path.includes('{id}') && typeof body === 'object' && body !== null) body[key] = parseId(request);
      const errors = validator.validate('update', body);
      if (errors.length) throw invalid(errors);
      const id = Number(body[key]);
      const values = writableValues(schema, body);
      if (scoped && values.resellerId === null) delete values.resellerId;
      return write(async (trx) => {
        const existing = await repo.get(id, visibility(request), trx);
        if (!existing) throw notFound();
        await repo.update(id, await prepareWrite(trx, principal, 'update', values, existing), trx);
        await hooks.afterWrite?.({ mode: 'update', id, values, principal, trx });
        return read(id, { principal }, trx);
      });
    },
    delete: async (request, reply) => {
      const id = parseId(request);
      const principal = principalOf(request);
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

/** OpenAPI description of a generated route; validation itself is the engine's (ajv with ajv-errors). */
function routeDocs(schema: EntitySchema, route: ApiRoute) {
  const row = {
    type: 'object',
    properties: Object.fromEntries(Object.entries(schema.properties).map(([n, p]) => [n, cleanProperty({ ...p, errorMessage: undefined, default: undefined })])),
  };
  const listRequest = {
    type: 'object',
    properties: {
      sortBy: { type: 'string' }, sortDir: { type: 'string', enum: ['asc', 'desc'] },
      searchBy: { type: 'string', enum: schema['x-list'].search.map((f) => f.by) }, searchKey: { type: 'string' },
      page: {
        type: 'object',
        properties: {
          page: { type: 'integer' }, size: { type: 'integer' },
          after: { type: ['integer', 'string'], description: 'Key of the last row of the previous page: the page starts after it (keyset paging; `page` is then only echoed)' },
        },
      },
    },
  };
  const envelope = {
    type: 'object',
    properties: { items: { type: 'array', items: row }, totalPageCount: { type: 'integer' }, totalItemsCount: { type: 'integer' }, currentPage: { type: 'integer' } },
  };
  const tags = [schema['x-entity'].domain];
  const params = route.path.includes('{id}') ? { type: 'object', properties: { id: { type: 'integer' } } } : undefined;
  switch (route.op) {
    case 'paged':
    case 'search': return { tags, body: listRequest, response: { 200: envelope } };
    case 'download': return { tags, body: listRequest, summary: 'The whole search as CSV (streamed)', produces: ['text/csv'] };
    case 'list': return { tags, response: { 200: { type: 'array', items: { ...row, properties: pick(row.properties, schema['x-list'].listFields) } } } };
    case 'get': return { tags, params, response: { 200: row } };
    case 'delete': return { tags, params };
    case 'create': return { tags, body: bodySchema(schema, 'create'), response: { 201: row } };
    case 'update': return { tags, body: bodySchema(schema, 'update'), response: { 200: row } };
  }
}

/** Registers every call named in each schema's `x-api`, guarded by the schema's privilege. */
export function registerEntityRoutes(app: FastifyInstance, db: Kysely<any>, engine: Engine, schemas: EntitySchema[], hooks: Record<string, EntityHooks> = {}) {
  for (const schema of schemas) {
    const handlers = handlersFor(db, engine, schema, hooks[schema.$id] ?? {});
    for (const route of apiRoutes(schema)) {
      const options: RouteOptions = {
        method: route.method,
        url: toFastifyPath(route.path),
        config: {
          privilege: route.op === 'list' ? [schema['x-entity'].privilege, ...(schema['x-entity'].listPrivileges ?? [])] : schema['x-entity'].privilege,
          ...(schema['x-entity'].adminWrites && ['create', 'update', 'delete'].includes(route.op) ? { adminOnly: true } : {}),
        },
        schema: routeDocs(schema, route),
        // The schema above documents the call; the engine's own validator checks it with the schema's messages.
        validatorCompiler: () => (data: unknown) => ({ value: data }),
        handler: handlers[route.op],
      };
      app.route(options);
    }
  }
}
