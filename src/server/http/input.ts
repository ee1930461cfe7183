/**
 * Input read once, at the edge: ids and whole numbers parsed with the range of the column they meet, and text the
 * database could not store (a NUL byte) or would store as something else (a lone UTF-16 surrogate, which UTF-8
 * cannot carry, becomes U+FFFD) refused. Each mistake answers 400 naming the field, before any query runs.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_SEARCH_KEY } from '@shared/schema';
import { unstorablePath } from '@shared/storable';
import { MAX_PAGE_SIZE } from '@shared/wire';
import { fieldError, invalid } from './errors';

/** The range of PostgreSQL's integer, the type of serial keys and of most ids. */
export const INT_MIN = -2_147_483_648;
export const INT_MAX = 2_147_483_647;
/** Ids of bigint columns (bigserial keys): as far as a JSON number stays exact. */
export const BIGINT_MAX = Number.MAX_SAFE_INTEGER;

export interface Range {
  min?: number;
  max?: number;
}

/**
 * A whole number from a JSON number or from decimal digits (a path, a query, a CSV cell), within `range` (an
 * integer column's unless given); otherwise a 400 naming `field`: rule `type` for what is no whole number, `range`
 * for one the column cannot hold.
 */
export function parseInteger(value: unknown, field: string, { min = INT_MIN, max = INT_MAX }: Range = {}): number {
  const whole = typeof value === 'number' ? Number.isInteger(value) : typeof value === 'string' && /^-?\d{1,400}$/.test(value);
  if (!whole) throw invalid([fieldError(field, 'type', 'validation.invalid')]);
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min || n > max) throw invalid([fieldError(field, 'range', 'validation.invalid')]);
  return n;
}

/** Whether a body's value is an id: a JSON whole number from 1 to the integer column's largest. */
export const isId = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 1 && (value as number) <= INT_MAX;

/** An id: a whole number from 1 (unless `range.min` says otherwise) to the integer column's largest. */
export const parseId = (value: unknown, field: string, range: Range = {}) => parseInteger(value, field, { min: 1, ...range });

/**
 * The id in path parameter `name`: checked by the route's params schema (`idParams`, which `registerIdParams` gives
 * every route naming an id in its path), so here it is a number already.
 */
export const pathId = (request: FastifyRequest, name = 'id', range?: Range) => parseId((request.params as Record<string, unknown>)[name], name, range);

/** Path parameters that name ids: `id` and any `…Id` (`ruleId`, `subscriberId`, `resellerId`). */
const ID_PARAM = /^(id|\w+Id)$/;

/**
 * Gives every route whose path names ids (`/things/:id/rules/:ruleId`) and that declares no params schema of its
 * own the `idParams` of those names (other parameters as text), so the app's validator checks them before any handler reads them.
 */
export function registerIdParams(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const names = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]);
    const ids = names.filter((n) => ID_PARAM.test(n));
    if (!ids.length) return;
    const schema = (route.schema ??= {}) as { params?: unknown };
    // Other parameters (an IMSI, a country) are text the handler checks.
    const params = idParams(ids);
    for (const n of names) if (!ids.includes(n)) (params.properties as Record<string, object>)[n] = { type: 'string', maxLength: 100 };
    schema.params ??= { ...params, required: names };
  });
}

/** The id in query parameter `name`, undefined when absent or empty. */
export function queryId(request: FastifyRequest, name: string, range?: Range): number | undefined {
  const raw = (request.query as Record<string, unknown> | undefined)?.[name];
  return raw === undefined || raw === '' ? undefined : parseId(raw, name, range);
}

/**
 * A point in time from ISO 8601 text, within the years 1 to 9999 (year 0 does not exist for the database, and
 * dates past 9999 are no one's intent); otherwise a 400 naming `field`.
 */
export function parseTime(value: unknown, field: string): Date {
  const at = typeof value === 'string' ? new Date(value) : new Date(NaN);
  const year = at.getUTCFullYear();
  if (Number.isNaN(at.getTime())) throw invalid([fieldError(field, 'format', 'validation.dateTime.invalid')]);
  if (year < 1 || year > 9999) throw invalid([fieldError(field, 'range', 'validation.dateTime.invalid')]);
  return at;
}

/** Refuses text that cannot be stored, named by its path (`file` when the body is a file's text). */
export function checkStorable(value: unknown, field: string) {
  const at = unstorablePath(value);
  if (at !== undefined) throw invalid([fieldError(at ? (field ? `${field}.${at}` : at) : field, 'characters', 'validation.character.notAllowed')]);
}

/**
 * Every request's path parameters, query and parsed body (JSON, or a text body such as a CSV file) are checked
 * before validation and before any handler: sign-in and every other call alike.
 */
export function registerInputGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    checkStorable(request.params, '');
    checkStorable(request.query, '');
    checkStorable(request.body, typeof request.body === 'string' ? 'file' : '');
  });
}

