/**
 * Message catalogues and the IntlProvider. English is bundled (it is the source and the fallback); the other
 * five load on demand, so a user downloads only the language they read. The entity schemas' English labels stand
 * under the English catalogue, so an entity reads in English until a catalogue translates it.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { schemaMessages } from '@shared/schema';
import { ENTITY_SCHEMAS } from '@web/core/schemas';
import enCatalogue from '../../../i18n/en.json';
import { useAppSelector } from './hooks';
import { DEFAULT_LOCALE, isRightToLeft, type Locale } from './locales';
import { selectLocale } from './preferencesSlice';

export type Messages = Record<string, string>;

const lazyCatalogues = import.meta.glob<Messages>(['../../../i18n/*.json', '!../../../i18n/en.json'], {
  import: 'default',
});

const en: Messages = { ...schemaMessages(ENTITY_SCHEMAS), ...enCatalogue };

const loaded = new Map<Locale, Messages>([[DEFAULT_LOCALE, en]]);

/** A catalogue merged over English, so a key not yet translated reads in English rather than as its id. */
export async function loadMessages(locale: Locale): Promise<Messages> {
  const cached = loaded.get(locale);
  if (cached) return cached;
  const load = lazyCatalogues[`../../../i18n/${locale}.json`];
  const own = load ? await load() : {};
  const messages = { ...en, ...own };
  loaded.set(locale, messages);
  return messages;
}

/** Sets the document's language and direction: Hebrew reads right to left. */
function useDocumentLanguage(locale: Locale) {
  useEffect(() => {
    const root = document.documentElement;
    root.lang = locale;
    root.dir = isRightToLeft(locale) ? 'rtl' : 'ltr';
  }, [locale]);
}

export function I18nProvider({ children }: { children: ReactNode }) {
  const locale = useAppSelector(selectLocale);
  const [current, setCurrent] = useState<{ locale: Locale; messages: Messages } | null>(() => {
    const messages = loaded.get(locale);
    return messages ? { locale, messages } : null;
  });

  useEffect(() => {
    let live = true;
    loadMessages(locale).then(
      (messages) => live && setCurrent({ locale, messages }),
      (error: unknown) => {
        console.error(`Could not load the ${locale} catalogue; staying in English.`, error);
        if (live) setCurrent({ locale: DEFAULT_LOCALE, messages: en });
      },
    );
    return () => {
      live = false;
    };
  }, [locale]);

  useDocumentLanguage(current?.locale ?? DEFAULT_LOCALE);

  // Only the very first paint in another language waits (one small JSON file); later switches keep the old text.
  if (!current) return null;
  return (
    <IntlProvider locale={current.locale} messages={current.messages} defaultLocale={DEFAULT_LOCALE}>
      {children}
    </IntlProvider>
  );
}
