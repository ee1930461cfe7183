import { Intent, TextArea } from '@blueprintjs/core';
import { ariaDescribedByIds } from '@rjsf/utils';
import type { FormContextType, RJSFSchema, StrictRJSFSchema, WidgetProps } from '@rjsf/utils';
import { useTranslate } from '../../messages';

/** Long text as a Blueprint TextArea (`ui:options.rows`, default 3); emptied, it reports the empty value. */
export default function TextareaWidget<T = unknown, S extends StrictRJSFSchema = RJSFSchema, F extends FormContextType = FormContextType>({
  id,
  htmlName,
  value,
  options,
  placeholder,
  disabled,
  readonly,
  autofocus,
  rawErrors,
  hideError,
  onChange,
  onBlur,
  onFocus,
}: WidgetProps<T, S, F>) {
  const translate = useTranslate();
  const hasErrors = !hideError && (rawErrors?.length ?? 0) > 0;
  return (
    <TextArea
      id={id}
      name={htmlName || id}
      value={value == null ? '' : String(value)}
      rows={typeof options.rows === 'number' ? options.rows : 3}
      placeholder={placeholder ? translate(placeholder) : undefined}
      disabled={disabled}
      readOnly={readonly}
      autoFocus={autofocus}
      intent={hasErrors ? Intent.DANGER : undefined}
      aria-invalid={hasErrors || undefined}
      aria-describedby={ariaDescribedByIds(id)}
      fill
      onChange={(event) => onChange(event.target.value === '' ? options.emptyValue : event.target.value)}
      onBlur={(event) => onBlur(id, event.target.value)}
      onFocus={(event) => onFocus(id, event.target.value)}
    />
  );
}
