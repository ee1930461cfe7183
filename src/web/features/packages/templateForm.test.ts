import { describe, expect, it } from 'vitest';
import { createIntl } from 'react-intl';
import en from '../../../../i18n/en.json';
import { findSchema } from '@web/core/schemas';
import { formSchemaOf } from '@web/engine/form/entitySchema';
import { createErrorTransformer } from '@web/engine/form/errors';
import { formValidatorOf } from '@web/engine/form/validator';

const intl = createIntl({ locale: 'en', messages: en });
const schema = formSchemaOf(findSchema('prepaidTemplate')!);
const example = findSchema('prepaidTemplate')!.examples![0];

const messages = (data: Record<string, unknown>) =>
  formValidatorOf(schema)
    .validateFormData(data, schema, undefined, createErrorTransformer(schema, intl))
    .errors.map((e) => `${e.property} ${e.message}`);

describe('the template form', () => {
  it('takes prices in cents exactly, however binary floating point rounds them', () => {
    for (const price of [19.99, 1.15, 0.29, 99999.99, 0]) expect(messages({ ...example, price }), String(price)).toEqual([]);
  });

  it('says what is wrong with the name, the price and the period', () => {
    expect(messages({ ...example, name: 'Short', price: 1.005, periodDays: 0 })).toEqual([
      '.name Template name must be more than 5 characters',
      '.periodDays Please enter a period of 1 to 3650 days',
      '.price Please enter a price from 0 to 99999.99 with at most 2 decimals',
    ]);
  });
});
