/** The six languages of the portal. Names are written in their own language so anyone can find theirs. */
export const LOCALES = ['en', 'ru', 'de', 'he', 'zh-Hans', 'es'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

export const LANGUAGE_NAMES: Record<Locale, string> = {
  en: 'English',
  ru: 'Русский',
  de: 'Deutsch',
  he: 'עברית',
  'zh-Hans': '简体中文',
  es: 'Español',
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

export function isRightToLeft(locale: Locale): boolean {
  return locale === 'he';
}

/** Maps a BCP 47 tag such as de-AT, zh-CN or iw to a supported locale. */
export function matchLocale(tag: string): Locale | null {
  if (isLocale(tag)) return tag;
  const lower = tag.toLowerCase();
  const language = lower.split(/[-_]/)[0];
  if (language === 'zh') {
    // Traditional script regions read a different catalogue; only Simplified Chinese is offered.
    return /hant|-tw|-hk|-mo/.test(lower) ? null : 'zh-Hans';
  }
  if (language === 'iw') return 'he';
  return LOCALES.find((l) => l === language) ?? null;
}

export function browserLocale(): Locale {
  const tags = typeof navigator === 'undefined' ? [] : [...(navigator.languages ?? []), navigator.language];
  for (const tag of tags) {
    const locale = tag ? matchLocale(tag) : null;
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}
