import { sql, type Kysely } from 'kysely';

/**
 * The network page sums the usage log of every network over a time range (the last 24 hours, 7 or 30 days, a custom
 * range of at most a year). The existing indexes start with the subscriber or the network, so such a range would
 * read the whole log; this one starts with the time and carries the columns the sums need (network, subscriber,
 * bytes), so a range reads only its own records, from the index alone. Records without a network are left out:
 * the page never counts them.
 */
export async function up(db: Kysely<any>) {
  await sql`create index usage_record_at_idx on usage_record (at) include (plmn, subscriber_id, bytes_up, bytes_down) where plmn is not null`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop index usage_record_at_idx`.execute(db);
}
