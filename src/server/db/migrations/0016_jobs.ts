import { sql, type Kysely } from 'kysely';

/**
 * Durable background jobs: one row per job, one per item it changes. An item's status changes in the same
 * transaction as the change itself, so a job resumed after a crash applies every item exactly once.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('job')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('app_user.id').onDelete('set null'))
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('reseller.id').onDelete('cascade'))
    .addColumn('params', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued'))
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await sql`create index job_open_idx on job (id) where status in ('queued', 'running')`.execute(db);
  await sql`create index job_user_idx on job (user_id, id desc)`.execute(db);

  await db.schema
    .createTable('job_item')
    .addColumn('job_id', 'integer', (c) => c.notNull().references('job.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('error', 'text')
    .addPrimaryKeyConstraint('job_item_pk', ['job_id', 'seq'])
    .execute();
  await sql`create index job_item_pending_idx on job_item (job_id, seq) where status = 'pending'`.execute(db);
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('job_item').execute();
  await db.schema.dropTable('job').execute();
}
