import { sql, type Kysely } from 'kysely';

/**
 * A card paid with is recorded (its payments show its last four digits), but kept for later payments only when the
 * payer asked to keep it and its charge went through: a declined card is never offered again.
 */
export async function up(db: Kysely<any>) {
  await sql`alter table payment_card add column kept boolean not null default true`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`alter table payment_card drop column kept`.execute(db);
}
