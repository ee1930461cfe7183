import { readFileSync } from 'node:fs';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { ApiError, FieldError } from '@shared/wire';

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

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) return reply.status(error.statusCode).send(error.toJSON());
    if (error.validation) {
      // Fastify's own schema check of params, query or body (outside the entity engine).
      const fields = error.validation.map((v) => fieldError(String(v.instancePath || v.params?.missingProperty || '').replace(/^\//, ''), v.keyword, 'validation.invalid'));
      return reply.status(400).send(invalid(fields).toJSON());
    }
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error(error);
    const body: ApiError = { statusCode: status, code: error.code ?? (status === 500 ? 'INTERNAL' : 'BAD_REQUEST'), message: status === 500 ? englishText('app.error.generic') : error.message };
    return reply.status(status).send(body);
  });
  app.setNotFoundHandler((request, reply) => reply.status(404).send(notFound().toJSON()));
}
