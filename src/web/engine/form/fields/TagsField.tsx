import { useIntl } from 'react-intl';
import { FormGroup, Intent, TagInput } from '@blueprintjs/core';
import type { FieldProps } from '@rjsf/utils';

/**
 * A list of short texts (a choice field's options) as tags: typing and Enter (or a comma, or pasting several lines)
 * adds, the tag's cross or Backspace removes. A text already in the list is not added twice. Enter never submits
 * the form: the tag input takes it.
 */
export function TagsField({ formData, onChange, disabled, readonly, fieldPathId, schema, rawErrors, required, onBlur, uiSchema }: FieldProps<string[]>) {
  const intl = useIntl();
  const values = Array.isArray(formData) ? formData : [];
  const id = fieldPathId.$id;
  const invalid = (rawErrors?.length ?? 0) > 0;
  const title = intl.formatMessage({ id: String(schema.title ?? id) });
  const help = uiSchema?.['ui:help'];
  const add = (texts: string[]) => {
    const fresh = texts.map((t) => t.trim()).filter((t, i, all) => t !== '' && !values.includes(t) && all.indexOf(t) === i);
    if (fresh.length) onChange([...values, ...fresh], fieldPathId.path);
  };
  return (
    <FormGroup
      label={title}
      labelFor={id}
      labelInfo={required ? intl.formatMessage({ id: 'form.required' }) : undefined}
      intent={invalid ? Intent.DANGER : Intent.NONE}
      helperText={
        invalid || help ? (
          <>
            {rawErrors?.map((m) => (
              <div key={m}>{m}</div>
            ))}
            {typeof help === 'string' && <div>{intl.formatMessage({ id: help })}</div>}
          </>
        ) : undefined
      }
      data-testid={`tags-${fieldPathId.path.join('.')}`}
    >
      <TagInput
        values={values}
        onAdd={add}
        onRemove={(_value, index) =>
          onChange(
            values.filter((_, i) => i !== index),
            fieldPathId.path,
          )
        }
        addOnBlur
        addOnPaste
        separator={/[,\n\r]/}
        disabled={disabled || readonly}
        fill
        intent={invalid ? Intent.DANGER : Intent.NONE}
        placeholder={intl.formatMessage({ id: 'form.tags.add' })}
        inputProps={{ id, 'aria-label': title, onBlur: () => onBlur(id, values) }}
      />
    </FormGroup>
  );
}
