import { sql, type Kysely } from 'kysely';

/**
 * Contact types: the kinds of contact a reseller keeps (GET /portal/contacts/types), a catalogue the administrator
 * maintains, with the row version every updated entity carries. Starts with the usual kinds.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('contact_type')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await sql`create unique index contact_type_name_uq on contact_type (lower(name))`.execute(db);
  await sql`create trigger contact_type_version before update on contact_type for each row execute function raise_row_version()`.execute(db);
  await db
    .insertInto('contact_type')
    .values([
      { name: 'Commercial', description: 'Contracts, offers and prices' },
      { name: 'Billing', description: 'Invoices and payments' },
      { name: 'Technical', description: 'Integration, SIM provisioning and network questions' },
      { name: 'Support', description: 'Day-to-day operations and incidents' },
    ])
    .execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('contact_type').execute();
}
