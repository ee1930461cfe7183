import { sql, type Kysely } from 'kysely';

/**
 * Bulk changes of subscribers: the changes of each line of an uploaded file wait beside their job (the job's
 * items carry only subscriber ids), and indexes for the impact previews, which look for the subscribers seen on
 * given networks over the last 30 days.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('subscriber_upload_line')
    .addColumn('job_id', 'integer', (c) => c.notNull().references('job.id').onDelete('cascade'))
    .addColumn('subscriber_id', 'integer', (c) => c.notNull())
    .addColumn('changes', 'jsonb', (c) => c.notNull())
    .addPrimaryKeyConstraint('subscriber_upload_line_pk', ['job_id', 'subscriber_id'])
    .execute();
  await sql`create index usage_record_plmn_idx on usage_record (plmn, at) where plmn is not null`.execute(db);
  await sql`create index network_event_subscriber_plmn_idx on network_event (plmn, created_at) where subscriber_id is not null and plmn is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>) {
  await sql`drop index network_event_subscriber_plmn_idx`.execute(db);
  await sql`drop index usage_record_plmn_idx`.execute(db);
  await db.schema.dropTable('subscriber_upload_line').execute();
}
