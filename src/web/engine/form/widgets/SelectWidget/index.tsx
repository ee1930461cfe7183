import { ariaDescribedByIds } from '@rjsf/utils';
import type { FormContextType, RJSFSchema, StrictRJSFSchema, WidgetProps } from '@rjsf/utils';
import { useTranslate } from '../../messages';
import CheckboxesWidget from '../CheckboxesWidget';
import { OptionSelect } from '../OptionSelect';

/** An enum as a Blueprint HTMLSelect with a "Choose…" placeholder; option labels may be message ids. */
export default function SelectWidget<T = unknown, S extends StrictRJSFSchema = RJSFSchema, F extends FormContextType = FormContextType>(props: WidgetProps<T, S, F>) {
  const { id, htmlName, options, value, required, disabled, readonly, autofocus, placeholder, multiple, rawErrors, hideError, onChange, onBlur, onFocus } = props;
  const translate = useTranslate();
  // A native single select cannot hold several values; a list of checkboxes can.
  if (multiple) return <CheckboxesWidget {...props} />;
  const enumOptions = (options.enumOptions ?? []).map((option) => ({
    value: option.value,
    label: translate(option.label),
    disabled: options.enumDisabled?.includes(option.value),
  }));
  return (
    <OptionSelect
      id={id}
      name={htmlName}
      options={enumOptions}
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
