import { isCountryCode } from '@shared/countries';
import type { EntityHooks } from '../../engine/routes';
import { fieldError, invalid } from '../../http/errors';

/** A reseller's addresses: the country is a real ISO 3166 alpha-2 code, not just two capital letters. */
export const addressHooks: EntityHooks = {
  async beforeWrite({ values }) {
    if (typeof values.country === 'string' && !isCountryCode(values.country)) throw invalid([fieldError('country', 'country', 'validation.country.invalid')]);
    return values;
  },
};
