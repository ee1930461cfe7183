import { useIntl } from 'react-intl';
import type { FormContextType, RJSFSchema, StrictRJSFSchema, WidgetProps } from '@rjsf/utils';
import { WidgetSelect } from '../OptionSelect';
import { countryOptions } from './countryNames';

/** A country as its ISO 3166 alpha-2 code, chosen by name in the user's language. */
export default function CountryWidget<T = unknown, S extends StrictRJSFSchema = RJSFSchema, F extends FormContextType = FormContextType>(
  props: WidgetProps<T, S, F>,
) {
  const { locale } = useIntl();
  return <WidgetSelect widget={props} choices={countryOptions(locale)} />;
}
