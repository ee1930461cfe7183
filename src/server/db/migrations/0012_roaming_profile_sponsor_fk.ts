import { sql, type Kysely } from 'kysely';

/** A roaming profile's sponsors refer to real IMSI sponsors, which cannot be deleted while a profile uses them. */
export async function up(db: Kysely<any>) {
  await sql`delete from roaming_profile_sponsor where sponsor_id not in (select id from sponsor)`.execute(db);
  await db.schema
    .alterTable('roaming_profile_sponsor')
    .addForeignKeyConstraint('roaming_profile_sponsor_sponsor_fk', ['sponsor_id'], 'sponsor', ['id'], (c) => c.onDelete('restrict'))
    .execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.alterTable('roaming_profile_sponsor').dropConstraint('roaming_profile_sponsor_sponsor_fk').execute();
}
