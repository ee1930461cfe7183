import { sql, type Kysely } from 'kysely';

/**
 * The local pricing plan a reseller pays by, assigned by its parent (a plan of the parent) or the administrator.
 * Deleting the plan leaves the reseller without one rather than pricing it by a plan that no longer exists.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .alterTable('reseller')
    .addColumn('pricing_plan_id', 'integer', (c) => c.references('pricing_plan.id').onDelete('set null'))
    .execute();
  await sql`create index reseller_pricing_plan_idx on reseller (pricing_plan_id) where pricing_plan_id is not null`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop index reseller_pricing_plan_idx`.execute(db);
  await db.schema.alterTable('reseller').dropColumn('pricing_plan_id').execute();
}
