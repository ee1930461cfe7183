import { sql, type Kysely } from 'kysely';

/**
 * The statement-level reference checks of migration 0168 (`refers_by_statement`: a subscriber's account, reseller and
 * SIM card, an audit entry's subscriber) look the referred rows up by their key's index. The transition table of the
 * rows a statement wrote has no statistics, so the planner took its join with the referred table for a hash join
 * over a full scan of it: every 2,000 audit entries a bulk update writes scanned the whole subscriber table, twice
 * when the subscribers were written in a savepoint (their rows are then not the transaction's own and are locked
 * and counted again). 0.3 to 1.2 s per 2,000 entries on 50,000 subscribers, 30 to 50 ms by the index (load of 12
 * on two shared cores). Inside the function only: hash and merge joins off.
 */
export async function up(db: Kysely<any>) {
  await sql`alter function refers_by_statement() set enable_hashjoin = off`.execute(db);
  await sql`alter function refers_by_statement() set enable_mergejoin = off`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`alter function refers_by_statement() reset enable_hashjoin`.execute(db);
  await sql`alter function refers_by_statement() reset enable_mergejoin`.execute(db);
}
