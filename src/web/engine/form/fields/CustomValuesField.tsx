import { useState } from 'react';
import { useIntl } from 'react-intl';
import { FormGroup, H5, HTMLSelect, InputGroup, Intent } from '@blueprintjs/core';
import { getUiOptions, type FieldProps } from '@rjsf/utils';
import { customValueFromText, type CustomFieldDefinition } from '@shared/customFields';
import { formContextOf } from '../context';
import { customHint } from '../customValues';
import './customValues.css';

type Values = Record<string, unknown>;

interface InputProps {
  def: CustomFieldDefinition;
  id: string;
  value: unknown;
  onChange: (value: unknown) => void;
  onBlur: () => void;
  disabled: boolean;
  invalid: boolean;
  required: boolean;
}

/** Typed text as a value: a decimal comma (as many languages write it, "1,5") reads as a point. */
const numberFromText = (def: CustomFieldDefinition, text: string) => customValueFromText(def, text.trim().replace(/^(-?\d+),(\d+)$/, '$1.$2'));

/**
 * A number typed as text, so a half-typed one ("1.", "-") stays on screen; the form holds it as a number once it
 * reads as one, else as the text, which the field's check calls not a number.
 */
function NumberInput({ def, id, value, onChange, onBlur, disabled, invalid, required }: InputProps) {
  const shown = value === undefined || value === null ? '' : String(value);
  const [draft, setDraft] = useState(shown);
  // A value set from outside (a reload, another record) replaces what was typed.
  const current = draft.trim() === '' ? null : numberFromText(def, draft);
  const text = current === (value ?? null) ? draft : shown;
  return (
    <InputGroup
      id={id}
      inputMode="decimal"
      value={text}
      disabled={disabled}
      required={required}
      intent={invalid ? Intent.DANGER : Intent.NONE}
      aria-invalid={invalid || undefined}
      onChange={(e) => {
        setDraft(e.currentTarget.value);
        onChange(numberFromText(def, e.currentTarget.value));
      }}
      onBlur={onBlur}
    />
  );
}

function ValueInput(props: InputProps) {
  const intl = useIntl();
  const { def, id, value, onChange, onBlur, disabled, invalid, required } = props;
  const text = value === undefined || value === null ? '' : String(value);
  const intent = invalid ? Intent.DANGER : Intent.NONE;
  switch (def.type) {
    case 'number':
      return <NumberInput {...props} />;
    case 'choice':
      return (
        <HTMLSelect
          id={id}
          fill
          value={text}
          disabled={disabled}
          required={required}
          aria-invalid={invalid || undefined}
          onChange={(e) => onChange(e.currentTarget.value === '' ? null : e.currentTarget.value)}
          onBlur={onBlur}
          // A stored value the field no longer offers stays visible until it is changed.
          options={[
            { value: '', label: intl.formatMessage({ id: 'form.select.placeholder' }) },
            ...[...(def.choices ?? []), ...(text && !(def.choices ?? []).includes(text) ? [text] : [])].map((c) => ({ value: c, label: c })),
          ]}
        />
      );
    case 'date':
      return (
        <InputGroup
          id={id}
          type="date"
          className="portal-custom-date"
          value={text}
          min={def.earliest ?? undefined}
          max={def.latest ?? undefined}
          disabled={disabled}
          required={required}
          intent={intent}
          aria-invalid={invalid || undefined}
          onChange={(e) => onChange(e.currentTarget.value || null)}
          onBlur={onBlur}
        />
      );
    case 'text':
      return (
        <InputGroup
          id={id}
          value={text}
          disabled={disabled}
          required={required}
          intent={intent}
          aria-invalid={invalid || undefined}
          onChange={(e) => onChange(e.currentTarget.value)}
          onBlur={onBlur}
        />
      );
  }
}

/**
 * A row's custom field values (`ui:field: custom`): one input per field that applies to the editor's rows, by its
 * type, labelled with the tenant's own text as it is, with what it allows as the hint and its errors under it.
 * The fields come from `formContext.customFields`; without any, nothing shows.
 */
export function CustomValuesField({
  formData,
  onChange,
  disabled,
  readonly,
  fieldPathId,
  errorSchema,
  onBlur,
  registry,
  schema,
  uiSchema,
}: FieldProps<Values>) {
  const intl = useIntl();
  const defs = formContextOf(registry).customFields ?? [];
  if (defs.length === 0) return null;
  const values: Values = formData && typeof formData === 'object' ? formData : {};
  const set = (key: string, value: unknown) => onChange({ ...values, [key]: value }, fieldPathId.path);
  const errors = errorSchema as Record<string, { __errors?: string[] } | undefined> | undefined;
  // A heading over the values, unless the form is a titled panel of its own (`ui:options.heading: false`).
  const title = typeof schema.title === 'string' && getUiOptions(uiSchema).heading !== false ? schema.title : undefined;
  return (
    <section
      className={title ? 'portal-custom-values' : 'portal-custom-values portal-custom-values-bare'}
      id={fieldPathId.$id}
      tabIndex={-1}
      data-testid="custom-values"
    >
      {title && <H5>{intl.formatMessage({ id: title })}</H5>}
      {defs.map((def) => {
        const id = `${fieldPathId.$id}_${def.key}`;
        const messages = errors?.[def.key]?.__errors ?? [];
        const invalid = messages.length > 0;
        const hint = customHint(intl, def);
        return (
          <FormGroup
            key={def.key}
            label={<bdi>{def.label}</bdi>}
            labelFor={id}
            labelInfo={def.required ? intl.formatMessage({ id: 'form.required' }) : undefined}
            intent={invalid ? Intent.DANGER : undefined}
            helperText={
              invalid || hint ? (
                <>
                  {messages.map((m) => (
                    <div key={m} data-testid={`custom-error-${def.key}`}>
                      {m}
                    </div>
                  ))}
                  {hint && <div className="portal-custom-hint">{hint}</div>}
                </>
              ) : undefined
            }
            data-testid={`custom-${def.key}`}
          >
            <ValueInput
              def={def}
              id={id}
              value={values[def.key]}
              onChange={(value) => set(def.key, value)}
              onBlur={() => onBlur(id, values[def.key])}
              disabled={Boolean(disabled || readonly)}
              invalid={invalid}
              required={Boolean(def.required)}
            />
          </FormGroup>
        );
      })}
    </section>
  );
}
