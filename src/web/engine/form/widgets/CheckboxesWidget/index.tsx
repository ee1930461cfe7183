import { Checkbox } from '@blueprintjs/core';
import { ariaDescribedByIds, enumOptionsDeselectValue, enumOptionsIsSelected, enumOptionsSelectValue, optionId } from '@rjsf/utils';
import type { FormContextType, RJSFSchema, StrictRJSFSchema, WidgetProps } from '@rjsf/utils';
import { useTranslate } from '../../messages';

/** An array of enum values as Blueprint checkboxes, one per option (`ui:options.inline` lays them in a row). */
export default function CheckboxesWidget<T = unknown, S extends StrictRJSFSchema = RJSFSchema, F extends FormContextType = FormContextType>({
  id,
  options,
  value,
  disabled,
  readonly,
  onChange,
  onBlur,
  onFocus,
}: WidgetProps<T, S, F>) {
  const translate = useTranslate();
  const enumOptions = options.enumOptions ?? [];
  const selected: unknown[] = Array.isArray(value) ? value : [];
  return (
    <div id={id} role="group" aria-describedby={ariaDescribedByIds(id)}>
      {enumOptions.map((option, index) => (
        <Checkbox
          key={index}
          id={optionId(id, index)}
          label={translate(option.label)}
          checked={enumOptionsIsSelected<S>(option.value, selected)}
          disabled={disabled || readonly || options.enumDisabled?.includes(option.value)}
          inline={Boolean(options.inline)}
          onChange={(event) =>
            onChange(event.target.checked ? enumOptionsSelectValue<S>(index, selected, enumOptions) : enumOptionsDeselectValue<S>(index, selected, enumOptions))
          }
          onBlur={() => onBlur(id, value)}
          onFocus={() => onFocus(id, value)}
        />
      ))}
    </div>
  );
}
