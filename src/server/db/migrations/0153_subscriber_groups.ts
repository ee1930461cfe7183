import { sql, type Kysely } from 'kysely';

/**
 * Subscriber groups: named sets of subscribers owned by a reseller and seen by its subtree. A `static` group lists
 * its members (migration 0154); a `search` group stores a subscriber list search (`search_by`, `search_key`) that
 * is run again whenever the group is read, so its members are whatever that search answers at the time.
 */
export async function up(db: Kysely<any>) {
  await sql`create table subscriber_group (
    id serial primary key,
    name text not null,
    kind text not null default 'static' check (kind in ('static', 'search')),
    search_by text,
    search_key text,
    description text,
    reseller_id integer not null references reseller (id),
    version integer not null default 1,
    check (kind = 'static' or (search_by is not null and search_key is not null))
  )`.execute(db);
  await sql`create unique index subscriber_group_name_uq on subscriber_group (reseller_id, lower(name))`.execute(db);
  await sql`create trigger subscriber_group_version before update on subscriber_group for each row execute function raise_row_version()`.execute(db);
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('subscriber_group').execute();
}
