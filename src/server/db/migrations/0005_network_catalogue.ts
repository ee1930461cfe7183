import { sql, type Kysely } from 'kysely';

/** Mobile networks (reference data), IMSI sponsors and the signalling log the core-network adapter writes. */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('network')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('plmn', 'text', (c) => c.notNull().unique())
    .addColumn('mcc', 'text', (c) => c.notNull())
    .addColumn('mnc', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('operator', 'text')
    .addColumn('brand', 'text')
    .addColumn('status', 'text')
    .addColumn('bands', 'text')
    // Set when a refresh no longer finds the network in the catalogue; kept for the lists that still name it.
    .addColumn('withdrawn_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('network_country_idx').on('network').columns(['country', 'plmn']).execute();

  await db.schema
    .createTable('sponsor')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('plmn', 'text', (c) => c.notNull())
    .addColumn('imsi_prefix', 'text', (c) => c.notNull())
    .addColumn('country', 'text')
    .addColumn('description', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index sponsor_name_idx on sponsor (lower(name))`.execute(db);

  // Append-only; rows belong to the reseller on whose behalf the request went out (null: the provider's own).
  await db.schema
    .createTable('network_event')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('protocol', 'text', (c) => c.notNull())
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('imsi', 'text')
    .addColumn('plmn', 'text')
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('reseller_id', 'integer', (c) => c.references('reseller.id').onDelete('set null'))
    .addColumn('subscriber_id', 'integer')
    .addColumn('subject', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('network_event_time_idx').on('network_event').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('network_event_imsi_idx').on('network_event').columns(['imsi', 'created_at']).execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('network_event').execute();
  await db.schema.dropTable('sponsor').execute();
  await db.schema.dropTable('network').execute();
}
