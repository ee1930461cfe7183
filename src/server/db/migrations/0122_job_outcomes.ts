import { sql, type Kysely } from 'kysely';

/**
 * A job counts each item's outcome as the work's real answer gives it: succeeded, failed or skipped (nothing to
 * do), with a reason per item; items handed to the core network wait for its answer (`waiting`, with the number
 * of answers still expected), so a job ends only once the network has answered. A job made of another's failed
 * items names it (`retry_of`).
 */
export async function up(db: Kysely<any>) {
  await sql`alter table job rename column done to succeeded`.execute(db);
  await db.schema
    .alterTable('job')
    .addColumn('skipped', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('waiting', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('retry_of', 'integer', (c) => c.references('job.id').onDelete('set null'))
    .execute();
  await db.schema
    .alterTable('job_item')
    .addColumn('message_id', 'text')
    .addColumn('detail', 'text')
    .addColumn('answers', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // Answers find their item by key; the screen pages an outcome's items in order.
  await sql`create index job_item_key_idx on job_item (job_id, key)`.execute(db);
  await sql`create index job_item_outcome_idx on job_item (job_id, status, seq) where status in ('failed', 'skipped', 'waiting')`.execute(db);
  await sql`create index job_answer_deadline_idx on job (lease_until) where waiting > 0`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop index job_answer_deadline_idx`.execute(db);
  await sql`drop index job_item_outcome_idx`.execute(db);
  await sql`drop index job_item_key_idx`.execute(db);
  await db.schema.alterTable('job_item').dropColumn('answers').dropColumn('detail').dropColumn('message_id').execute();
  await db.schema.alterTable('job').dropColumn('retry_of').dropColumn('waiting').dropColumn('skipped').execute();
  await sql`alter table job rename column succeeded to done`.execute(db);
}
