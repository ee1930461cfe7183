import { sql, type Kysely } from 'kysely';

/**
 * Who a caller is (user, reseller path, role privileges) is kept in memory between requests; every server on the
 * database forgets it when any of it changes, told by a notification on the `portal_principal` channel. Changes made
 * outside the portal (psql, another server) notify the same way. Statement triggers: one notification per statement,
 * sent when its transaction commits.
 */
export async function up(db: Kysely<any>) {
  await sql`create or replace function notify_principal_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify('portal_principal', '');
      return null;
    end $$`.execute(db);
  await sql`create trigger app_user_principal_change after update of username, reseller_id, account_id, role_id or delete on app_user
    for each statement execute function notify_principal_change()`.execute(db);
  await sql`create trigger role_principal_change after update of privileges or delete on role
    for each statement execute function notify_principal_change()`.execute(db);
  await sql`create trigger reseller_principal_change after update of path or delete on reseller
    for each statement execute function notify_principal_change()`.execute(db);
}

export async function down(db: Kysely<any>) {
  for (const table of ['app_user', 'role', 'reseller'])
    await sql`drop trigger if exists ${sql.id(`${table}_principal_change`)} on ${sql.id(table)}`.execute(db);
  await sql`drop function if exists notify_principal_change()`.execute(db);
}
