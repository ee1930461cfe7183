import { sql, type Kysely } from 'kysely';

/** One logo per reseller; a reseller without one shows its nearest ancestor's. */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('reseller_logo')
    .addColumn('reseller_id', 'integer', (c) => c.primaryKey().references('reseller.id').onDelete('cascade'))
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('bytes', 'bytea', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('reseller_logo').execute();
}
