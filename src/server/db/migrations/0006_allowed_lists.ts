import { sql, type Kysely } from 'kysely';

/**
 * Allowed lists: the networks a reseller's SIMs may roam on, each with the state the core network confirmed
 * (`applied`) and, while a change waits to be pushed, the state it should reach (`target`).
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('allowed_list')
    .addColumn('allowed_list_id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'text', (c) =>
      c
        .notNull()
        .unique()
        .defaultTo(sql`gen_random_uuid()::text`),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('sponsor_id', 'integer', (c) => c.notNull().references('sponsor.id'))
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('reseller.id'))
    .addColumn('sync_total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sync_done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sync_failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sync_started_at', 'timestamptz')
    .addColumn('sync_finished_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('allowed_list_reseller_idx').on('allowed_list').column('reseller_id').execute();

  await db.schema
    .createTable('allowed_list_network')
    .addColumn('allowed_list_id', 'integer', (c) => c.notNull().references('allowed_list.allowed_list_id').onDelete('cascade'))
    .addColumn('network_id', 'integer', (c) => c.notNull().references('network.id'))
    // blocked | preferred | removed, as the core network last confirmed it.
    .addColumn('applied', 'text', (c) => c.notNull())
    // The state a pending change should reach; null when nothing waits.
    .addColumn('target', 'text')
    // When the pending change went out to the core network; null when not in flight.
    .addColumn('sent_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('allowed_list_network_pk', ['allowed_list_id', 'network_id'])
    .execute();
  await sql`create index allowed_list_network_pending_idx on allowed_list_network (allowed_list_id) where target is not null`.execute(db);
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('allowed_list_network').execute();
  await db.schema.dropTable('allowed_list').execute();
}
