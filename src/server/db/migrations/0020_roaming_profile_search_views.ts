import { sql, type Kysely } from 'kysely';

/**
 * The search popup finds roaming profiles by an allowed list's uuid and by a sponsor's name, which sit two tables
 * away; these views put them one row per profile and value, the shape a schema's `child` search filter reads.
 */
export async function up(db: Kysely<any>) {
  await sql`create view roaming_profile_allowed_list_uuid as
    select x.roaming_profile_id, l.uuid as allowed_list_uuid
    from roaming_profile_allowed_list x join allowed_list l on l.allowed_list_id = x.allowed_list_id`.execute(db);
  await sql`create view roaming_profile_sponsor_name as
    select x.roaming_profile_id, s.name as sponsor_name
    from roaming_profile_sponsor x join sponsor s on s.id = x.sponsor_id`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop view roaming_profile_sponsor_name`.execute(db);
  await sql`drop view roaming_profile_allowed_list_uuid`.execute(db);
}
