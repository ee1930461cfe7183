import { InputGroup, Intent } from '@blueprintjs/core';
import { ariaDescribedByIds, examplesId, getInputProps } from '@rjsf/utils';
import type { BaseInputTemplateProps, FormContextType, RJSFSchema, StrictRJSFSchema } from '@rjsf/utils';
import { useTranslate } from '../../messages';

/**
 * The input behind RJSF's text, email, password, URL, number (up-down), date and date-time widgets:
 * a Blueprint InputGroup whose type RJSF chooses. An emptied input reports the field's empty value
 * (undefined unless `ui:emptyValue` says otherwise), so a number can be cleared.
 */
export default function BaseInputTemplate<T = unknown, S extends StrictRJSFSchema = RJSFSchema, F extends FormContextType = FormContextType>(
  props: BaseInputTemplateProps<T, S, F>,
) {
  const {
    id,
    htmlName,
    value,
    readonly,
    disabled,
    autofocus,
    placeholder,
    onBlur,
    onFocus,
    onChange,
    onChangeOverride,
    options,
    schema,
    rawErrors,
    hideError,
    type,
  } = props;
  const translate = useTranslate();
  const inputProps = getInputProps<T, S, F>(schema, type, options);
  const isNumber = inputProps.type === 'number';
  const shown = isNumber ? (value || value === 0 ? String(value) : '') : value == null ? '' : String(value);
  const hasErrors = !hideError && (rawErrors?.length ?? 0) > 0;
  const examples = Array.isArray(schema.examples) ? (schema.examples as unknown[]) : undefined;
  return (
    <>
      <InputGroup
        id={id}
        name={htmlName || id}
        {...inputProps}
        value={shown}
        readOnly={readonly}
        disabled={disabled}
        autoFocus={autofocus}
        placeholder={placeholder ? translate(placeholder) : undefined}
        intent={hasErrors ? Intent.DANGER : undefined}
        aria-invalid={hasErrors || undefined}
        aria-describedby={ariaDescribedByIds(id, Boolean(examples))}
        list={examples ? examplesId(id) : undefined}
        fill
        onChange={onChangeOverride ?? ((event) => onChange(event.target.value === '' ? options.emptyValue : event.target.value))}
        onBlur={(event) => onBlur(id, event.target.value)}
        onFocus={(event) => onFocus(id, event.target.value)}
      />
      {examples && (
        <datalist id={examplesId(id)}>
          {examples.map((example) => (
            <option key={String(example)} value={String(example)} />
          ))}
        </datalist>
      )}
    </>
  );
}
