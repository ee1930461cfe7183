/**
 * CRUD and paged-list handlers generated from each schema's `x-api`, answering like the server: the same list
 * request rules and paging (`normaliseListRequest`, `pageInMemory`), reseller scoping, 400 on invalid bodies, 409 on a
 * duplicate of an `x-unique` field and on an update over a newer version, 403 on a tenant's own protected fields.
 */
import { http, HttpResponse, type HttpHandler } from 'msw';
import {
  apiRoutes,
  insideTenant,
  isVersioned,
  listEquality,
  ListRequestError,
  mayCreateRows,
  normaliseListRequest,
  pageInMemory,
  protectedFields,
  uniqueRules,
  VERSION,
  writableFields,
  type ApiRoute,
  type EntitySchema,
} from '@shared/schema';
import { csvLine } from '@shared/csv';
import { cellKinds, DATE_FORMATS, spreadsheetCell, XLSX_CONTENT_TYPE, type CellKind } from '@shared/spreadsheet';
import { hasPrivilege } from '@shared/privileges';
import type { ListRequest } from '@shared/wire';
import type { MockDatabase, MockUser, Row } from './data';
import { errorResponse, fieldError, forbiddenResponse, messageText, notFoundResponse, unauthorizedResponse } from './http';
import { callerOf, isAdmin, visibleResellerIds } from './session';
import { validateBody } from './validate';
import { applicableTo, customWrite, fixedChanges, purgeValues } from './customFieldHandlers';
import { customName, listValue } from '@shared/customFields';

interface Context {
  db: MockDatabase;
  schema: EntitySchema;
  user: MockUser;
  request: Request;
  params: Record<string, string | readonly string[] | undefined>;
}

const name = (schema: EntitySchema) => schema['x-entity'].name;
const keyOf = (schema: EntitySchema) => schema['x-entity'].key;
/** An entity's rows; the resellers are the session's own list (they sign users in and scope every other row). */
const table = (db: MockDatabase, schema: EntitySchema): Row[] =>
  schema['x-entity'].scope === 'tree' ? (db.resellers as unknown as Row[]) : (db.tables[name(schema)] ??= []);

/** Fills joined read-only columns, e.g. an account's resellerName. */
function withJoins(db: MockDatabase, schema: EntitySchema, row: Row): Row {
  const out: Row = isVersioned(schema) ? { ...row, [VERSION]: row[VERSION] ?? 1 } : { ...row };
  for (const [field, prop] of Object.entries(schema.properties)) {
    const join = prop['x-join'];
    if (!join) continue;
    const source: Row[] = join.table === 'reseller' ? db.resellers.map((r) => ({ ...r })) : (db.tables[join.table] ?? []);
    const target = source.find((r) => r[join.key ?? (join.table === 'reseller' ? 'id' : join.on)] === row[join.on]);
    out[field] = target?.[join.column] ?? null;
  }
  return out;
}

function inScope({ db, schema, user }: Context, row: Row): boolean {
  if (schema['x-entity'].scope === 'tree') return visibleResellerIds(db, user).has(Number(row[keyOf(schema)]));
  if (schema['x-entity'].scope !== 'reseller') return true;
  return visibleResellerIds(db, user).has(Number(row.resellerId));
}

/** The visible rows, narrowed as the server narrows a list (`listEquality`; its query filters for the `list` call). */
function visibleRows(ctx: Context, applyHidden: boolean, listCall = false): Row[] {
  const search = new URL(ctx.request.url).searchParams;
  const hidden = ctx.schema['x-list'].hiddenUnless;
  const include = !hidden || search.get(hidden.query) === 'true';
  const where = Object.entries(listEquality(ctx.schema, ctx.params, listCall ? Object.fromEntries(search) : undefined));
  return table(ctx.db, ctx.schema)
    .filter((row) => inScope(ctx, row))
    .filter((row) => where.every(([field, value]) => String(row[field]) === String(value)))
    .filter((row) => !applyHidden || include || !hidden || row[hidden.field] !== true)
    .map((row) => withJoins(ctx.db, ctx.schema, row));
}

function duplicateErrors(ctx: Context, candidate: Row) {
  const key = keyOf(ctx.schema);
  const same = (a: unknown, b: unknown) =>
    String(a ?? '')
      .trim()
      .toLowerCase() ===
    String(b ?? '')
      .trim()
      .toLowerCase();
  return uniqueRules(ctx.schema)
    .filter(({ field, scope }) => {
      if (!String(candidate[field] ?? '').trim()) return false;
      return table(ctx.db, ctx.schema).some(
        (row) => row[key] !== candidate[key] && same(row[field], candidate[field]) && scope.every((s) => row[s] === candidate[s]),
      );
    })
    .map(({ field, messageId }) => fieldError(field, 'unique', messageId));
}

