import { sql, type Kysely } from 'kysely';

/**
 * A reseller's contacts (GET /portal/contacts/resellers): people of a kind from the contact types (migration 0123),
 * belonging to one reseller and gone with it, with the row version every updated entity carries.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('reseller_contact')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('reseller.id').onDelete('cascade'))
    .addColumn('type_id', 'integer', (c) => c.notNull().references('contact_type.id'))
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('mobile', 'text')
    .addColumn('fax', 'text')
    .addColumn('description', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex('reseller_contact_reseller_idx').on('reseller_contact').columns(['reseller_id', 'type_id']).execute();
  await db.schema.createIndex('reseller_contact_type_idx').on('reseller_contact').column('type_id').execute();
  await sql`create trigger reseller_contact_version before update on reseller_contact for each row execute function raise_row_version()`.execute(db);
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('reseller_contact').execute();
}
