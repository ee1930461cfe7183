/**
 * Countries: ISO 3166 alpha-2 codes with their names in the portal's six languages, from i18n-iso-countries.
 * Used by the server (country list, validation of country codes) and the web app (country pickers).
 */
import countries from 'i18n-iso-countries';
import de from 'i18n-iso-countries/langs/de.json' with { type: 'json' };
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import es from 'i18n-iso-countries/langs/es.json' with { type: 'json' };
import he from 'i18n-iso-countries/langs/he.json' with { type: 'json' };
import ru from 'i18n-iso-countries/langs/ru.json' with { type: 'json' };
import zh from 'i18n-iso-countries/langs/zh.json' with { type: 'json' };

// Only the portal's languages are registered; `zh` holds the Simplified Chinese names.
const LANGUAGES = [en, ru, de, he, zh, es];
for (const language of LANGUAGES) countries.registerLocale(language);
const REGISTERED = new Set(LANGUAGES.map((language) => language.locale));
/** The i18n-iso-countries languages registered: the portal's. */
export const COUNTRY_LANGUAGES: readonly string[] = [...REGISTERED];

/** The i18n-iso-countries language for a portal locale (`zh-Hans` → `zh`), English for any other. */
export function countryLanguage(locale: string): string {
  const language = new Intl.Locale(locale).language;
  return REGISTERED.has(language) ? language : 'en';
}

/** Code → official name in the locale's language. */
export function countryNames(locale: string): Record<string, string> {
  return countries.getNames(countryLanguage(locale), { select: 'official' });
}

/** Every alpha-2 code the catalogue knows, sorted. */
export const COUNTRY_CODES: readonly string[] = Object.keys(countries.getNames('en')).sort();

export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && countries.isValid(code);
}

/**
 * The codes a search key names: the code itself, or every country whose name contains the key (ignoring case)
 * in any of the portal's languages. "ger", "Deutsch" and "de" all find Germany.
 */
export function countryCodesMatching(key: string): string[] {
  const needle = key.trim().toLocaleLowerCase();
  if (!needle) return [];
  const found = new Set<string>();
  if (isCountryCode(needle.toUpperCase())) found.add(needle.toUpperCase());
  for (const language of REGISTERED) {
    for (const [code, name] of Object.entries(countries.getNames(language))) {
      if (name.toLocaleLowerCase().includes(needle)) found.add(code);
    }
  }
  return [...found].sort();
}
