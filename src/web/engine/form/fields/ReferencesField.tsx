import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import { FormGroup, Intent, MenuItem } from '@blueprintjs/core';
import { MultiSelect } from '@blueprintjs/select';
import { getUiOptions, type FieldProps } from '@rjsf/utils';
import { formContextOf, type ReferenceOption } from '../context';
import { matchesOption, optionRenderer, PICKER_TARGET_PROPS } from './multiSelectOptions';

/**
 * A list of ids of another entity (a profile's sponsors, its allowed lists), picked by name. The entity is
 * `ui:options.reference`; its choices come from `formContext.options` like a single reference's.
 */
export function ReferencesField({
  formData,
  onChange,
  disabled,
  readonly,
  fieldPathId,
  schema,
  uiSchema,
  rawErrors,
  required,
  onBlur,
  registry,
}: FieldProps<(string | number)[]>) {
  const intl = useIntl();
  const reference = String(getUiOptions(uiSchema).reference ?? '');
  const all = formContextOf(registry).options?.[reference] ?? [];
  const value = useMemo(() => (Array.isArray(formData) ? formData : []), [formData]);
  const chosen = value.map((id) => all.find((o) => o.value === id) ?? { value: id, label: String(id) });
  const id = fieldPathId.$id;
  const toggle = (item: ReferenceOption) =>
    onChange(value.includes(item.value) ? value.filter((v) => v !== item.value) : [...value, item.value], fieldPathId.path);
  const invalid = (rawErrors?.length ?? 0) > 0;
  const title = intl.formatMessage({ id: String(schema.title ?? reference) });

  const renderItem = optionRenderer<ReferenceOption>(value);

  return (
    <FormGroup
      label={title}
      labelFor={id}
      labelInfo={required ? intl.formatMessage({ id: 'form.required' }) : undefined}
      intent={invalid ? Intent.DANGER : Intent.NONE}
      data-testid={`references-${fieldPathId.path.join('.')}`}
    >
      <MultiSelect<ReferenceOption>
        items={all}
        selectedItems={chosen}
        itemRenderer={renderItem}
        itemPredicate={matchesOption}
        tagRenderer={(item) => item.label}
        onItemSelect={toggle}
        onRemove={toggle}
        itemsEqual="value"
        disabled={disabled || readonly}
        fill
        resetOnSelect
        placeholder={intl.formatMessage({ id: 'form.references.add' })}
        noResults={<MenuItem disabled roleStructure="listoption" text={intl.formatMessage({ id: 'zones.picker.noResults' })} />}
        tagInputProps={{ inputProps: { id, 'aria-label': title, onBlur: () => onBlur(id, value) }, intent: invalid ? Intent.DANGER : Intent.NONE }}
        popoverProps={{ minimal: true, matchTargetWidth: true }}
        popoverTargetProps={PICKER_TARGET_PROPS}
        menuProps={{ 'aria-label': title }}
      />
    </FormGroup>
  );
}
