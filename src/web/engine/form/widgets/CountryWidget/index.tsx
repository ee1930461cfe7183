import { useIntl } from 'react-intl';
import { ariaDescribedByIds } from '@rjsf/utils';
import type { FormContextType, RJSFSchema, StrictRJSFSchema, WidgetProps } from '@rjsf/utils';
import { useTranslate } from '../../messages';
import { OptionSelect } from '../OptionSelect';
import { countryOptions } from './countryNames';

/** A country as its ISO 3166 alpha-2 code, chosen by name in the user's language. */
export default function CountryWidget<T = unknown, S extends StrictRJSFSchema = RJSFSchema, F extends FormContextType = FormContextType>({
  id,
  htmlName,
  value,
  options,
  required,
  disabled,
  readonly,
  autofocus,
  placeholder,
  rawErrors,
  hideError,
  onChange,
  onBlur,
  onFocus,
}: WidgetProps<T, S, F>) {
  const { locale } = useIntl();
  const translate = useTranslate();
  return (
    <OptionSelect
      id={id}
      name={htmlName}
      options={countryOptions(locale)}
      value={value}
      onChange={(next) => onChange(next ?? options.emptyValue)}
      onBlur={(next) => onBlur(id, next)}
      onFocus={(next) => onFocus(id, next)}
      placeholder={translate(placeholder || 'form.select.placeholder')}
      required={required}
      disabled={disabled || readonly}
      autoFocus={autofocus}
      invalid={!hideError && (rawErrors?.length ?? 0) > 0}
      describedBy={ariaDescribedByIds(id)}
    />
  );
}
