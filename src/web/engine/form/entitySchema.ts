/** How an entity schema becomes RJSF's schema, uiSchema and data, and how form data goes back to the API. */
import type { UiSchema } from '@rjsf/utils';
import { writableFields, type EntitySchema } from '@shared/schema';
import { isReadOnly } from './formSchema';

export { formSchemaOf } from './formSchema';

/**
 * The uiSchema: the schema's `x-ui`, plus what the form needs from other `x-` keywords: a property with
 * `x-reference` gets the `reference` widget (unless `x-ui` names one) told which options list to read,
 * a row's custom values (`x-custom-fields`) get the `custom` field, and read-only properties are not editable.
 * The entity's title is the page's business, not the form's.
 */
export function uiSchemaOf(schema: EntitySchema): UiSchema {
  const declared = (schema['x-ui'] ?? {}) as UiSchema;
  const ui: UiSchema = { ...declared, 'ui:options': { label: false, ...declared['ui:options'] } };
  for (const [name, prop] of Object.entries(schema.properties)) {
    const entry: UiSchema = { ...(declared[name] as UiSchema | undefined) };
    const reference = prop['x-reference'];
    if (reference && !entry['ui:field']) {
      entry['ui:widget'] ??= 'reference';
      entry['ui:options'] = { reference, ...entry['ui:options'] };
    }
    // The row's custom values: their inputs come from the definitions, never RJSF's editor of a free object.
    if (prop['x-custom-fields']) entry['ui:field'] ??= 'custom';
    if (isReadOnly(prop)) entry['ui:readonly'] = true;
    if (Object.keys(entry).length > 0) ui[name] = entry;
  }
  return ui;
}

/**
 * The starting data: the record's values for the schema's properties, with schema defaults where a value is
 * missing. A null from the database counts as missing: JSON Schema types would reject it.
 */
export function initialData(schema: EntitySchema, record?: Record<string, unknown>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(schema.properties)) {
    const value = record?.[name];
    if (value !== undefined && value !== null) data[name] = value;
    else if (prop.default !== undefined) data[name] = prop.default;
  }
  return data;
}

/**
 * What a create or update sends: the writable properties that have a value, and null for those the user
 * cleared (an update keeps the fields it does not send, so a cleared one must be sent as null).
 */
export function writableData(schema: EntitySchema, data: Record<string, unknown>, record?: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const name of writableFields(schema)) {
    if (data[name] !== undefined) result[name] = data[name];
    else if (record?.[name] !== undefined && record[name] !== null) result[name] = null;
  }
  return result;
}

/** The top-level property a field id such as `root_name` belongs to. */
export function propertyOfFieldId(id: string, names: readonly string[], idPrefix = 'root', separator = '_'): string | undefined {
  const matches = names.filter((name) => id === `${idPrefix}${separator}${name}` || id.startsWith(`${idPrefix}${separator}${name}${separator}`));
  return matches.sort((a, b) => b.length - a.length)[0];
}
