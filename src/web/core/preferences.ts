/**
 * The profile's preferences are JSON text holding `{ type, value }` items. These helpers read the two the app
 * uses (darkMode, lang, currency) and write them back without losing items of other types.
 */
import type { PreferenceItem } from './userTypes';
import { isLocale, type Locale } from './locales';
import { isCurrency, type Currency } from '@shared/currencies';

export interface ParsedPreferences {
  darkMode?: boolean;
  lang?: Locale;
  currency?: Currency;
  items: PreferenceItem[];
}

function isItem(value: unknown): value is PreferenceItem {
  return typeof value === 'object' && value !== null && typeof (value as PreferenceItem).type === 'string';
}

/** Null for text that is not a list of items: the caller ignores it. Empty text is an empty list. */
export function parsePreferences(text: string | null | undefined): ParsedPreferences | null {
  if (!text || !text.trim()) return { items: [] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(value)) return null;
  const items = value.filter(isItem).map((i) => ({ type: i.type, value: String(i.value) }));
  const parsed: ParsedPreferences = { items };
  const dark = items.find((i) => i.type === 'darkMode');
  if (dark) parsed.darkMode = dark.value === 'true';
  const lang = items.find((i) => i.type === 'lang');
  if (lang && isLocale(lang.value)) parsed.lang = lang.value;
  const currency = items.find((i) => i.type === 'currency');
  if (currency && isCurrency(currency.value)) parsed.currency = currency.value;
  return parsed;
}

export function serialisePreferences(previous: PreferenceItem[], current: { darkMode: boolean; lang: Locale | null; currency?: Currency }): string {
  const written = new Set(['darkMode', 'lang', ...(current.currency ? ['currency'] : [])]);
  const kept = previous.filter((i) => !written.has(i.type));
  const items: PreferenceItem[] = [...kept, { type: 'darkMode', value: String(current.darkMode) }];
  if (current.lang) items.push({ type: 'lang', value: current.lang });
  if (current.currency) items.push({ type: 'currency', value: current.currency });
  return JSON.stringify(items);
}
