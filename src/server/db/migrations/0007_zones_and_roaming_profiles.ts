import { sql, type Kysely } from 'kysely';

/**
 * Location and destination zones (sets of countries), and roaming profiles with their sponsors, allowed
 * lists and rates per country. Sponsors and allowed lists are referenced by id; their foreign keys come in a
 * later migration, once those tables exist.
 */
export async function up(db: Kysely<any>) {
  for (const table of ['location_zone', 'destination_zone']) {
    let t = db.schema
      .createTable(table)
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('reseller_id', 'integer', (c) => c.notNull().references('reseller.id'))
      // ISO 3166 alpha-2 codes as a JSON array, e.g. ["DE","FR"]; the count beside it for sorting.
      .addColumn('countries', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('country_count', 'integer', (c) => c.notNull().defaultTo(0));
    if (table === 'destination_zone') t = t.addColumn('max_voip_cost', sql`numeric(12,4)`);
    await t.addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`)).execute();
    await sql`create unique index ${sql.raw(`${table}_name_idx`)} on ${sql.table(table)} (reseller_id, lower(name))`.execute(db);
  }

  await db.schema
    .createTable('roaming_profile')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('slots', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('reseller.id'))
    // pending until an administrator approves it; every change by anyone else makes it pending again.
    .addColumn('review_state', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('reviewed_at', 'timestamptz')
    .addColumn('synced_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index roaming_profile_name_idx on roaming_profile (reseller_id, lower(name))`.execute(db);

  await db.schema
    .createTable('roaming_profile_sponsor')
    .addColumn('roaming_profile_id', 'integer', (c) => c.notNull().references('roaming_profile.id').onDelete('cascade'))
    .addColumn('sponsor_id', 'integer', (c) => c.notNull())
    .addColumn('added_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('roaming_profile_sponsor_pk', ['roaming_profile_id', 'sponsor_id'])
    .execute();
  await db.schema
    .createTable('roaming_profile_allowed_list')
    .addColumn('roaming_profile_id', 'integer', (c) => c.notNull().references('roaming_profile.id').onDelete('cascade'))
    .addColumn('allowed_list_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('roaming_profile_allowed_list_pk', ['roaming_profile_id', 'allowed_list_id'])
    .execute();
  await db.schema
    .createTable('roaming_profile_rate')
    .addColumn('roaming_profile_id', 'integer', (c) => c.notNull().references('roaming_profile.id').onDelete('cascade'))
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('mo_call', sql`numeric(12,4)`, (c) => c.notNull().defaultTo(0))
    .addColumn('mt_call', sql`numeric(12,4)`, (c) => c.notNull().defaultTo(0))
    .addColumn('mo_sms', sql`numeric(12,4)`, (c) => c.notNull().defaultTo(0))
    .addColumn('mt_sms', sql`numeric(12,4)`, (c) => c.notNull().defaultTo(0))
    .addColumn('data', sql`numeric(12,4)`, (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('roaming_profile_rate_pk', ['roaming_profile_id', 'country'])
    .execute();
}

export async function down(db: Kysely<any>) {
  for (const t of ['roaming_profile_rate', 'roaming_profile_allowed_list', 'roaming_profile_sponsor', 'roaming_profile', 'destination_zone', 'location_zone']) {
    await db.schema.dropTable(t).execute();
  }
}
