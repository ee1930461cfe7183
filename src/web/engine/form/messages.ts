/**
 * Text in the form goes through react-intl. Schemas put message ids where JSON Schema puts text (titles,
 * descriptions, ajv-errors `errorMessage` values), so a string is looked up first and shown as it is only
 * when the catalogue has no such id: a literal title in a hand-written schema still reads right.
 */
import { useCallback, useMemo } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import { englishStringTranslator, TranslatableString, type Registry } from '@rjsf/utils';
import { hasMessage, messageOr, type MessageValues } from '@web/core/messages';

export function translateText(intl: IntlShape, text: string, values?: MessageValues): string {
  return messageOr(intl, text, text, values);
}

/** `translate(idOrText, values?)` bound to the current locale. */
export function useTranslate(): (text: string, values?: MessageValues) => string {
  const intl = useIntl();
  return useCallback((text: string, values?: MessageValues) => translateText(intl, text, values), [intl]);
}

// RJSF hands over the English text of its enum; the catalogue keys those strings by the enum member's name.
const MEMBER_BY_TEXT = new Map<string, string>(Object.entries(TranslatableString).map(([name, text]) => [text, name]));

/**
 * RJSF's own strings as `rjsf.<TranslatableString member>` messages. Its `%1`, `%2` parameters become the ICU
 * arguments `{1}`, `{2}`. Strings the catalogue lacks fall back to RJSF's English.
 */
export function rjsfStringTranslator(intl: IntlShape): Registry['translateString'] {
  return (text, params) => {
    const id = `rjsf.${MEMBER_BY_TEXT.get(text)}`;
    if (!hasMessage(intl, id)) return englishStringTranslator(text, params);
    const values = Object.fromEntries((params ?? []).map((param, i) => [String(i + 1), param]));
    return intl.formatMessage({ id }, values);
  };
}

export function useTranslateString(): Registry['translateString'] {
  const intl = useIntl();
  return useMemo(() => rjsfStringTranslator(intl), [intl]);
}
