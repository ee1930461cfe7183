import { sql, type Kysely } from 'kysely';

/**
 * Address types: the kinds of address a reseller keeps (GET /portal/addresses/types), a catalogue the administrator
 * maintains, with the row version every updated entity carries. Starts with the usual kinds.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('address_type')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await sql`create unique index address_type_name_uq on address_type (lower(name))`.execute(db);
  await sql`create trigger address_type_version before update on address_type for each row execute function raise_row_version()`.execute(db);
  await db
    .insertInto('address_type')
    .values([
      { name: 'Billing', description: 'Where invoices are sent' },
      { name: 'Shipping', description: 'Where SIM cards and devices are delivered' },
      { name: 'Office', description: 'Registered or head office' },
    ])
    .execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('address_type').execute();
}
