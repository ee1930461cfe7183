import type { FormProps } from '@rjsf/core';
import type { FormContextType, RJSFSchema, StrictRJSFSchema } from '@rjsf/utils';
import type { ComponentType } from 'react';
import { useTranslateString } from './messages';
import { generateForm } from './theme';

const ThemedForm = generateForm();

/**
 * RJSF's Form in the Blueprint theme, with RJSF's own strings translated by react-intl (`rjsf.*` messages).
 * Render it inside an IntlProvider.
 */
export function Form<T = unknown, S extends StrictRJSFSchema = RJSFSchema, F extends FormContextType = FormContextType>(props: FormProps<T, S, F>) {
  const translateString = useTranslateString();
  const Themed = ThemedForm as unknown as ComponentType<FormProps<T, S, F>>;
  return <Themed translateString={translateString} {...props} />;
}
