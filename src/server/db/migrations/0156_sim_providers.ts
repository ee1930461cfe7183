import { sql, type Kysely } from 'kysely';

/**
 * SIM providers (the card vendors an order is placed with) and their provider profiles: a profile names the sponsor
 * whose IMSIs the cards carry, the slot count, the SIM type and the IMSI prefix. A profile of the catalogue (no
 * reseller) is offered to everyone; a reseller's request is a profile of its own, pending until the administrator
 * approves or denies it (with a reason). Only approved profiles go into an order.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('sim_provider')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('vendor', 'text', (c) => c.notNull().defaultTo('simulator'))
    .addColumn('sim_types', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{physical,esim}'`))
    .addColumn('description', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('provider_profile')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('provider_id', 'integer', (c) => c.notNull().references('sim_provider.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sponsor_id', 'integer', (c) => c.notNull().references('sponsor.id'))
    .addColumn('slot_count', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`slot_count between 1 and 4`),
    )
    .addColumn('sim_type', 'text', (c) => c.notNull().check(sql`sim_type in ('physical', 'esim')`))
    .addColumn('imsi_prefix', 'text', (c) => c.notNull())
    .addColumn('reseller_id', 'integer', (c) => c.references('reseller.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('approved')
        .check(sql`status in ('pending', 'approved', 'denied')`),
    )
    .addColumn('comment', 'text')
    .addColumn('review_reason', 'text')
    .addColumn('requested_by', 'integer', (c) => c.references('app_user.id').onDelete('set null'))
    .addColumn('reviewed_by', 'integer', (c) => c.references('app_user.id').onDelete('set null'))
    .addColumn('reviewed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index provider_profile_reseller_idx on provider_profile (reseller_id)`.execute(db);
  await sql`create index provider_profile_sponsor_idx on provider_profile (sponsor_id)`.execute(db);
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('provider_profile').execute();
  await db.schema.dropTable('sim_provider').execute();
}
