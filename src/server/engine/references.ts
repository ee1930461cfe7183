import type { Kysely } from 'kysely';
import { referenceFields, type EntitySchema } from '@shared/schema';
import type { FieldError } from '@shared/wire';
import { fieldError } from '../http/errors';
import type { Principal } from '../http/principal';
import { EntityRepository } from './repository';
import type { Database } from '../db/types';

type Row = Record<string, unknown>;

const asIds = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]);
const sameIds = (a: unknown, b: unknown) => JSON.stringify(asIds(a).map(Number).sort()) === JSON.stringify(asIds(b).map(Number).sort());

/**
 * One check for every reference a body carries (`x-reference` in the schema): each id must name a row that
 * exists and that the caller may see, through the referenced entity's own tenancy. A reference the write leaves
 * as it was is not looked up again, so a plan an ancestor set ('Set by admin') survives an edit of the row.
 */
export function createReferenceCheck(db: Kysely<Database>, schemas: EntitySchema[]) {
  const repositories = new Map(schemas.map((s) => [s.$id, new EntityRepository(db, s)]));
  return async function checkReferences(trx: Kysely<Database>, principal: Principal, schema: EntitySchema, values: Row, existing?: Row): Promise<FieldError[]> {
    const errors: FieldError[] = [];
    for (const { field, entity, none, messageId } of referenceFields(schema)) {
      if (!(field in values) || (existing && sameIds(values[field], existing[field]))) continue;
      const ids = asIds(values[field])
        .filter((id) => id !== none)
        .map(Number);
      if (!ids.length) continue;
      const repository = repositories.get(entity);
      if (!repository) throw new Error(`${schema.$id}.${field} refers to an unknown entity ${entity}`);
      const seen = await repository.visibleIds(ids, { principal }, trx);
      if (ids.some((id) => !seen.has(id))) errors.push(fieldError(field, 'reference', messageId));
    }
    return errors;
  };
}
