import { sql, type Kysely } from 'kysely';

/**
 * A reseller's ledger by time: the balance history finds the closing balance of each day (or week, month) with one
 * short backward index probe per point, instead of walking the rows by id.
 */
export async function up(db: Kysely<any>) {
  await sql`create index if not exists ledger_entry_reseller_time_idx on ledger_entry (reseller_id, created_at, id)`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop index if exists ledger_entry_reseller_time_idx`.execute(db);
}
