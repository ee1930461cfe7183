import { sql, type Kysely } from 'kysely';

/** Prices are exact: numeric with six decimals, never floating point. */
const RATE = 'numeric(12, 6)';

export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('international_rule')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('plan_id', 'integer', (c) => c.notNull().references('international_plan.id').onDelete('cascade'))
    .addColumn('price', sql.raw(RATE), (c) => c.notNull())
    .addColumn('country', 'char(2)', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('country_name', 'text')
    .addColumn('country_group', 'text', (c) => c.notNull().check(sql`country_group in ('Land', 'Mobile')`))
    .addColumn('description', 'text')
    .addColumn('start_date', 'timestamptz', (c) => c.notNull())
    .addColumn('end_date', 'timestamptz')
    .addColumn('from_date', 'timestamptz')
    .addColumn('hidden', 'boolean', (c) => c.notNull().defaultTo(false))
    .addCheckConstraint('international_rule_dates_ck', sql`end_date is null or end_date > start_date`)
    .execute();
  await sql`create index international_rule_plan_idx on international_rule (plan_id, id)`.execute(db);
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('international_rule').execute();
}
