import { isCountryCode } from '@shared/countries';
import type { EntityHooks } from '../../engine/routes';
import { fieldError, invalid } from '../../http/errors';

/**
 * Location and destination zones: every included country must be a real ISO 3166 code; the codes are kept
 * sorted and counted, so the count can be listed and sorted without reading the list.
 */
export const zoneHooks: EntityHooks = {
  async beforeWrite({ values }) {
    if (!Array.isArray(values.countries)) return values;
    const codes = values.countries as string[];
    if (!codes.every(isCountryCode)) throw invalid([fieldError('countries', 'country', 'validation.countries.invalid')]);
    const sorted = [...new Set(codes)].sort();
    return { ...values, countries: sorted, countryCount: sorted.length };
  },
};
