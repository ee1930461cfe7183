/**
 * Checks a request body with the same body schema and ajv set-up as the server (`@shared/validation`), and the same
 * refusal of text it cannot store (`@shared/storable`), so the mocks answer 400 with the same fields, rules and
 * message ids.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import ajvErrors from 'ajv-errors';
import addFormats from 'ajv-formats';
import { writableFields, type EntitySchema } from '@shared/schema';
import { unstorablePath } from '@shared/storable';
import { bodySchema, toFieldErrors, type ValidationMode } from '@shared/validation';
import type { FieldError } from '@shared/wire';
import { fieldError, messageText } from './http';

const compiled = new Map<string, ValidateFunction>();

function validatorFor(schema: EntitySchema, mode: ValidationMode): ValidateFunction {
  const id = `${schema['x-entity'].name}:${mode}`;
  let fn = compiled.get(id);
  if (!fn) {
    const ajv = new Ajv({ allErrors: true, strict: false, multipleOfPrecision: 8 });
    addFormats(ajv);
    ajvErrors(ajv);
    fn = ajv.compile(bodySchema(schema, mode));
    compiled.set(id, fn);
  }
  return fn;
}

/** The fields a client may send: writable ones, and the key on update. Read-only values sent back are dropped. */
export function writablePart(schema: EntitySchema, body: Record<string, unknown>, mode: ValidationMode): Record<string, unknown> {
  const key = schema['x-entity'].key;
  const names = writableFields(schema).filter((n) => n !== key);
  if (mode === 'update') names.push(key);
  return Object.fromEntries(names.filter((n) => n in body).map((n) => [n, body[n]]));
}

export function validateBody(schema: EntitySchema, body: Record<string, unknown>, mode: ValidationMode): FieldError[] {
  // The server refuses text it cannot store before anything else, naming where it is.
  const unstorable = unstorablePath(body);
  if (unstorable !== undefined) return [fieldError(unstorable, 'characters', 'validation.character.notAllowed')];
  const fn = validatorFor(schema, mode);
  return fn(writablePart(schema, body, mode)) ? [] : toFieldErrors(fn.errors as never, messageText);
}
