/**
 * The custom fields of a list or form: the definitions that apply to the signed-in user's rows of the entity whose
 * schema has a `custom` property (`x-custom-fields`). Grids, search bars, forms and detail screens read them here,
 * so a field added on the definitions screen shows everywhere without a reload (its writes invalidate the call).
 */
import { skipToken } from '@reduxjs/toolkit/query';
import { useMemo } from 'react';
import type { IntlShape } from 'react-intl';
import { customEntityOf, customName, sortDefinitions, type CustomFieldDefinition } from '@shared/customFields';
import type { EntitySchema } from '@shared/schema';
import { useGetCustomFieldsApplicableByEntityQuery } from '@web/core/customFieldsApi.gen';

const NONE: readonly CustomFieldDefinition[] = [];

export interface CustomFieldsState {
  /** In form order; empty while loading and for schemas without custom fields. */
  fields: readonly CustomFieldDefinition[];
  /** Whether the definitions are known (always, for a schema without custom fields). */
  ready: boolean;
}

/** The custom fields that apply to the caller's rows of a schema's entity (none without a schema). */
export function useCustomFields(schema: EntitySchema | undefined): CustomFieldsState {
  const entity = schema && customEntityOf(schema);
  const { data, isSuccess, isError } = useGetCustomFieldsApplicableByEntityQuery(entity ?? skipToken);
  const fields = useMemo(() => (data ? sortDefinitions(data as CustomFieldDefinition[]) : NONE), [data]);
  // A failed read leaves the list without custom columns rather than without rows.
  return { fields, ready: !entity || isSuccess || isError };
}

/** A custom field's value as a cell, a detail line or a hint reads it: numbers and days in the user's locale. */
export function formatCustomValue(intl: IntlShape, def: CustomFieldDefinition, value: unknown): string {
  if (value === null || value === undefined || value === '') return intl.formatMessage({ id: 'format.none' });
  if (def.type === 'number' && typeof value === 'number') return intl.formatNumber(value, { maximumFractionDigits: 10 });
  // A day is a calendar day, not an instant: read and shown in UTC so no time zone moves it.
  if (def.type === 'date' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value))
    return intl.formatDate(`${value}T00:00:00Z`, { dateStyle: 'medium', timeZone: 'UTC' });
  return String(value);
}

/** The custom field a list column or filter names (`custom.<key>`). */
export function customFieldNamed(fields: readonly CustomFieldDefinition[], name: string): CustomFieldDefinition | undefined {
  return fields.find((f) => customName(f) === name);
}
