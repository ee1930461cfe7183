/**
 * Turns an entity schema into the JSON Schema that validates a request body, for ajv with ajv-errors, on the
 * server and in the web form alike, so both give the same message for the same mistake.
 */
import type { EntitySchema, PropertySchema } from './schema';
import { isVersioned, propertyType, VERSION, withColumnRange, writableFields } from './schema';
import { CUSTOM_MAX_FIELDS } from './customFields';
import type { FieldError } from './wire';

export type ValidationMode = 'create' | 'update';

/** Fallback message ids for keywords a property gives no message for. */
export const DEFAULT_MESSAGES: Record<string, string> = {
  required: 'validation.required',
  additionalProperties: 'validation.unknownField',
};

/** A property without the keywords that only our tooling reads (x-*, titles), ready for ajv. */
export function cleanProperty(prop: PropertySchema): PropertySchema {
  const out: PropertySchema = {};
  for (const [k, v] of Object.entries(prop)) {
    if (v === undefined || k.startsWith('x-') || k === 'title' || k === 'description' || k === 'readOnly') continue;
    out[k] = v;
  }
  // A row's custom values: any keys (the definitions judge them), so a response keeps every one of them.
  if (prop['x-custom-fields']) Object.assign(out, { additionalProperties: true, maxProperties: CUSTOM_MAX_FIELDS });
  if (out.errorMessage && typeof out.errorMessage === 'object') {
    const { required: _required, ...rest } = out.errorMessage;
    out.errorMessage = Object.keys(rest).length ? rest : undefined;
    if (!out.errorMessage) delete out.errorMessage;
  }
  return out;
}

/**
 * The body schema for ajv: only writable properties (plus the key when updating), no others accepted,
 * optional ones may be null (a cleared field), and each property's `required` message moved to the parent
 * where ajv-errors looks for it. An update changes only the fields it sends: it requires none but the key, and
 * a required field it sends may not be cleared.
 */
export function bodySchema(schema: EntitySchema, mode: ValidationMode): Record<string, unknown> {
  const key = schema['x-entity'].key;
  const names = writableFields(schema).filter((n) => n !== key);
  const properties: Record<string, PropertySchema> = {};
  const requiredMessages: Record<string, string> = {};
  const notNull = new Set(schema.required ?? []);
  const requiredNames = mode === 'create' ? [...(schema.required ?? []), ...(schema['x-entity'].requiredOnCreate ?? [])] : [];
  const required = requiredNames.filter((n) => names.includes(n));
  for (const name of names) {
    const prop = schema.properties[name];
    const cleaned = withColumnRange(cleanProperty(prop));
    if (!notNull.has(name)) cleaned.type = [propertyType(prop), 'null' as never];
    properties[name] = cleaned;
    const messages = prop.errorMessage;
    requiredMessages[name] = (typeof messages === 'object' && messages.required) || DEFAULT_MESSAGES.required;
  }
  if (mode === 'update') {
    properties[key] = withColumnRange({ type: 'integer' });
    required.push(key);
    requiredMessages[key] = DEFAULT_MESSAGES.required;
    if (isVersioned(schema)) {
      properties[VERSION] = { type: 'integer', minimum: 0, description: 'The version the row was read at: a row saved since answers 409' };
    }
  }
  return {
    type: 'object',
    properties,
    required,
    additionalProperties: false,
    errorMessage: {
      required: Object.fromEntries(required.map((n) => [n, requiredMessages[n]])),
      additionalProperties: DEFAULT_MESSAGES.additionalProperties,
    },
  };
}

interface AjvLikeError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown> & { errors?: AjvLikeError[] };
}

/** ajv (with ajv-errors) errors to our field errors: the field, the rule that failed and its message id. */
export function toFieldErrors(errors: AjvLikeError[] | null | undefined, english: (id: string) => string): FieldError[] {
  const out: FieldError[] = [];
  for (const e of errors ?? []) {
    const original = e.keyword === 'errorMessage' ? (e.params.errors ?? []) : [e];
    const messageId = e.keyword === 'errorMessage' ? String(e.message) : (DEFAULT_MESSAGES[e.keyword] ?? 'validation.invalid');
    for (const o of original.length ? original : [e]) {
      const field =
        o.keyword === 'required'
          ? String(o.params.missingProperty)
          : o.keyword === 'additionalProperties'
            ? String(o.params.additionalProperty)
            : o.instancePath.replace(/^\//, '').split('/')[0];
      if (out.some((x) => x.field === field && x.rule === o.keyword)) continue;
      out.push({ field, rule: o.keyword, messageId, message: english(messageId) });
    }
  }
  return out;
}
