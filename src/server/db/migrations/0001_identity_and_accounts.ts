import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>) {
  await sql`create extension if not exists pg_trgm`.execute(db);
  await db.schema
    .createTable('reseller')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('parent_id', 'integer', (c) => c.references('reseller.id'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('accent_color_hex', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index reseller_path_idx on reseller (path text_pattern_ops)`.execute(db);

  await db.schema
    .createTable('role')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('reseller.id'))
    .addColumn('privileges', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('role_reseller_name_uq', ['reseller_id', 'name'])
    .execute();

  await db.schema
    .createTable('account')
    .addColumn('account_id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('city', 'text')
    .addColumn('email', 'text')
    .addColumn('country', 'char(2)')
    .addColumn('pricing_plan_id', 'integer')
    .addColumn('international_pricing_plan_id', 'integer')
    .addColumn('usage_credit', 'numeric(14, 2)')
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('reseller.id'))
    .addColumn('inventory_account', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index account_name_uq on account (lower(name))`.execute(db);
  await sql`create index account_reseller_idx on account (reseller_id, account_id)`.execute(db);
  // Searches match part of a name ("contains"): a trigram index serves them.
  await sql`create index account_name_trgm_idx on account using gin (name gin_trgm_ops)`.execute(db);

  await db.schema
    .createTable('app_user')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('reseller.id'))
    .addColumn('account_id', 'integer', (c) => c.references('account.account_id'))
    .addColumn('role_id', 'integer', (c) => c.references('role.id'))
    .addColumn('preferences', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index app_user_username_uq on app_user (lower(username))`.execute(db);
  await sql`create unique index app_user_email_uq on app_user (lower(email))`.execute(db);

  await db.schema
    .createTable('setting')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>) {
  for (const t of ['setting', 'app_user', 'account', 'role', 'reseller']) await db.schema.dropTable(t).execute();
}
