import { sql, type Kysely } from 'kysely';

/**
 * A reseller's form styles, applied to its users' screens: primary and secondary colour (#rrggbb), a font of the
 * portal's safe list and a corner radius in pixels. Null: the portal's own look. Checked by the route that writes it.
 */
export async function up(db: Kysely<any>) {
  await sql`alter table reseller add column form_styles jsonb`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`alter table reseller drop column if exists form_styles`.execute(db);
}
