import { Checkbox } from '@blueprintjs/core';
import { ariaDescribedByIds } from '@rjsf/utils';
import type { FormContextType, RJSFSchema, StrictRJSFSchema, WidgetProps } from '@rjsf/utils';
import { useTranslate } from '../../messages';

/** A boolean as a Blueprint Checkbox carrying the field's label (RJSF leaves the FormGroup label out). */
export default function CheckboxWidget<T = unknown, S extends StrictRJSFSchema = RJSFSchema, F extends FormContextType = FormContextType>({
  id,
  htmlName,
  value,
  label,
  hideLabel,
  disabled,
  readonly,
  autofocus,
  onChange,
  onBlur,
  onFocus,
}: WidgetProps<T, S, F>) {
  const translate = useTranslate();
  return (
    <Checkbox
      id={id}
      name={htmlName || id}
      label={hideLabel ? undefined : translate(label)}
      aria-label={hideLabel ? translate(label) : undefined}
      checked={value === true}
      disabled={disabled || readonly}
      autoFocus={autofocus}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={(event) => onChange(event.target.checked)}
      onBlur={(event) => onBlur(id, event.target.checked)}
      onFocus={(event) => onFocus(id, event.target.checked)}
    />
  );
}
