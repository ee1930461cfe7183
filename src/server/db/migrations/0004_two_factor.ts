import type { Kysely } from 'kysely';

/** Two-factor sign-in: each user's TOTP secret (encrypted), and the resellers that require it. */
export async function up(db: Kysely<any>) {
  await db.schema
    .alterTable('app_user')
    // Secret being enrolled, not yet confirmed with a code; replaced by totp_secret on confirmation.
    .addColumn('totp_pending_secret', 'text')
    .addColumn('totp_secret', 'text')
    // Last accepted time step: a code cannot be used twice.
    .addColumn('totp_last_step', 'bigint')
    .execute();
  await db.schema
    .alterTable('reseller')
    .addColumn('require_two_factor', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.alterTable('reseller').dropColumn('require_two_factor').execute();
  await db.schema.alterTable('app_user').dropColumn('totp_pending_secret').dropColumn('totp_secret').dropColumn('totp_last_step').execute();
}
