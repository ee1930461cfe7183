import { sql, type Kysely } from 'kysely';

/**
 * - `sim_order_key_chunk`: an order's key file sealed in pieces (AES-256-GCM per piece, each with its own nonce and
 *   tag, bound to the order, its place and the number of pieces), so it is decrypted and sent piece by piece.
 *   `sim_order_keys.chunks` counts them; the row's own iv, tag and ciphertext stay for files sealed whole before.
 * - `sim_resource_range.retired_at`: a range the administrator retired; allocation no longer draws from it.
 */
export async function up(db: Kysely<any>) {
  await db.schema.alterTable('sim_order_keys').addColumn('chunks', 'integer').execute();
  for (const column of ['iv', 'tag', 'ciphertext'])
    await db.schema
      .alterTable('sim_order_keys')
      .alterColumn(column, (c) => c.dropNotNull())
      .execute();
  await sql`alter table sim_order_keys add constraint sim_order_keys_sealed check ((chunks is null) = (ciphertext is not null) and (chunks is null or chunks > 0))`.execute(
    db,
  );
  await db.schema
    .createTable('sim_order_key_chunk')
    .addColumn('order_id', 'integer', (c) => c.notNull().references('sim_order_keys.order_id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull().check(sql`seq >= 0`))
    .addColumn('iv', 'bytea', (c) => c.notNull())
    .addColumn('tag', 'bytea', (c) => c.notNull())
    .addColumn('ciphertext', 'bytea', (c) => c.notNull())
    .addPrimaryKeyConstraint('sim_order_key_chunk_pk', ['order_id', 'seq'])
    .execute();

  await db.schema.alterTable('sim_resource_range').addColumn('retired_at', 'timestamptz').execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.alterTable('sim_resource_range').dropColumn('retired_at').execute();
  await db.schema.dropTable('sim_order_key_chunk').execute();
  await sql`alter table sim_order_keys drop constraint sim_order_keys_sealed`.execute(db);
  await db.schema.alterTable('sim_order_keys').dropColumn('chunks').execute();
}
