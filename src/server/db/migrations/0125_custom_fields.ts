import { sql, type Kysely } from 'kysely';

/** The tables whose rows take custom fields: their values live in one JSON object per row, no column per field. */
const TAKING = ['subscriber', 'account', 'reseller'];

/**
 * Custom fields. `custom_field` holds the definitions, each made by a tenant for one entity; a key is unique per
 * entity within a tenant (the wider rule, along the whole line of a reseller tree, is the server's). The values go
 * into a `custom` jsonb column, added with a constant default so that even a table of millions of rows is changed
 * in the catalogue only. A GIN index of the rows that hold values lets equality searches (`custom @> {...}`, with
 * the index's own condition) use it, and costs nothing to the many rows without any (a bulk load of SIMs). Each
 * field's sort gets an index of its own when the field is made (domains/custom-fields).
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('custom_field')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('reseller.id').onDelete('cascade'))
    .addColumn('entity', 'text', (c) => c.notNull().check(sql`entity in ('subscriber', 'account', 'reseller')`))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('text', 'number', 'date', 'choice')`))
    .addColumn('required', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('minimum', 'numeric')
    .addColumn('maximum', 'numeric')
    .addColumn('earliest', 'text')
    .addColumn('latest', 'text')
    .addColumn('pattern', 'text')
    .addColumn('choices', 'jsonb')
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await sql`create unique index custom_field_key_uq on custom_field (reseller_id, entity, key)`.execute(db);
  await sql`create trigger custom_field_version before update on custom_field for each row execute function raise_row_version()`.execute(db);
  for (const table of TAKING) {
    await sql`alter table ${sql.id(table)} add column custom jsonb not null default '{}'::jsonb`.execute(db);
    await sql`create index ${sql.id(`${table}_custom_idx`)} on ${sql.id(table)} using gin (custom) where custom <> '{}'::jsonb`.execute(db);
  }
}

export async function down(db: Kysely<any>) {
  for (const table of TAKING) await sql`alter table ${sql.id(table)} drop column if exists custom`.execute(db);
  await db.schema.dropTable('custom_field').execute();
}
