import { sql, type Kysely } from 'kysely';

/**
 * Prepaid package templates: what a reseller offers (allowances, period, price). The zones they name cannot be
 * deleted while a template refers to them (on delete restrict); the price is exact money.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('prepaid_template')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('reseller.id'))
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('location_zone_id', 'integer', (c) => c.notNull().references('location_zone.id').onDelete('restrict'))
    .addColumn('destination_zone_id', 'integer', (c) => c.references('destination_zone.id').onDelete('restrict'))
    .addColumn('period_days', 'integer', (c) => c.notNull().check(sql`period_days > 0`))
    .addColumn('mo_call_minutes', 'integer')
    .addColumn('mt_call_minutes', 'integer')
    .addColumn('mo_sms', 'integer')
    .addColumn('mt_sms', 'integer')
    .addColumn('price', sql`numeric(12, 2)`, (c) => c.notNull().check(sql`price >= 0`))
    .addColumn('data_mb', 'integer')
    .addColumn('unlimited_data', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('bitrate', 'integer')
    .addColumn('slices', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index prepaid_template_name_uq on prepaid_template (reseller_id, lower(name))`.execute(db);
  await sql`create index prepaid_template_location_zone_idx on prepaid_template (location_zone_id)`.execute(db);
  await sql`create index prepaid_template_destination_zone_idx on prepaid_template (destination_zone_id) where destination_zone_id is not null`.execute(db);
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('prepaid_template').execute();
}
