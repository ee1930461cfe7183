import { getNames, registerLocale } from 'i18n-iso-countries';
import de from 'i18n-iso-countries/langs/de.json';
import en from 'i18n-iso-countries/langs/en.json';
import es from 'i18n-iso-countries/langs/es.json';
import he from 'i18n-iso-countries/langs/he.json';
import ru from 'i18n-iso-countries/langs/ru.json';
import zh from 'i18n-iso-countries/langs/zh.json';
import type { SelectOption } from '../OptionSelect';

// Only the portal's languages are bundled; `zh` holds the Simplified Chinese names.
const LANGUAGES = [en, ru, de, he, zh, es];
for (const language of LANGUAGES) registerLocale(language);
const REGISTERED = new Set(LANGUAGES.map((language) => language.locale));

const cache = new Map<string, SelectOption[]>();

/** ISO 3166 alpha-2 codes with their names in the locale's language (English for others), sorted by name. */
export function countryOptions(locale: string): SelectOption[] {
  let options = cache.get(locale);
  if (!options) {
    const language = new Intl.Locale(locale).language;
    const names = getNames(REGISTERED.has(language) ? language : 'en', { select: 'official' });
    const collator = new Intl.Collator(locale);
    options = Object.entries(names)
      .map(([code, name]) => ({ value: code, label: name }))
      .sort((a, b) => collator.compare(a.label, b.label));
    cache.set(locale, options);
  }
  return options;
}
