import type { FocusEvent } from 'react';
import { HTMLSelect } from '@blueprintjs/core';
import { ariaDescribedByIds, type FormContextType, type StrictRJSFSchema, type WidgetProps } from '@rjsf/utils';
import { useTranslate } from '../messages';

export interface SelectOption {
  value: unknown;
  label: string;
  disabled?: boolean;
}

export interface OptionSelectProps {
  id: string;
  name?: string;
  options: readonly SelectOption[];
  value: unknown;
  /** Called with the chosen option's own value (a number stays a number), or undefined for the placeholder. */
  onChange: (value: unknown) => void;
  onBlur?: (value: unknown) => void;
  onFocus?: (value: unknown) => void;
  placeholder: string;
  required?: boolean;
  disabled?: boolean;
  autoFocus?: boolean;
  invalid?: boolean;
  describedBy?: string;
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/**
 * The select under the enum, country and reference widgets: a Blueprint HTMLSelect with a placeholder
 * option while nothing is chosen (and always for an optional field, so it can be emptied again).
 * A value missing from the options (not loaded yet, or out of the user's reach) is still shown, as itself,
 * rather than silently displaying another choice.
 */
export function OptionSelect({
  id,
  name,
  options,
  value,
  onChange,
  onBlur,
  onFocus,
  placeholder,
  required,
  disabled,
  autoFocus,
  invalid,
  describedBy,
}: OptionSelectProps) {
  const known = options.some((option) => String(option.value) === String(value));
  const shown = isEmpty(value) || known ? options : [...options, { value, label: String(value) }];
  const decode = (raw: string) => shown.find((option) => String(option.value) === raw)?.value;
  const handle = (callback?: (value: unknown) => void) =>
    callback ? (event: FocusEvent<HTMLSelectElement>) => callback(decode(event.target.value)) : undefined;
  return (
    <HTMLSelect
      id={id}
      name={name ?? id}
      value={isEmpty(value) ? '' : String(value)}
      onChange={(event) => onChange(decode(event.target.value))}
      onBlur={handle(onBlur)}
      onFocus={handle(onFocus)}
      disabled={disabled}
      autoFocus={autoFocus}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
      fill
    >
      {(!required || isEmpty(value)) && <option value="">{placeholder}</option>}
      {shown.map((option) => (
        <option key={String(option.value)} value={String(option.value)} disabled={option.disabled}>
          {option.label}
        </option>
      ))}
    </HTMLSelect>
  );
}

/** An OptionSelect wired to an RJSF widget's props: the one place the select widgets map them. */
export function WidgetSelect<T, S extends StrictRJSFSchema, F extends FormContextType>({
  widget,
  choices,
}: {
  widget: WidgetProps<T, S, F>;
  choices: readonly SelectOption[];
}) {
  const translate = useTranslate();
  const { id, htmlName, value, options, required, disabled, readonly, autofocus, placeholder, rawErrors, hideError, onChange, onBlur, onFocus } = widget;
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
}
