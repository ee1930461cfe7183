import { sql, type Kysely } from 'kysely';

/**
 * A usage record counts data used: its bytes up and down are never negative. The top subscribers of the last 24 hours
 * (migration 0178) rely on it: a subscriber's bytes of a day and the day before bound what it used in any 24 hours
 * within them only if no record takes bytes away.
 */
export async function up(db: Kysely<any>) {
  await sql`alter table usage_record add constraint usage_record_bytes_not_negative check (bytes_up >= 0 and bytes_down >= 0)`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`alter table usage_record drop constraint usage_record_bytes_not_negative`.execute(db);
}
