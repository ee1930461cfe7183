import { sql, type Kysely } from 'kysely';

/**
 * Labs switches: a tenant's choice for one feature still being tried, kept per reseller and lab key. A lab without a
 * row takes the state of the resellers above it, else its default (src/shared/labs.ts). Who set it and when stay
 * beside it for the labs screen.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('lab_switch')
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('reseller.id').onDelete('cascade'))
    .addColumn('lab', 'text', (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull())
    .addColumn('updated_by', 'integer', (c) => c.references('app_user.id').onDelete('set null'))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('lab_switch_pk', ['reseller_id', 'lab'])
    .execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('lab_switch').execute();
}
