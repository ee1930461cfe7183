import { countryNames } from '@shared/countries';
import type { SelectOption } from '../OptionSelect';

const cache = new Map<string, SelectOption[]>();

/** ISO 3166 alpha-2 codes with their names in the locale's language (English for others), sorted by name. */
export function countryOptions(locale: string): SelectOption[] {
  let options = cache.get(locale);
  if (!options) {
    const collator = new Intl.Collator(locale);
    options = Object.entries(countryNames(locale))
      .map(([code, name]) => ({ value: code, label: name }))
      .sort((a, b) => collator.compare(a.label, b.label));
    cache.set(locale, options);
  }
  return options;
}
