/**
 * Custom fields: fields a tenant adds to its subscribers, accounts or resellers without a deploy. A definition is a
 * row of `custom_field`; the values live in the row's `custom` JSON object, keyed by the definition's key, so no
 * field needs a column. A definition applies to the rows of the tenant that made it and of its sub-resellers.
 *
 * Each definition is turned into a JSON Schema property here, so the server validates values with the same ajv
 * machinery as every other field, and lists sort and search them as properties named `custom.<key>`.
 */
import type { EntitySchema, PropertySchema, SearchFilter } from './schema';

export const CUSTOM_ENTITIES = ['subscriber', 'account', 'reseller'] as const;
export type CustomEntity = (typeof CUSTOM_ENTITIES)[number];
export const CUSTOM_TYPES = ['text', 'number', 'date', 'choice'] as const;
export type CustomFieldType = (typeof CUSTOM_TYPES)[number];

export interface CustomFieldDefinition {
  id: number;
  resellerId: number;
  entity: CustomEntity;
  /** The value's name in the row's `custom` object, in lists (`custom.<key>`) and in CSV headers. */
  key: string;
  /** The tenant's own text for the field: shown as it is, in every language. */
  label: string;
  type: CustomFieldType;
  required?: boolean;
  /** Smallest value (number) or fewest characters (text). */
  minimum?: number | null;
  /** Largest value (number) or most characters (text). */
  maximum?: number | null;
  /** Earliest and latest day (date), as YYYY-MM-DD. */
  earliest?: string | null;
  latest?: string | null;
  /** A regular expression a text value matches (anywhere, as JSON Schema's `pattern`: `^…$` for the whole value). */
  pattern?: string | null;
  /** The values a choice takes. */
  choices?: string[] | null;
  position?: number;
}

/** The property holding the values, in schemas that take custom fields (`x-custom-fields` names the entity). */
export const CUSTOM_PROPERTY = 'custom';
export const CUSTOM_PREFIX = `${CUSTOM_PROPERTY}.`;
/** A key: a short identifier, so that `custom.<key>` is a safe name in lists and CSV headers. */
export const CUSTOM_KEY_PATTERN = '^[a-z][a-zA-Z0-9]{0,39}$';
/** The longest text value, whatever a definition allows. */
export const CUSTOM_TEXT_MAX = 500;
export const CUSTOM_MAX_FIELDS = 100;

/** The entity whose custom fields a schema's rows carry (its `custom` property's `x-custom-fields`), if any. */
export function customEntityOf(schema: EntitySchema): CustomEntity | undefined {
  return schema.properties[CUSTOM_PROPERTY]?.['x-custom-fields'] as CustomEntity | undefined;
}

