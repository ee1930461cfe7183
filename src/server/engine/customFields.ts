import type { ValidateFunction } from 'ajv';
import { sql, type Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import {
  CUSTOM_PROPERTY,
  customValuesSchema,
  mergeCustom,
  unfilledRequired,
  sortDefinitions,
  type CustomEntity,
  type CustomFieldDefinition,
} from '@shared/customFields';
import { toFieldErrors } from '@shared/validation';
import type { FieldError } from '@shared/wire';
import { englishText, fieldError } from '../http/errors';
import { resellerPathIds } from '../http/principal';
import type { Database } from '../db/types';
import { createAjv } from './validator';

type Row = Record<string, unknown>;

/**
 * How long a tenant's definitions are kept. A change made through this process is seen at once (the cache is
 * emptied); other processes see it within this time.
 */
const DEFINITIONS_TTL_MS = 5_000;

const toDefinition = (r: Row): CustomFieldDefinition => ({
  id: Number(r.id),
  resellerId: Number(r.resellerId),
  entity: r.entity as CustomEntity,
  key: String(r.key),
  label: String(r.label),
  type: r.type as CustomFieldDefinition['type'],
  required: Boolean(r.required),
  minimum: r.minimum === null ? null : Number(r.minimum),
  maximum: r.maximum === null ? null : Number(r.maximum),
  earliest: (r.earliest as string | null) ?? null,
  latest: (r.latest as string | null) ?? null,
  pattern: (r.pattern as string | null) ?? null,
  choices: typeof r.choices === 'string' ? (JSON.parse(r.choices) as string[]) : ((r.choices as string[] | null) ?? null),
  position: Number(r.position),
});

/**
 * The definitions that apply to a tenant's rows (its own and its ancestors'), and the checks of the values a write
 * sends, by the same ajv with ajv-errors and ajv-formats the routes use.
 */
export class CustomFields {
  private readonly definitions = new LRUCache<string, CustomFieldDefinition[]>({ max: 2000, ttl: DEFINITIONS_TTL_MS });
  private readonly validators = new LRUCache<string, ValidateFunction>({ max: 500 });
  private readonly ajv = createAjv();

  constructor(private readonly db: Kysely<Database>) {}

  /** Drops the kept definitions: called after every write of the definitions table (see the custom-fields domain). */
  forget() {
    this.definitions.clear();
  }

  /** The definitions that apply to the rows of the reseller with this path, in form order. */
  async forPath(entity: CustomEntity, path: string, db: Kysely<Database> = this.db): Promise<CustomFieldDefinition[]> {
    const cacheKey = `${entity}:${path}`;
    const known = db === this.db ? this.definitions.get(cacheKey) : undefined;
    if (known) return known;
    const rows = await db.selectFrom('customField').selectAll().where('entity', '=', entity).where('resellerId', 'in', resellerPathIds(path)).execute();
    const defs = sortDefinitions(rows.map((r) => toDefinition(r as Row)));
    if (db === this.db) this.definitions.set(cacheKey, defs);
    return defs;
  }

  /** The definitions that apply to one reseller's rows. */
  async forReseller(entity: CustomEntity, resellerId: number, db: Kysely<Database> = this.db): Promise<CustomFieldDefinition[]> {
    const row = await db.selectFrom('reseller').select('path').where('id', '=', resellerId).executeTakeFirst();
    return row ? this.forPath(entity, row.path, db) : [];
  }

  /** Problems of the sent values alone, each named `custom.<key>`. */
  check(defs: CustomFieldDefinition[], sent: unknown): FieldError[] {
    const schema = customValuesSchema(defs);
    const cacheKey = JSON.stringify(schema);
    let validate = this.validators.get(cacheKey);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.validators.set(cacheKey, validate);
    }
    if (validate(sent)) return [];
    return toFieldErrors(validate.errors as never, englishText).map((e) => ({ ...e, field: e.field ? `${CUSTOM_PROPERTY}.${e.field}` : CUSTOM_PROPERTY }));
  }

  /**
   * The object to store for a write that sends `sent` (or nothing) over `stored`: the sent values checked, merged
   * over the stored ones (null or '' removes one). As for the row's own fields, a create fills every required field
   * and an update may not clear one it sends; an update is not held to fields made required since the row was saved.
   */
  resolve(defs: CustomFieldDefinition[], sent: unknown, stored: Row | undefined, mode: 'create' | 'update'): { values?: Row; errors: FieldError[] } {
    if (sent === undefined && mode === 'update') return { errors: [] };
    const given = (sent ?? {}) as Row;
    const errors = this.check(defs, given);
    if (errors.length) return { errors };
    const values = mergeCustom(stored, given);
    const missing = unfilledRequired(defs, given, values, mode).map((d) => fieldError(`${CUSTOM_PROPERTY}.${d.key}`, 'required', 'validation.custom.required'));
    return missing.length ? { errors: missing } : { values, errors: [] };
  }
}

const instances = new WeakMap<object, CustomFields>();

/** The one `CustomFields` of a database, shared by the engine's routes and the domains that write rows themselves. */
export function customFieldsOf(db: Kysely<Database>): CustomFields {
  let found = instances.get(db);
  if (!found) {
    found = new CustomFields(db);
    instances.set(db, found);
  }
  return found;
}

/** The table of an entity taking custom fields, and its key column. */
const TABLES: Record<CustomEntity, { table: string; key: string }> = {
  subscriber: { table: 'subscriber', key: 'subscriber_id' },
  account: { table: 'account', key: 'account_id' },
  reseller: { table: 'reseller', key: 'id' },
};

const sortIndex = (def: Pick<CustomFieldDefinition, 'entity' | 'key'>) => `${TABLES[def.entity].table}_custom_${def.key}_idx`;

/**
 * An index for lists sorted by a field: on the value (as the repository orders it, `custom -> 'key'`) and the row's
 * key, so the first page of a million rows sorted by a field is read from it, not sorted whole. One per entity and
 * key, shared by sibling tenants' fields of the same key; building it reads the table once, inside the definition's
 * transaction.
 */
export async function ensureSortIndex(trx: Kysely<Database>, def: Pick<CustomFieldDefinition, 'entity' | 'key'>): Promise<void> {
  const { table, key } = TABLES[def.entity];
  await sql`create index if not exists ${sql.id(sortIndex(def))} on ${sql.table(table)} ((custom -> ${sql.lit(def.key)}), ${sql.id(key)})`.execute(trx);
}

/** Drops a field's sort index when no other definition of the entity uses the key. */
export async function dropSortIndex(trx: Kysely<Database>, def: Pick<CustomFieldDefinition, 'entity' | 'key' | 'id'>): Promise<void> {
  const other = await trx
    .selectFrom('customField')
    .select('id')
    .where('entity', '=', def.entity)
    .where('key', '=', def.key)
    .where('id', '<>', def.id)
    .executeTakeFirst();
  if (!other) await sql`drop index if exists ${sql.id(sortIndex(def))}`.execute(trx);
}

/** Removes a deleted definition's values from the rows it applied to (the defining tenant's subtree). */
export async function purgeValues(trx: Kysely<Database>, def: Pick<CustomFieldDefinition, 'entity' | 'key' | 'resellerId'>): Promise<void> {
  const subtree = (column: string) =>
    sql`${sql.ref(column)} in (select r.id from reseller r where r.path like (select p.path from reseller p where p.id = ${def.resellerId}) || '%')`;
  const column = def.entity === 'reseller' ? 'id' : 'reseller_id';
  await sql`update ${sql.table(def.entity)} set custom = custom - ${def.key} where custom ? ${def.key} and ${subtree(column)}`.execute(trx);
}
