import { sql, type Kysely } from 'kysely';

/**
 * Sessions end when what they were granted on changes, and sign-in attempts are counted where every server sees them.
 * - `app_user.session_version` is carried in every token; a token of another version is refused. A trigger raises it
 *   whenever the password, the role or the disabled flag changes, whoever writes the row (portal, reset link, psql).
 * - `app_user.disabled`: a disabled user cannot sign in, and its tokens stop working.
 * - Changes of these columns notify the `portal_principal` channel (see 0080), so every server forgets who the user
 *   was at once. Column lists of triggers ignore what a BEFORE trigger sets, hence password_hash and disabled are named.
 * - `attempt_counter`: fixed-window counters of attempt limits, taken with one atomic upsert, for servers without Redis.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .alterTable('app_user')
    .addColumn('session_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('disabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`create or replace function end_user_sessions() returns trigger language plpgsql as $$
    begin
      new.session_version := old.session_version + 1;
      return new;
    end $$`.execute(db);
  await sql`create trigger app_user_end_sessions before update on app_user for each row
    when (old.password_hash is distinct from new.password_hash or old.role_id is distinct from new.role_id or old.disabled is distinct from new.disabled)
    execute function end_user_sessions()`.execute(db);
  await sql`create trigger app_user_session_change after update of password_hash, disabled, session_version on app_user
    for each statement execute function notify_principal_change()`.execute(db);

  await db.schema
    .createTable('attempt_counter')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('window_ends', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('attempt_counter_window_ends').on('attempt_counter').column('window_ends').execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('attempt_counter').ifExists().execute();
  await sql`drop trigger if exists app_user_session_change on app_user`.execute(db);
  await sql`drop trigger if exists app_user_end_sessions on app_user`.execute(db);
  await sql`drop function if exists end_user_sessions()`.execute(db);
  await db.schema.alterTable('app_user').dropColumn('session_version').dropColumn('disabled').execute();
}
