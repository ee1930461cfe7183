import { lazy, Suspense, useMemo } from 'react';
import { useIntl } from 'react-intl';
import { Button, FormGroup, Intent, MenuItem, Spinner } from '@blueprintjs/core';
import { MultiSelect } from '@blueprintjs/select';
import type { FieldProps } from '@rjsf/utils';
import { countryOptions } from '../widgets/CountryWidget/countryNames';
import type { SelectOption } from '../widgets/OptionSelect';
import { matchesOption, optionRenderer, PICKER_TARGET_PROPS } from './multiSelectOptions';

const CountryMap = lazy(() => import('@web/ui/CountryMap'));

type Country = SelectOption & { value: string };

/**
 * Included countries of a zone: a searchable multi-select of country names in the user's language (the
 * value is the list of ISO codes) and a map that fills in the chosen countries.
 */
export function CountriesField({ formData, onChange, disabled, readonly, fieldPathId, schema, rawErrors, required, onBlur }: FieldProps<string[]>) {
  const intl = useIntl();
  const all = countryOptions(intl.locale) as Country[];
  const value = useMemo(() => (Array.isArray(formData) ? formData : []), [formData]);
  const chosen = useMemo(() => value.map((code) => all.find((c) => c.value === code) ?? { value: code, label: code }), [value, all]);
  const locked = disabled || readonly;
  const id = fieldPathId.$id;
  const set = (next: string[]) => onChange(next, fieldPathId.path);
  const toggle = (code: string) => set(value.includes(code) ? value.filter((c) => c !== code) : [...value, code]);
  const invalid = (rawErrors?.length ?? 0) > 0;

  const renderItem = optionRenderer<Country>(value, true);

  const title = intl.formatMessage({ id: String(schema.title ?? 'entity.locationZone.field.countries') });
  return (
    <FormGroup
      label={title}
      labelFor={id}
      labelInfo={required ? intl.formatMessage({ id: 'form.required' }) : undefined}
      intent={invalid ? Intent.DANGER : Intent.NONE}
      data-testid="countries-field"
    >
      <MultiSelect<Country>
        items={all}
        selectedItems={chosen as Country[]}
        itemRenderer={renderItem}
        itemPredicate={matchesOption}
        tagRenderer={(item) => item.label}
        onItemSelect={(item) => toggle(item.value)}
        onRemove={(item) => toggle(item.value)}
        itemsEqual="value"
        disabled={locked}
        fill
        resetOnSelect
        placeholder={intl.formatMessage({ id: 'zones.picker.add' })}
        noResults={<MenuItem disabled roleStructure="listoption" text={intl.formatMessage({ id: 'zones.picker.noResults' })} />}
        tagInputProps={{
          inputProps: { id, 'aria-label': title, onBlur: () => onBlur(id, value) },
          intent: invalid ? Intent.DANGER : Intent.NONE,
          rightElement:
            value.length > 0 && !locked ? (
              <Button variant="minimal" icon="cross" aria-label={intl.formatMessage({ id: 'zones.picker.clear' })} onClick={() => set([])} />
            ) : undefined,
        }}
        popoverProps={{ minimal: true, matchTargetWidth: true }}
        popoverTargetProps={PICKER_TARGET_PROPS}
        menuProps={{ 'aria-label': title }}
      />
      <div className="country-map-caption" data-testid="countries-count">
        {value.length > 0 ? intl.formatMessage({ id: 'zones.picker.count' }, { count: value.length }) : intl.formatMessage({ id: 'zones.picker.none' })}
      </div>
      <Suspense fallback={<Spinner size={24} />}>
        <CountryMap codes={value} />
      </Suspense>
    </FormGroup>
  );
}
