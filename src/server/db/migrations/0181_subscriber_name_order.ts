import { sql, type Kysely } from 'kysely';

/**
 * The subscribers in the order of a list sorted by name, descending (empty names last, then by id, as the lists order
 * them): a page of a search known to match many (an account's tens of thousands of subscribers) is read from the top
 * of this index, where its matches soon come, instead of sorting every match by name (50 ms a page at a million
 * subscribers, docs/performance.md). The bulk loader drops it for a load and builds it again at the end, as it does
 * the other indexes.
 */
export async function up(db: Kysely<any>) {
  await sql`create index subscriber_name_order_idx on subscriber (name desc nulls last, subscriber_id desc)`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop index subscriber_name_order_idx`.execute(db);
}
