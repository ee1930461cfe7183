import { sql, type Kysely } from 'kysely';

const ADDED = ['CustomFields', 'Labs'];

/**
 * Two privileges of a tenant's own settings: its custom fields and its labs switches. They go to the roles that
 * already manage a tenant (those holding Roles, the administrator's among them), so nobody who ran the tenant
 * before loses the settings screens.
 */
export async function up(db: Kysely<any>) {
  for (const privilege of ADDED) {
    const item = JSON.stringify([{ privilege, subPrivileges: [] }]);
    await sql`update role set privileges = privileges || ${item}::jsonb
      where privileges @> '[{"privilege": "Roles"}]'::jsonb and not privileges @> ${JSON.stringify([{ privilege }])}::jsonb`.execute(db);
  }
}

export async function down(db: Kysely<any>) {
  await sql`update role set privileges = (select coalesce(jsonb_agg(p), '[]'::jsonb) from jsonb_array_elements(privileges) p
    where not (p->>'privilege' = any(${ADDED})))`.execute(db);
}
