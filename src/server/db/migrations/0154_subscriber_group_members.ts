import { sql, type Kysely } from 'kysely';

/**
 * The members of static subscriber groups: one row per group and subscriber. The primary key serves a group's
 * members; the second index a subscriber's groups (the subscribers grid filters by group through it).
 */
export async function up(db: Kysely<any>) {
  await sql`create table subscriber_group_member (
    group_id integer not null references subscriber_group (id) on delete cascade,
    subscriber_id integer not null references subscriber (subscriber_id) on delete cascade,
    added_at timestamptz not null default now(),
    primary key (group_id, subscriber_id)
  )`.execute(db);
  await sql`create index subscriber_group_member_subscriber_idx on subscriber_group_member (subscriber_id, group_id)`.execute(db);
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('subscriber_group_member').execute();
}
