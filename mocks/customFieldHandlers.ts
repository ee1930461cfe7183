/**
 * Custom fields on the mocks, as the server keeps them: definitions are the generic `customField` table; the ones
 * that apply to a caller's rows are its own reseller's and its ancestors'; a write's `custom` values are checked
 * by the definitions' rules (`custom.<key>` errors), merged over the stored ones, and required ones filled as the
 * server asks (every one on a create, those sent on an update).
 */
import { HttpResponse, type HttpHandler } from 'msw';
import {
  CUSTOM_ENTITIES,
  CUSTOM_PROPERTY,
  customEntityOf,
  mergeCustom,
  unfilledRequired,
  customValueProblem,
  sortDefinitions,
  type CustomEntity,
  type CustomFieldDefinition,
} from '@shared/customFields';
import type { EntitySchema } from '@shared/schema';
import type { FieldError } from '@shared/wire';
import type { MockDatabase, MockUser, Row } from './data';
import { errorResponse, fieldError, unauthorizedResponse } from './http';
import { callerOf, resellerAndAncestors } from './session';
import { openApiHttp } from './openapiHttp';

/** The entity whose custom fields a schema's rows carry, if any. */

/** The definitions that apply to the rows of a reseller: its own and its ancestors'. */
export function customFieldsFor(db: MockDatabase, entity: CustomEntity, resellerId: number): CustomFieldDefinition[] {
  const line = resellerAndAncestors(db, resellerId);
  const defs = (db.tables.customField ?? []).filter((r) => r.entity === entity && line.has(Number(r.resellerId))) as unknown as CustomFieldDefinition[];
  return sortDefinitions(defs);
}

/** The definitions a caller's lists sort, search and export by. */
export function applicableTo(db: MockDatabase, user: MockUser, schema: EntitySchema): CustomFieldDefinition[] {
  const entity = customEntityOf(schema);
  return entity ? customFieldsFor(db, entity, user.resellerId) : [];
}

/**
 * The row's custom values after a write sending `changes`, or the 400 that refuses them; rows of schemas without
 * custom fields, and writes that send none, pass untouched.
 */
export function customWrite(
  db: MockDatabase,
  schema: EntitySchema,
  changes: Row,
  stored: Row,
  mode: 'create' | 'update',
): { row: Row } | { refused: Response } {
  const entity = customEntityOf(schema);
  if (!entity) return { row: changes };
  const defs = customFieldsFor(db, entity, Number(stored.resellerId ?? changes.resellerId));
  const sent = (changes[CUSTOM_PROPERTY] ?? {}) as Row;
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(sent)) {
    const def = defs.find((d) => d.key === key);
    if (!def) errors.push(fieldError(`${CUSTOM_PROPERTY}.${key}`, 'additionalProperties', 'validation.custom.unknown'));
    else if (value !== null && value !== '') {
      const problem = customValueProblem(def, value);
      if (problem) errors.push(fieldError(`${CUSTOM_PROPERTY}.${key}`, problem.replace('validation.custom.', ''), problem));
    }
  }
  const merged = mergeCustom(stored[CUSTOM_PROPERTY] as Row | undefined, sent);
  for (const def of unfilledRequired(defs, sent, merged, mode))
    if (!errors.some((e) => e.field === `${CUSTOM_PROPERTY}.${def.key}`))
      errors.push(fieldError(`${CUSTOM_PROPERTY}.${def.key}`, 'required', 'validation.custom.required'));
  if (errors.length) return { refused: errorResponse(400, 'VALIDATION', errors[0].message, errors) };
  return { row: { ...changes, [CUSTOM_PROPERTY]: merged } };
}

/** A definition's entity, key and type stay as created: stored values depend on them. */
export function fixedChanges(existing: Row, changes: Row): FieldError[] {
  return ['entity', 'key', 'type'].filter((f) => f in changes && changes[f] !== existing[f]).map((f) => fieldError(f, 'fixed', 'validation.customField.fixed'));
}

/** A deleted definition's values leave every row of its entity. */
export function purgeValues(db: MockDatabase, def: Row) {
  const table = def.entity === 'account' ? 'account' : String(def.entity);
  for (const row of db.tables[table] ?? []) {
    const values = row[CUSTOM_PROPERTY] as Row | undefined;
    if (values && String(def.key) in values) {
      const { [String(def.key)]: _gone, ...rest } = values;
      row[CUSTOM_PROPERTY] = rest;
    }
  }
}

export function customFieldHandlers(db: MockDatabase, base: string): HttpHandler[] {
  const http = openApiHttp(base);
  return [
    http.get('/custom-fields/applicable/{entity}', ({ request, params }) => {
      const user = callerOf(db, request);
      if (!user) return unauthorizedResponse();
      const entity = String(params.entity) as CustomEntity;
      if (!CUSTOM_ENTITIES.includes(entity)) {
        const error = fieldError('entity', 'enum', 'validation.customField.entity');
        return errorResponse(400, 'VALIDATION', error.message, [error]);
      }
      // Every definition as the server answers it: `required` and `position` with their defaults when unset.
      return HttpResponse.json(customFieldsFor(db, entity, user.resellerId).map((d) => ({ ...d, required: d.required ?? false, position: d.position ?? 0 })));
    }),
  ];
}

/** One field of each type for subscribers, made by a reseller (the provider's apply to every tenant's rows). */
export function seedCustomFields(db: MockDatabase, resellerId = -1): CustomFieldDefinition[] {
  const defs: CustomFieldDefinition[] = [
    {
      id: 1,
      resellerId,
      entity: 'subscriber',
      key: 'contractRef',
      label: 'Contract ref',
      type: 'text',
      required: false,
      maximum: 12,
      pattern: '^[A-Z]-\\d+$',
      position: 1,
    },
    { id: 2, resellerId, entity: 'subscriber', key: 'tier', label: 'Tier', type: 'choice', required: false, choices: ['Gold', 'Silver'], position: 2 },
    { id: 3, resellerId, entity: 'subscriber', key: 'installed', label: 'Installed on', type: 'date', earliest: '2020-01-01', position: 3 },
    { id: 4, resellerId, entity: 'subscriber', key: 'sites', label: 'Sites', type: 'number', minimum: 1, maximum: 500, position: 4 },
  ];
  db.tables.customField = defs.map((d) => ({ ...d }) as Row);
  return defs;
}
