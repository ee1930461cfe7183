import { sql, type Kysely } from 'kysely';

/**
 * Support requests a user sends from the dashboard: kept here (who, what, when) and written to the administrator's
 * outbox. The table also counts a user's recent requests, which are limited per hour.
 */
export async function up(db: Kysely<any>) {
  await sql`create table support_ticket (
    id serial primary key,
    user_id integer not null references app_user (id) on delete cascade,
    reseller_id integer not null references reseller (id) on delete cascade,
    account_id integer,
    category text not null check (category in ('billing', 'technical', 'sims', 'orders', 'other')),
    subject text not null check (length(subject) between 1 and 200),
    message text not null check (length(message) between 1 and 5000),
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index support_ticket_user_idx on support_ticket (user_id, created_at)`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop table support_ticket`.execute(db);
}
