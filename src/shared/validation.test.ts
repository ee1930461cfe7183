import Ajv from 'ajv';
import ajvErrors from 'ajv-errors';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import account from '@schemas/account.json';
import type { EntitySchema } from './schema';
import { bodySchema, toFieldErrors } from './validation';

const schema = account as unknown as EntitySchema;

function validate(mode: 'create' | 'update', body: unknown) {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  ajvErrors(ajv);
  const fn = ajv.compile(bodySchema(schema, mode));
  fn(body);
  return toFieldErrors(fn.errors as never, (id) => `text:${id}`);
}

describe('body validation from the schema', () => {
  it('puts the required message under the missing field', () => {
    expect(validate('create', {})).toEqual([
      { field: 'name', rule: 'required', messageId: 'validation.name.required', message: 'text:validation.name.required' },
    ]);
  });
  it('uses the property messages and names the failed keyword', () => {
    expect(validate('create', { name: 'x', email: 'bad' }).map((e) => [e.field, e.rule, e.messageId])).toEqual([
      ['name', 'minLength', 'validation.name.invalid'],
      ['email', 'format', 'validation.email.invalid'],
    ]);
  });
  it('accepts null for optional fields, refuses read-only and unknown ones', () => {
    expect(validate('create', { name: 'Valid', city: null })).toEqual([]);
    expect(validate('create', { name: 'Valid', accountId: 4 }).map((e) => e.field)).toEqual(['accountId']);
    expect(validate('update', { name: 'Valid' }).map((e) => [e.field, e.rule])).toEqual([['accountId', 'required']]);
  });
});
