import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LOCALES } from './locales';

/** The prefixes the shell and the login screen own: every key under them must exist, translated, in all six catalogues. */
const SHELL_PREFIXES = /^(app|menu|topbar|login|dashboard|search|list|error|format|cookies|join|reset|password|privacy)\./;

const catalogue = (locale: string): Record<string, string> =>
  JSON.parse(readFileSync(new URL(`../../../i18n/${locale}.json`, import.meta.url), 'utf8'));

describe('message catalogues', () => {
  const en = catalogue('en');
  const shellKeys = Object.keys(en).filter((k) => SHELL_PREFIXES.test(k));

  it.each(LOCALES.filter((l) => l !== 'en'))('%s has every shell key', (locale) => {
    const messages = catalogue(locale);
    expect(shellKeys.filter((k) => !(k in messages))).toEqual([]);
  });

  it.each(LOCALES.filter((l) => l !== 'en'))('%s keeps the placeholders of each shell message', (locale) => {
    const messages = catalogue(locale);
    const args = (text: string) => [...text.matchAll(/\{(\w+)/g)].map((m) => m[1]).sort();
    for (const key of shellKeys) expect([key, args(messages[key] ?? '')]).toEqual([key, args(en[key])]);
  });
});
