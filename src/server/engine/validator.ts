import Ajv, { type ValidateFunction } from 'ajv';
import ajvErrors from 'ajv-errors';
import addFormats from 'ajv-formats';
import type { EntitySchema } from '@shared/schema';
import { bodySchema, toFieldErrors, type ValidationMode } from '@shared/validation';
import type { FieldError } from '@shared/wire';
import { englishText } from '../http/errors';

/**
 * ajv with ajv-errors needs allErrors; bodies are bounded by Fastify's body limit and every string
 * property by a maxLength, so the cost of reporting every error stays small.
 */
function createAjv() {
  const ajv = new Ajv({ allErrors: true, strict: false, multipleOfPrecision: 8 });
  addFormats(ajv);
  ajvErrors(ajv);
  return ajv;
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
