import { sql, type Kysely } from 'kysely';

/**
 * A reseller's addresses (GET /portal/addresses): of a kind from the address types (migration 0129), belonging to
 * one reseller and gone with it, each with a uuid the database gives it, and the row version every updated entity
 * carries. The country is an ISO 3166 alpha-2 code.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('reseller_address')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'text', (c) =>
      c
        .notNull()
        .unique()
        .defaultTo(sql`gen_random_uuid()::text`),
    )
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('reseller.id').onDelete('cascade'))
    .addColumn('type_id', 'integer', (c) => c.notNull().references('address_type.id'))
    .addColumn('company_name', 'text')
    .addColumn('country', 'char(2)', (c) => c.notNull())
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('street', 'text', (c) => c.notNull())
    .addColumn('street_number', 'text')
    .addColumn('postal_code', 'text')
    .addColumn('additional_line', 'text')
    .addColumn('phone', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex('reseller_address_reseller_idx').on('reseller_address').columns(['reseller_id', 'type_id']).execute();
  await db.schema.createIndex('reseller_address_type_idx').on('reseller_address').column('type_id').execute();
  await sql`create trigger reseller_address_version before update on reseller_address for each row execute function raise_row_version()`.execute(db);
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('reseller_address').execute();
}
