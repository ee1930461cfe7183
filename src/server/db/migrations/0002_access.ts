import { sql, type Kysely } from 'kysely';

/** Mail kept locally, password reset tokens, used robot-check solutions and join requests. */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('outbox')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('to', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('html', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // Only a hash of each token is kept: a copy of the database does not let anyone reset a password.
  await db.schema
    .createTable('password_reset')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index password_reset_open_idx on password_reset (user_id) where used_at is null`.execute(db);

  // A solved challenge is remembered until it expires, so it cannot be replayed.
  await db.schema
    .createTable('altcha_solution')
    .addColumn('challenge_id', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await sql`create index altcha_solution_expiry_idx on altcha_solution (expires_at)`.execute(db);

  await db.schema
    .createTable('join_request')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('company', 'text', (c) => c.notNull())
    .addColumn('phone_number', 'text', (c) => c.notNull())
    .addColumn('comment', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>) {
  for (const t of ['join_request', 'altcha_solution', 'password_reset', 'outbox']) await db.schema.dropTable(t).execute();
}