/** Checks a body, then the row it would write; answers the error response, or null when the row may be written. */
function rejectBody(ctx: Context, body: Row, candidate: Row, mode: 'create' | 'update') {
  const errors = validateBody(ctx.schema, body, mode);
  if (errors.length) return errorResponse(400, 'VALIDATION', errors[0].message, errors);
  if (ctx.schema['x-entity'].scope === 'reseller' && !visibleResellerIds(ctx.db, ctx.user).has(Number(candidate.resellerId))) {
    const error = fieldError('resellerId', 'scope', 'validation.reseller.notAllowed');
    return errorResponse(400, 'VALIDATION', error.message, [error]);
  }
  const duplicates = duplicateErrors(ctx, candidate);
  if (duplicates.length) return errorResponse(409, 'DUPLICATE', duplicates[0].message, duplicates);
  return null;
}

/** The stored part of a body: every writable field, a missing one as null on create; on update only those sent. */
function writable(schema: EntitySchema, body: Row, mode: 'create' | 'update' = 'create'): Row {
  const key = keyOf(schema);
  return Object.fromEntries(
    writableFields(schema)
      .filter((f) => f !== key && (mode === 'create' || f in body))
      .map((f) => [f, body[f] ?? null]),
  );
}

const operations: Record<ApiRoute['op'], (ctx: Context) => Promise<Response> | Response> = {
  paged: pageHandler,
  search: pageHandler,
  download: downloadHandler,
  list: (ctx) => {
    const fields = ctx.schema['x-list'].listFields ?? [keyOf(ctx.schema)];
    const rows = visibleRows(ctx, true, true);
    return HttpResponse.json(rows.map((row) => Object.fromEntries(fields.map((f) => [f, row[f] ?? null]))));
  },
  get: (ctx) => {
    const row = table(ctx.db, ctx.schema).find((r) => String(r[keyOf(ctx.schema)]) === String(ctx.params.id));
    if (!row) return notFoundResponse();
    if (!inScope(ctx, row)) return forbiddenResponse();
    return HttpResponse.json(withJoins(ctx.db, ctx.schema, row));
  },
  create: async (ctx) => {
    if (!mayCreateRows(ctx.schema, { ...ctx.user, isAdmin: isAdmin(ctx.user) })) return forbiddenResponse();
    const body = (await ctx.request.json()) as Row;
    const key = keyOf(ctx.schema);
    const rows = table(ctx.db, ctx.schema);
    const candidate: Row = { ...writable(ctx.schema, body), [key]: Math.max(0, ...rows.map((r) => Number(r[key]))) + 1 };
    if (ctx.schema['x-entity'].scope === 'reseller' && candidate.resellerId === null) candidate.resellerId = ctx.user.resellerId;
    if (ctx.schema['x-entity'].scope === 'tree' && candidate.parentId === null) candidate.parentId = ctx.user.resellerId;
    const rejected = rejectBody(ctx, body, candidate, 'create');
    if (rejected) return rejected;
    const custom = customWrite(ctx.db, ctx.schema, candidate, candidate, 'create');
    if ('refused' in custom) return custom.refused;
    rows.push(custom.row);
    return HttpResponse.json(withJoins(ctx.db, ctx.schema, candidate), { status: 201 });
  },
  update: async (ctx) => {
    const body = (await ctx.request.json()) as Row;
    const key = keyOf(ctx.schema);
    const rows = table(ctx.db, ctx.schema);
    const index = rows.findIndex((r) => String(r[key]) === String(body[key] ?? ctx.params.id));
    if (index < 0) return notFoundResponse();
    if (!inScope(ctx, rows[index])) return forbiddenResponse();
    const current = rows[index];
    const version = Number(current[VERSION] ?? 1);
    if (isVersioned(ctx.schema) && body[VERSION] !== undefined && body[VERSION] !== version) {
      return errorResponse(409, 'STALE', messageText('error.stale'), [fieldError(VERSION, 'stale', 'error.stale')]);
    }
    const { [VERSION]: _sent, ...fields } = body;
    // A PUT changes the fields it sends; a user inside the row's tenant changes none of its protected ones.
    const changes = writable(ctx.schema, fields, 'update');
    if (insideTenant(ctx.schema, { ...ctx.user, isAdmin: isAdmin(ctx.user) }, current)) {
      const refused = protectedFields(ctx.schema).filter((f) => f in changes && JSON.stringify(changes[f] ?? null) !== JSON.stringify(current[f] ?? null));
      if (refused.length)
        return errorResponse(
          403,
          'FORBIDDEN',
          messageText('validation.field.protected'),
          refused.map((f) => fieldError(f, 'protected', 'validation.field.protected')),
        );
    }
    if (name(ctx.schema) === 'customField') {
      const fixed = fixedChanges(current, changes);
      if (fixed.length) return errorResponse(400, 'VALIDATION', fixed[0].message, fixed);
    }
    const custom = customWrite(ctx.db, ctx.schema, changes, current, 'update');
    if ('refused' in custom) return custom.refused;
    const candidate: Row = { ...current, ...custom.row, ...(isVersioned(ctx.schema) ? { [VERSION]: version + 1 } : {}) };
    const rejected = rejectBody(ctx, fields, candidate, 'update');
    if (rejected) return rejected;
    rows[index] = candidate;
    return HttpResponse.json(withJoins(ctx.db, ctx.schema, candidate));
  },
  delete: (ctx) => {
    const rows = table(ctx.db, ctx.schema);
    const index = rows.findIndex((r) => String(r[keyOf(ctx.schema)]) === String(ctx.params.id));
    if (index < 0) return notFoundResponse();
    if (!inScope(ctx, rows[index])) return forbiddenResponse();
    if (name(ctx.schema) === 'customField') purgeValues(ctx.db, rows[index]);
    rows.splice(index, 1);
    return new HttpResponse(null, { status: 204 });
  },
};