export const customName = (def: Pick<CustomFieldDefinition, 'key'>) => `${CUSTOM_PREFIX}${def.key}`;
export const customKeyOf = (name: string) => (name.startsWith(CUSTOM_PREFIX) ? name.slice(CUSTOM_PREFIX.length) : undefined);

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Whether text is a real day as YYYY-MM-DD (2026-02-30 is not). */
export function isDay(text: string): boolean {
  if (!DATE.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

/** The JSON Schema of one field's value, with the portal's message ids; `null` clears a value. */
export function customValueSchema(def: CustomFieldDefinition): PropertySchema {
  const has = (v: number | string | null | undefined): v is number | string => v !== undefined && v !== null && v !== '';
  switch (def.type) {
    case 'number':
      return {
        type: ['number', 'null'] as never,
        ...(has(def.minimum) ? { minimum: def.minimum } : {}),
        ...(has(def.maximum) ? { maximum: def.maximum } : {}),
        errorMessage: { type: 'validation.custom.number', minimum: 'validation.custom.minimum', maximum: 'validation.custom.maximum' },
      };
    case 'date':
      return {
        type: ['string', 'null'] as never,
        format: 'date',
        maxLength: 10,
        ...(has(def.earliest) ? { formatMinimum: def.earliest } : {}),
        ...(has(def.latest) ? { formatMaximum: def.latest } : {}),
        errorMessage: {
          type: 'validation.custom.date',
          format: 'validation.custom.date',
          maxLength: 'validation.custom.date',
          formatMinimum: 'validation.custom.earliest',
          formatMaximum: 'validation.custom.latest',
        },
      };
    case 'choice':
      return {
        type: ['string', 'null'] as never,
        enum: [...(def.choices ?? []), null],
        errorMessage: { type: 'validation.custom.choice', enum: 'validation.custom.choice' },
      };
    case 'text':
      return {
        type: ['string', 'null'] as never,
        maxLength: Math.min(has(def.maximum) ? def.maximum : CUSTOM_TEXT_MAX, CUSTOM_TEXT_MAX),
        ...(has(def.minimum) ? { minLength: def.minimum } : {}),
        ...(has(def.pattern) ? { pattern: def.pattern } : {}),
        errorMessage: {
          type: 'validation.custom.text',
          minLength: 'validation.custom.minLength',
          maxLength: 'validation.custom.maxLength',
          pattern: 'validation.custom.pattern',
        },
      };
  }
}

/**
 * The schema of the values a write sends: only the given fields' keys, each by its definition. Whether a required
 * field holds a value is decided on the row as it will be stored (see `missingRequired`), since a write sends only
 * what it changes.
 */
export function customValuesSchema(defs: readonly CustomFieldDefinition[]): Record<string, unknown> {
  return {
    type: 'object',
    properties: Object.fromEntries(defs.map((d) => [d.key, customValueSchema(d)])),
    additionalProperties: false,
    errorMessage: { type: 'validation.custom.object', additionalProperties: 'validation.custom.unknown' },
  };
}

const empty = (v: unknown) => v === undefined || v === null || v === '';

/** The required fields a stored object leaves empty. */
export function missingRequired(defs: readonly CustomFieldDefinition[], values: Record<string, unknown>): CustomFieldDefinition[] {
  return defs.filter((d) => d.required && empty(values[d.key]));
}

/**
 * The required fields a write leaves empty, as for a row's own fields: a create fills every one, an update may not
 * clear one it sends (and is not held to a field made required after the row was saved).
 */
export function unfilledRequired(
  defs: readonly CustomFieldDefinition[],
  sent: Record<string, unknown>,
  merged: Record<string, unknown>,
  mode: 'create' | 'update',
): CustomFieldDefinition[] {
  return missingRequired(mode === 'create' ? defs : defs.filter((d) => d.key in sent), merged);
}

/** Sent values over stored ones: a key sent as null or '' is removed. */
export function mergeCustom(stored: Record<string, unknown> | null | undefined, sent: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(stored ?? {}) };
  for (const [k, v] of Object.entries(sent)) {
    if (empty(v)) delete out[k];
    else out[k] = v;
  }
  return out;
}

/**
 * A value as a form or a CSV cell gives it (text) turned into what is stored: numbers as numbers, the rest as
 * trimmed text; the empty text clears. The schema then judges it.
 */
export function customValueFromText(def: CustomFieldDefinition, text: string): unknown {
  const t = text.trim();
  if (t === '') return null;
  if (def.type === 'number') return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : t;
  // A choice typed in another case is the choice as the field spells it.
  if (def.type === 'choice') return (def.choices ?? []).find((c) => c.toLowerCase() === t.toLowerCase()) ?? t;
  return t;
}

/** A value as a cell shows it and a CSV file carries it. */
export function customValueText(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}

/**
 * The problem of one value, as the server's schema would name it, for a form to say before it sends anything.
 * The server stays the judge: it checks the same rules with ajv.
 */
export function customValueProblem(def: CustomFieldDefinition, value: unknown): string | undefined {
  if (empty(value)) return def.required ? 'validation.custom.required' : undefined;
  const has = (v: number | string | null | undefined): v is number | string => v !== undefined && v !== null && v !== '';
  switch (def.type) {
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'validation.custom.number';
      if (has(def.minimum) && value < def.minimum) return 'validation.custom.minimum';
      if (has(def.maximum) && value > def.maximum) return 'validation.custom.maximum';
      return undefined;
    case 'date':
      if (typeof value !== 'string' || !isDay(value)) return 'validation.custom.date';
      if (has(def.earliest) && value < def.earliest) return 'validation.custom.earliest';
      if (has(def.latest) && value > def.latest) return 'validation.custom.latest';
      return undefined;
    case 'choice':
      return typeof value === 'string' && (def.choices ?? []).includes(value) ? undefined : 'validation.custom.choice';
    case 'text': {
      if (typeof value !== 'string') return 'validation.custom.text';
      const length = [...value].length;
      if (has(def.minimum) && length < def.minimum) return 'validation.custom.minLength';
      if (length > Math.min(has(def.maximum) ? def.maximum : CUSTOM_TEXT_MAX, CUSTOM_TEXT_MAX)) return 'validation.custom.maxLength';
      if (has(def.pattern) && !new RegExp(def.pattern, 'u').test(value)) return 'validation.custom.pattern';
      return undefined;
    }
  }
}

/** A list's search filter for a field; its label is the definition's. */
export function customSearchFilter(def: CustomFieldDefinition): SearchFilter {
  return { by: customName(def), custom: def };
}

/** Definitions in the order forms and columns show them. */
export function sortDefinitions<T extends CustomFieldDefinition>(defs: readonly T[]): T[] {
  return [...defs].sort((a, b) => (a.position ?? 0) - (b.position ?? 0) || a.label.localeCompare(b.label) || a.id - b.id);
}

/**
 * How a list's search key is compared with a field's values: a number or a whole day equal (an index serves
 * equality), part of a day (`2026-11`) as its beginning, a choice named in any case equal, any other text contained.
 */
export type CustomComparison =
  { kind: 'equals'; value: string | number } | { kind: 'contains'; value: string } | { kind: 'prefix'; value: string } | { kind: 'never' };

export function customComparison(def: CustomFieldDefinition, key: string): CustomComparison {
  const k = key.trim();
  switch (def.type) {
    case 'number':
      return /^-?\d{1,15}(\.\d{1,10})?$/.test(k) ? { kind: 'equals', value: Number(k) } : { kind: 'never' };
    case 'date':
      if (isDay(k)) return { kind: 'equals', value: k };
      return /^\d{1,4}(-\d{0,2}){0,2}$/.test(k) ? { kind: 'prefix', value: k } : { kind: 'never' };
    case 'choice': {
      const choice = (def.choices ?? []).find((c) => c.toLowerCase() === k.toLowerCase());
      return choice ? { kind: 'equals', value: choice } : { kind: 'contains', value: k.toLowerCase() };
    }
    case 'text':
      return { kind: 'contains', value: k.toLowerCase() };
  }
}

/** Whether a value matches a comparison, as the database decides it (the mocks use it). */
export function customMatches(cmp: CustomComparison, value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (cmp.kind === 'equals') return value === cmp.value;
  if (cmp.kind === 'prefix') return String(value).startsWith(cmp.value);
  if (cmp.kind === 'contains') return String(value).toLowerCase().includes(cmp.value);
  return false;
}

/** A row's value of a list property, a custom field's (`custom.<key>`) included. */
export function listValue(row: Record<string, unknown>, name: string): unknown {
  const key = customKeyOf(name);
  if (key === undefined) return row[name];
  const values = row[CUSTOM_PROPERTY];
  return values && typeof values === 'object' ? (values as Record<string, unknown>)[key] : undefined;
}
