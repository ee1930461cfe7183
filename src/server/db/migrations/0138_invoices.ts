import { sql, type Kysely } from 'kysely';

/**
 * Monthly invoices of resellers, made from the ledger. Numbers come from a one-row counter that the issuing
 * transaction locks and raises, so they run without gaps and are never used twice (a sequence would leave a gap for
 * every rolled-back issue). One invoice per reseller and month; its figures and the reseller's QuickBooks fields are
 * copied at issue time and never change after, except the status (open until the debt is paid).
 */
export async function up(db: Kysely<any>) {
  await sql`create table invoice_counter (
    id boolean primary key default true check (id),
    last_number integer not null default 0 check (last_number >= 0)
  )`.execute(db);
  await sql`insert into invoice_counter (id, last_number) values (true, 0)`.execute(db);
  await sql`create table invoice (
    id serial primary key,
    number integer not null unique check (number > 0),
    reseller_id integer not null references reseller (id),
    period_month date not null check (extract(day from period_month) = 1),
    period_start timestamptz not null,
    period_end timestamptz not null,
    currency char(3) not null default 'USD',
    opening_balance numeric(14, 2) not null,
    credits numeric(14, 2) not null check (credits >= 0),
    debits numeric(14, 2) not null check (debits <= 0),
    fees numeric(14, 2) not null check (fees >= 0),
    closing_balance numeric(14, 2) not null,
    line_count integer not null check (line_count >= 0),
    issued_at timestamptz not null default now(),
    issued_by integer references app_user (id) on delete set null,
    due_date date not null,
    status text not null default 'open' check (status in ('open', 'paid')),
    paid_at timestamptz,
    reseller_name text not null,
    quickbooks_customer_id text,
    export_reference text not null,
    unique (reseller_id, period_month),
    check (period_end > period_start),
    check (closing_balance = opening_balance + credits + debits)
  )`.execute(db);
  await sql`create index invoice_open_idx on invoice (reseller_id) where status = 'open'`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop table invoice`.execute(db);
  await sql`drop table invoice_counter`.execute(db);
}
