/**
 * Every entity schema in schemas/, loaded once. The files are small and the routes, the side menu and the
 * API tags need them at start-up, so they are bundled eagerly.
 */
import type { EntitySchema } from '@shared/schema';

const modules = import.meta.glob<EntitySchema>('@schemas/*.json', { eager: true, import: 'default' });

export const ENTITY_SCHEMAS: readonly EntitySchema[] = Object.values(modules).sort((a, b) => a['x-entity'].name.localeCompare(b['x-entity'].name));

export function entityName(schema: EntitySchema): string {
  return schema['x-entity'].name;
}

export function findSchema(name: string): EntitySchema | undefined {
  return ENTITY_SCHEMAS.find((s) => entityName(s) === name);
}

/** The tag type of an entity's cache entries: its name, so tags read like the schema file. */
export function entityTag(schema: EntitySchema): string {
  return entityName(schema);
}

/** A detail route with its id filled in, e.g. `/account/{id}` to `/account/42`. */
export function detailPath(schema: EntitySchema, id: string | number): string | undefined {
  const pattern = schema['x-entity'].routes?.detail;
  return pattern?.replace('{id}', encodeURIComponent(String(id)));
}

export function listPath(schema: EntitySchema): string | undefined {
  return schema['x-entity'].routes?.list;
}

/** The id of a detail route that opens an empty form to create a row. */
export const NEW_ID = 'new';
