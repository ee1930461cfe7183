import { readFileSync } from 'node:fs';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { ApiError, FieldError } from '@shared/wire';
import { DatabaseBusy } from '../db/queue';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Body errors named by their top-level field (`rates`, not `rates[0].rate`), as an entity form shows them. */
    topLevelFields?: boolean;
  }
}

const english: Record<string, string> = JSON.parse(readFileSync(new URL('../../../i18n/en.json', import.meta.url), 'utf8'));

/** The English text of a message id: errors carry both, so any client can show either. */
export function englishText(messageId: string): string {
  return english[messageId] ?? messageId;
}

export function fieldError(field: string, rule: string, messageId: string): FieldError {
  return { field, rule, messageId, message: englishText(messageId) };
}

/** An error a handler throws on purpose; the error handler turns it into the one wire shape. */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly code: string,
    messageOrId: string,
    public readonly fields?: FieldError[],
  ) {
    super(englishText(messageOrId));
  }
  toJSON(): ApiError {
    return { statusCode: this.statusCode, code: this.code, message: this.message, ...(this.fields ? { fields: this.fields } : {}) };
  }
}

export const unauthorized = () => new HttpError(401, 'UNAUTHORIZED', 'error.unauthorized');
export const forbidden = () => new HttpError(403, 'FORBIDDEN', 'error.forbidden');
export const notFound = () => new HttpError(404, 'NOT_FOUND', 'error.notFound');
export const invalid = (fields: FieldError[]) => new HttpError(400, 'VALIDATION_FAILED', 'error.validation', fields);
export const conflict = (fields: FieldError[]) => new HttpError(409, 'CONFLICT', fields[0]?.messageId ?? 'error.conflict', fields);

/** A JSON pointer as the portal names fields: `/save/3/name` is `save[3].name`. */
function fieldPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

interface AjvError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown> & { errors?: AjvError[] };
  /** The schema holding the failed keyword (the validator is verbose). */
  parentSchema?: { 'x-rule'?: string };
}

const BOUNDS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']);

/** Message ids of rules a schema gives no `errorMessage` for. */
const RULE_MESSAGES: Record<string, string> = { required: 'validation.required', additionalProperties: 'validation.unknownField' };

/**
 * The app validator's errors (see engine/validator.ts) as fields: the path of the value (`page.after`,
 * `save[2].name`, a missing or unknown property under its parent), the rule it breaks (a bound's as the value's `x-rule` names it) and
 * the message id, which is the schema's `errorMessage` for that rule (ajv-errors) or the rule's default. One field
 * per path and rule; with `topLevel`, fields are named by their first segment.
 */
export function validationFields(errors: AjvError[], topLevel = false): FieldError[] {
  const out: FieldError[] = [];
  for (const e of errors) {
    const messageId = e.keyword === 'errorMessage' ? String(e.message) : (RULE_MESSAGES[e.keyword] ?? 'validation.invalid');
    for (const o of e.keyword === 'errorMessage' && e.params.errors?.length ? e.params.errors : [e]) {
      const child = o.keyword === 'required' ? o.params.missingProperty : o.keyword === 'additionalProperties' ? o.params.additionalProperty : undefined;
      // A message a value's schema gives (`errorMessage`) names that value, even for what broke inside it.
      const path = fieldPath(child === undefined ? e.instancePath : `${o.instancePath}/${String(child)}`);
      const field = topLevel ? path.split(/[.[]/)[0] : path;
      // A value's schema may name the rule its bounds report (`x-rule`, see http/input.ts).
      const rule = (BOUNDS.has(o.keyword) && o.parentSchema?.['x-rule']) || o.keyword;
      if (!out.some((x) => x.field === field && x.rule === rule)) out.push(fieldError(field, rule, messageId));
    }
  }
  return out;
}

/** An error the database raised (pg and PGlite alike): a five-character SQLSTATE and a severity. */
function isDatabaseError(error: unknown): boolean {
  const e = error as { code?: unknown; severity?: unknown } | null;
  return typeof e === 'object' && e !== null && typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && typeof e.severity === 'string';
}

/**
 * SQLSTATEs a value of the request causes (a number out of a column's range, text that is no number or date, a
 * character the encoding cannot hold, text too long for a column or an index): the rule each answers 400 with. The
 * checks at the edge come first; these catch what slips past them, never with the database's own words.
 */
const BAD_VALUE: Record<string, string> = {
  '22001': 'maxLength',
  '22003': 'range',
  '22007': 'format',
  '22008': 'range',
  '22021': 'characters',
  '22P02': 'type',
  '22P05': 'characters',
  '2201W': 'range',
  '2201X': 'range',
  '54000': 'maxLength',
};

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) return reply.status(error.statusCode).send(error.toJSON());
    if (error instanceof DatabaseBusy) {
      // Refused before any work: the client may send the same request again after Retry-After.
      return reply
        .status(503)
        .header('retry-after', String(error.retryAfterSeconds))
        .send({ statusCode: 503, code: 'BUSY', message: englishText('error.busy') } satisfies ApiError);
    }
    if (error.validation) {
      // An entity form shows each error beside its field: a route may ask for top-level names (`rates`, not `rates[0].rate`).
      const topLevel = request.routeOptions.config?.topLevelFields === true && error.validationContext === 'body';
      return reply.status(400).send(invalid(validationFields(error.validation as AjvError[], topLevel)).toJSON());
    }
    if (isDatabaseError(error)) {
      // The database's message and code stay in the log: they describe tables, columns and values.
      const { code, column } = error as { code: string; column?: string };
      const rule = BAD_VALUE[code];
      request.log[rule ? 'warn' : 'error'](error);
      if (rule) return reply.status(400).send(invalid([fieldError(column ?? '', rule, 'validation.invalid')]).toJSON());
      return reply.status(500).send({ statusCode: 500, code: 'INTERNAL', message: englishText('app.error.generic') } satisfies ApiError);
    }
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error(error);
    const body: ApiError =
      status === 500
        ? { statusCode: 500, code: 'INTERNAL', message: englishText('app.error.generic') }
        : { statusCode: status, code: error.code ?? 'BAD_REQUEST', message: error.message };
    return reply.status(status).send(body);
  });
  app.setNotFoundHandler((request, reply) => reply.status(404).send(notFound().toJSON()));
}
