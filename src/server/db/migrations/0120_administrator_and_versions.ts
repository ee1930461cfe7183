import { sql, type Kysely } from 'kysely';

/** The tables of the entities the engine edits: each row carries a version that every update raises. */
const VERSIONED = [
  'account',
  'allowed_list',
  'destination_zone',
  'international_plan',
  'location_zone',
  'prepaid_template',
  'pricing_plan',
  'roaming_profile',
  'role',
  'sponsor',
  'subscriber',
  'app_user',
];

/**
 * 1. Administrator power comes from the role, not from belonging to the provider: the privilege `Administrator`
 *    is given to the provider's administrator role (the one named so, and the role of the user `admin`). Other
 *    roles of the provider keep their privileges and lose the administrator's routes.
 * 2. Optimistic locking: a `version` on every edited row, raised by a trigger on any update (whatever route or
 *    tool makes it), so a form saved over a newer row is refused instead of silently undoing the other change.
 */
export async function up(db: Kysely<any>) {
  await sql`update role set privileges = privileges || '[{"privilege": "Administrator", "subPrivileges": []}]'::jsonb
    where reseller_id = -1
      and (name = 'Administrator' or id in (select role_id from app_user where username = 'admin' and role_id is not null))
      and not privileges @> '[{"privilege": "Administrator"}]'::jsonb`.execute(db);

  await sql`create or replace function raise_row_version() returns trigger language plpgsql as $$
    begin
      new.version := old.version + 1;
      return new;
    end $$`.execute(db);
  for (const table of VERSIONED) {
    await sql`alter table ${sql.id(table)} add column version integer not null default 1`.execute(db);
    await sql`create trigger ${sql.id(`${table}_version`)} before update on ${sql.id(table)}
      for each row execute function raise_row_version()`.execute(db);
  }
}

export async function down(db: Kysely<any>) {
  for (const table of VERSIONED) {
    await sql`drop trigger if exists ${sql.id(`${table}_version`)} on ${sql.id(table)}`.execute(db);
    await sql`alter table ${sql.id(table)} drop column if exists version`.execute(db);
  }
  await sql`drop function if exists raise_row_version()`.execute(db);
  await sql`update role set privileges = (select coalesce(jsonb_agg(p), '[]'::jsonb) from jsonb_array_elements(privileges) p
    where p->>'privilege' <> 'Administrator')`.execute(db);
}
