import { describe, expect, it } from 'vitest';
import { createIntl } from 'react-intl';
import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import type { EntitySchema } from '@shared/schema';
import en from '../../../../i18n/en.json';
import { ENTITY_SCHEMAS, entityName } from '@web/core/schemas';
import { formSchemaOf } from './entitySchema';
import { createErrorTransformer } from './errors';
import { runtimeValidator } from './runtimeValidator';
import { formValidatorOf } from './validator';

const intl = createIntl({ locale: 'en', messages: en });

/** Data that breaks each rule a property can have, and data that keeps to it. */
function samples(schema: EntitySchema): Record<string, unknown>[] {
  const valid = schema.examples?.[0] ?? {};
  const result: Record<string, unknown>[] = [{}, valid];
  for (const [name, prop] of Object.entries(schema.properties)) {
    const values: unknown[] = [null, true, 'text', -1, 1.234, 1e12, '', 'x', 'x'.repeat(300), 'not-an-email', 'ok@example.com', 'de', 'DE', 'Abcdef1!'];
    if (prop.type === 'boolean') values.push(false);
    for (const value of values) result.push({ ...valid, [name]: value });
  }
  return result;
}

function outcome(schema: RJSFSchema, validator: ValidatorType, data: Record<string, unknown>) {
  const { errors, errorSchema } = validator.validateFormData(data, schema, undefined, createErrorTransformer(schema, intl));
  return {
    errorSchema,
    errors: errors.map(({ name, property, message, stack, params }) => ({
      name,
      property,
      message,
      stack,
      params: name === 'errorMessage' ? undefined : params,
    })),
  };
}

describe('precompiled form validators', () => {
  it('exist for every schema in schemas/, one per form schema', () => {
    expect(ENTITY_SCHEMAS.map(entityName)).toEqual(expect.arrayContaining(['account', 'role', 'user']));
    for (const schema of ENTITY_SCHEMAS) {
      const formSchema = formSchemaOf(schema);
      expect(formValidatorOf(formSchema)).toBe(formValidatorOf(formSchema));
    }
  });

  it('report what a validator compiled at run time reports, message for message', () => {
    for (const schema of ENTITY_SCHEMAS) {
      const formSchema = formSchemaOf(schema);
      for (const data of samples(schema)) {
        expect(outcome(formSchema, formValidatorOf(formSchema), data), `${entityName(schema)} ${JSON.stringify(data)}`).toEqual(
          outcome(formSchema, runtimeValidator, data),
        );
      }
    }
  });

  it("check ajv-formats' email format", () => {
    const account = ENTITY_SCHEMAS.find((s) => entityName(s) === 'account')!;
    const formSchema = formSchemaOf(account);
    const validator = formValidatorOf(formSchema);
    const transform = createErrorTransformer(formSchema, intl);
    expect(validator.validateFormData({ name: 'Acme', email: 'ops@acme.example' }, formSchema, undefined, transform).errors).toEqual([]);
    expect(validator.validateFormData({ name: 'Acme', email: 'ops@' }, formSchema, undefined, transform).errorSchema).toEqual({
      email: { __errors: ['E-mail must be valid'] },
    });
  });

  it('refuse a schema the build did not compile', () => {
    expect(() => formValidatorOf({ type: 'object', properties: { other: { type: 'string' } } })).toThrow(/No precompiled validator/);
  });
});