async function downloadHandler(ctx: Context): Promise<Response> {
  const body = (await ctx.request.json()) as ListRequest;
  const rows = visibleRows(ctx, true);
  const custom = applicableTo(ctx.db, ctx.user, ctx.schema);
  const request = normaliseListRequest(ctx.schema, body, isAdmin(ctx.user), custom);
  const { items } = pageInMemory(ctx.schema, rows, { ...request, page: 0, size: Math.max(1, rows.length) });
  // As the server writes it: the schema's fields (the values object aside), then a column per applicable field.
  const fields = [
    ...Object.entries(ctx.schema.properties)
      .filter(([, p]) => !p.writeOnly && !p['x-custom-fields'])
      .map(([name]) => name),
    ...custom.map(customName),
  ];
  const values = items.map((row) => fields.map((f) => listValue(withJoins(ctx.db, ctx.schema, row), f)));
  const format = new URL(ctx.request.url).searchParams.get('format') ?? 'csv';
  if (format === 'xlsx') return xlsxResponse(ctx.schema['x-entity'].name, fields, cellKinds(ctx.schema, fields, custom), values);
  if (format !== 'csv')
    return errorResponse(400, 'VALIDATION_FAILED', messageText('error.validation'), [fieldError('format', 'enum', 'validation.downloadFormat.invalid')]);
  const csv = `\uFEFF${csvLine(fields)}${values.map((row) => csvLine(row)).join('')}`;
  return new HttpResponse(csv, {
    headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${ctx.schema['x-entity'].name}.csv"` },
  });
}

/** The same rows as an Excel workbook, as the server writes it: typed cells, the header bold and frozen. */
async function xlsxResponse(name: string, fields: string[], kinds: CellKind[], values: unknown[][]): Promise<Response> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.addRow(fields).font = { bold: true };
  for (const row of values) sheet.addRow(kinds.map((kind, i) => spreadsheetCell(row[i], kind)));
  kinds.forEach((kind, i) => {
    if (kind === 'date' || kind === 'dateTime') sheet.getColumn(i + 1).numFmt = DATE_FORMATS[kind];
  });
  return new HttpResponse(await workbook.xlsx.writeBuffer(), {
    headers: { 'content-type': XLSX_CONTENT_TYPE, 'content-disposition': `attachment; filename="${name}.xlsx"` },
  });
}

async function pageHandler(ctx: Context): Promise<Response> {
  const body = (await ctx.request.json()) as ListRequest;
  try {
    const request = normaliseListRequest(ctx.schema, body, isAdmin(ctx.user), applicableTo(ctx.db, ctx.user, ctx.schema));
    return HttpResponse.json(pageInMemory(ctx.schema, visibleRows(ctx, true), request));
  } catch (error) {
    if (!(error instanceof ListRequestError)) throw error;
    const field = fieldError(error.field, error.rule, error.messageId);
    return errorResponse(400, 'VALIDATION', field.message, [field]);
  }
}

/** `/portal/accounts/{id}` to MSW's `/portal/accounts/:id`, under the given base. */
function mswPath(path: string, base: string): string {
  return path.replace(/^\/portal(?=\/|$)/, base).replace(/\{(\w+)\}/g, ':$1');
}

export function entityHandlers(db: MockDatabase, schemas: readonly EntitySchema[], base: string): HttpHandler[] {
  const routes = schemas.flatMap((schema) => apiRoutes(schema).map((route) => ({ schema, route })));
  // Fixed paths before parameterised ones, so `/accounts/list` is not read as the account with id "list".
  routes.sort((a, b) => Number(a.route.path.includes('{')) - Number(b.route.path.includes('{')));
  return routes.map(({ schema, route }) => {
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    return http[method](mswPath(route.path, base), ({ request, params }) => {
      const user = callerOf(db, request);
      if (!user) return unauthorizedResponse();
      // The list call feeds selects on other screens, so other privileges may open it too (e.g. roles for users).
      const privileges = [schema['x-entity'].privilege, ...(route.op === 'list' ? (schema['x-entity'].listPrivileges ?? []) : [])];
      if (!privileges.some((p) => hasPrivilege(user.privileges, p))) return forbiddenResponse();
      return operations[route.op]({ db, schema, user, request, params });
    });
  });
}