/*
 * Schema fragments of the input every route shares, for the app's validator (engine/validator.ts): ids in a path or
 * a body, pages, list requests and search texts. A property's `x-rule` names the rule its bounds (minimum, maximum)
 * report, so a number out of its column's range answers rule `range` whichever bound it misses, as the parsers above do.
 */

/**
 * An id: a whole number from 1 (or `min`) to the integer column's largest (or `max`). One past the bounds answers
 * rule `range`, or `rule` where a body's id answers `type` for anything that is no id.
 */
export const idSchema = ({ min = 1, max = INT_MAX }: Range = {}, rule = 'range') => ({ type: 'integer', minimum: min, maximum: max, 'x-rule': rule });

/** Path parameters that are all ids, e.g. `idParams('id', 'ruleId')`; any integer key when `range` says so. */
export function idParams(names: string | string[] = 'id', range?: Range) {
  const list = [names].flat();
  return { type: 'object', required: list, properties: Object.fromEntries(list.map((n) => [n, idSchema(range)])) };
}

/** A page number: 0 to the integer column's largest. */
export const pageNumberSchema = (messageId = 'validation.page.invalid') => ({
  type: 'integer',
  minimum: 0,
  maximum: INT_MAX,
  'x-rule': 'range',
  errorMessage: messageId,
});

/** A page size from 1 to `max`. */
export const pageSizeSchema = (max = MAX_PAGE_SIZE, messageId = 'validation.pageSize.invalid') => ({
  type: 'integer',
  minimum: 1,
  maximum: max,
  'x-rule': 'range',
  errorMessage: messageId,
});

/** `?page=&size=` of a simple list: page from 0, size from 1 to `maxSize`, with defaults. */
export function pageQuery(maxSize: number, defaultSize: number, more: Record<string, object> = {}) {
  return {
    type: 'object',
    properties: {
      page: { type: 'integer', minimum: 0, maximum: INT_MAX, default: 0 },
      size: { type: 'integer', minimum: 1, maximum: maxSize, default: defaultSize },
      ...more,
    },
  };
}

/** Search text, at most `max` characters: longer text is refused, not searched. */
export const searchTextSchema = (max = MAX_SEARCH_KEY) => ({
  type: ['string', 'null'],
  maxLength: max,
  errorMessage: { type: 'validation.invalid', maxLength: 'validation.searchKey.tooLong' },
});

/**
 * A list request `{ sortBy, sortDir, searchBy, searchKey, page: { page, size, after } }`, with the messages of
 * `normaliseListRequest` (src/shared/schema.ts), which then checks sort fields and filters against the schema's
 * whitelist and `page.after` against the key's type.
 */
export function listRequestSchema(searchBy: string[] = []) {
  return {
    type: 'object',
    properties: {
      sortBy: { type: ['string', 'null'], maxLength: 100, errorMessage: 'validation.sortBy.invalid' },
      sortDir: { type: ['string', 'null'], enum: ['asc', 'desc', null], errorMessage: 'validation.sortDir.invalid' },
      searchBy: {
        type: ['string', 'null'],
        maxLength: 100,
        ...(searchBy.length ? { description: `One of ${searchBy.join(', ')}` } : {}),
        errorMessage: 'validation.searchBy.invalid',
      },
      searchKey: searchTextSchema(),
      page: {
        type: ['object', 'null'],
        properties: {
          page: pageNumberSchema(),
          size: pageSizeSchema(),
          after: {
            type: ['integer', 'string'],
            maxLength: 100,
            errorMessage: 'validation.page.after',
            description: 'Key of the last row of the previous page: the page starts after it (keyset paging; `page` is then only echoed)',
          },
        },
        errorMessage: { type: 'validation.page.invalid' },
      },
    },
  };
}

/**
 * A JSON body of the given properties and no others: a missing property answers its message from `requiredMessages`
 * (else `validation.required`), an unknown one `validation.unknownField`, as entity bodies do.
 */
export function objectBody(properties: Record<string, object>, required: string[] = [], requiredMessages: Record<string, string> = {}) {
  return {
    type: 'object',
    properties,
    required,
    additionalProperties: false,
    errorMessage: {
      ...(required.length ? { required: Object.fromEntries(required.map((n) => [n, requiredMessages[n] ?? 'validation.required'])) } : {}),
      additionalProperties: 'validation.unknownField',
    },
  };
}

/**
 * The response schema of a page of `item`s (the envelope `pageAnswer` in src/shared/wire.ts builds), with `more`
 * properties beside the page (an account, the range asked) required too.
 */
export function pageSchema(item: object, more: Record<string, object> = {}) {
  return {
    type: 'object',
    required: ['items', 'totalItemsCount', 'totalPageCount', 'currentPage', ...Object.keys(more)],
    properties: {
      items: { type: 'array', items: item },
      totalItemsCount: { type: 'integer' },
      totalPageCount: { type: 'integer' },
      currentPage: { type: 'integer' },
      totalIsEstimate: { type: 'boolean', description: "Present (true) when totalItemsCount is the planner's estimate of a large list, not a count" },
      ...more,
    },
  };
}
