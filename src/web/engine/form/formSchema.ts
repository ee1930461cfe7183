/**
 * The schema a form renders and validates, derived from an entity schema. Only type imports here: the build
 * loads this module in Node to precompile each form's validator from the very schema the form will use.
 */
import type { RJSFSchema } from '@rjsf/utils';
import type { EntitySchema, PropertySchema } from '@shared/schema';

// Keywords whose values are data, not schemas: nothing inside them is a keyword to strip.
const VALUE_KEYWORDS = new Set(['default', 'enum', 'const', 'examples', 'errorMessage']);

function withoutExtensions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutExtensions);
  if (typeof node !== 'object' || node === null) return node;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('x-')) continue;
    if (VALUE_KEYWORDS.has(key)) result[key] = value;
    else if (key === 'properties') {
      // Property names are not keywords, even one that starts with x-.
      result[key] = Object.fromEntries(Object.entries(value as object).map(([name, sub]) => [name, withoutExtensions(sub)]));
    } else result[key] = withoutExtensions(value);
  }
  return result;
}

export function isReadOnly(prop: PropertySchema): boolean {
  return Boolean(prop.readOnly || prop['x-join']);
}

export type FormMode = 'create' | 'edit';

const formSchemas = { create: new WeakMap<EntitySchema, RJSFSchema>(), edit: new WeakMap<EntitySchema, RJSFSchema>() };

/**
 * The schema the form renders and validates: without the `x-` keywords (they describe the server, grid and
 * API) and without `$id`, so its validator is found by the hash of its content and always matches it (see
 * validator.ts). Joined properties become `readOnly`. When creating, the fields of `x-entity.requiredOnCreate`
 * (e.g. a user's password) are required too, as the server requires them. Cached per entity schema and mode:
 * one object, one validator.
 */
export function formSchemaOf(schema: EntitySchema, mode: FormMode = 'edit'): RJSFSchema {
  let result = formSchemas[mode].get(schema);
  if (!result) {
    const rest = withoutExtensions(schema) as RJSFSchema;
    delete rest.$id;
    const properties = Object.fromEntries(
      Object.entries(rest.properties ?? {}).map(([name, sub]) => [name, isReadOnly(schema.properties[name]) ? { ...(sub as object), readOnly: true } : sub]),
    );
    result = { ...rest, properties } as RJSFSchema;
    const onCreate = schema['x-entity'].requiredOnCreate ?? [];
    if (mode === 'create' && onCreate.length > 0) result.required = [...new Set([...(rest.required ?? []), ...onCreate])];
    formSchemas[mode].set(schema, result);
  }
  return result;
}

/** Every form schema an entity schema yields: the build precompiles a validator for each. */
export function formSchemasOf(schema: EntitySchema): RJSFSchema[] {
  return [formSchemaOf(schema, 'edit'), ...((schema['x-entity'].requiredOnCreate ?? []).length > 0 ? [formSchemaOf(schema, 'create')] : [])];
}
