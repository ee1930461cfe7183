import Ajv, { type AnySchema, type Options, type ValidateFunction } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import type { FastifyValidationResult } from 'fastify/types/schema';
import ajvErrors from 'ajv-errors';
import addFormats from 'ajv-formats';
import { joinFormats } from '@shared/join';
import type { EntitySchema } from '@shared/schema';
import { bodySchema, toFieldErrors, type ValidationMode } from '@shared/validation';
import type { FieldError } from '@shared/wire';
import { englishText } from '../http/errors';

/**
 * ajv with ajv-errors needs allErrors; bodies are bounded by Fastify's body limit and every string
 * property by a maxLength, so the cost of reporting every error stays small.
 */
export function createAjv(options: Options = {}) {
  const ajv = new Ajv({ allErrors: true, strict: false, multipleOfPrecision: 8, ...options });
  addFormats(ajv);
  ajvErrors(ajv);
  for (const [name, validate] of Object.entries(joinFormats)) ajv.addFormat(name, { type: 'string', validate });
  return ajv;
}

/**
 * The one validator compiler of every route (set on the app in app.ts): ajv with ajv-formats and ajv-errors, so a
 * schema's `errorMessage` gives the portal's message ids (the error handler in http/errors.ts turns the errors into
 * fields). A body is taken as sent: no type coercion, no defaults filled in, an unknown property refused where the
 * schema says `additionalProperties: false`. Path and query values arrive as text, so they are coerced to the
 * schema's types and take its defaults.
 */
export function createValidatorCompiler(): FastifySchemaCompiler<AnySchema> {
  // Verbose: an error carries its schema, whose `x-rule` may name the rule it reports (see http/errors.ts).
  const bodies = createAjv({ verbose: true });
  const urls = createAjv({ verbose: true, coerceTypes: 'array', useDefaults: true });
  return ({ schema, httpPart }) => (httpPart === 'body' ? bodies : urls).compile(schema) as FastifyValidationResult;
}

export interface EntityValidator {
  validate(mode: ValidationMode, body: unknown): FieldError[];
}

/** Compiles each entity's create and update body schemas once. */
export function createValidator(schema: EntitySchema): EntityValidator {
  const ajv = createAjv();
  const compiled: Record<ValidationMode, ValidateFunction> = {
    create: ajv.compile(bodySchema(schema, 'create')),
    update: ajv.compile(bodySchema(schema, 'update')),
  };
  return {
    validate(mode, body) {
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        return [{ field: '', rule: 'type', messageId: 'validation.invalid', message: englishText('validation.invalid') }];
      }
      const fn = compiled[mode];
      return fn(body) ? [] : toFieldErrors(fn.errors as never, englishText);
    },
  };
}
