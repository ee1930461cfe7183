import { ariaDescribedByIds } from '@rjsf/utils';
import type { FormContextType, RJSFSchema, StrictRJSFSchema, Widget, WidgetProps } from '@rjsf/utils';
import { formContextOf } from '../../context';
import { useTranslate } from '../../messages';
import { OptionSelect } from '../OptionSelect';

/**
 * A widget for an id that refers to another entity. Its choices are `formContext.options[reference]`,
 * where the reference is `ui:options.reference`, else the property's `x-reference`, else the name the
 * widget was registered under (so `ui:widget: "reseller"` reads `options.reseller`).
 */
export function referenceWidget<T = unknown, S extends StrictRJSFSchema = RJSFSchema, F extends FormContextType = FormContextType>(
  defaultReference?: string,
): Widget<T, S, F> {
  return function ReferenceWidget({
    id,
    htmlName,
    value,
    schema,
    options,
    registry,
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
    const translate = useTranslate();
    const declared = options.reference ?? (schema as Record<string, unknown>)['x-reference'] ?? defaultReference;
    const reference = typeof declared === 'string' ? declared : undefined;
    const choices = (reference && formContextOf(registry).options?.[reference]) || [];
    return (
      <OptionSelect
        id={id}
        name={htmlName}
        options={choices}
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
  };
}

export default referenceWidget();
