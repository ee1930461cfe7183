import { sql, type Kysely } from 'kysely';

/**
 * Payments of resellers (and of their accounts' users) into the ledger:
 * - `payment`: one row per attempt, whatever became of it. `amount` is what the payer paid, `credited_amount` what the
 *   balance rose by (amount = credited + fee). A payment is confirmed exactly when its ledger row exists, and reset
 *   exactly when its reversing row does; the checks below hold that line in the database.
 * - `payment_card`: saved cards as the processor's token, last four digits, brand, holder and expiry; never the number.
 * - `payment_proof`: the bank wire's proof (PDF, PNG or JPEG, by content).
 * - `payment_parameters`: the provider's defaults (the row of reseller -1, which also holds the provider-wide limits)
 *   and per-reseller overrides (a null column takes the default).
 */
export async function up(db: Kysely<any>) {
  const methods = sql.raw(`('CREDIT_CARD', 'BIT_PAY', 'BANK_WIRE', 'STRIPE', 'MANUAL')`);
  await sql`create table payment_card (
    id bigserial primary key,
    reseller_id integer not null references reseller (id) on delete cascade,
    account_id integer references account (account_id) on delete cascade,
    user_id integer references app_user (id) on delete set null,
    processor text not null,
    token text not null,
    last4 char(4) not null check (last4 ~ '^[0-9]{4}$'),
    brand text not null,
    holder_name text not null,
    expiry_month smallint not null check (expiry_month between 1 and 12),
    expiry_year smallint not null,
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index payment_card_owner_idx on payment_card (reseller_id, account_id)`.execute(db);
  await sql`create table payment (
    id bigserial primary key,
    reseller_id integer not null references reseller (id) on delete cascade,
    account_id integer references account (account_id) on delete set null,
    method text not null check (method in ${methods}),
    status text not null default 'pending' check (status in ('pending', 'confirmed', 'declined', 'failed', 'reset')),
    amount numeric(14, 2) not null,
    fee numeric(14, 2) not null default 0 check (fee >= 0),
    credited_amount numeric(14, 2) not null,
    currency text not null default 'USD',
    description text,
    reference text,
    confirmation_code text,
    processor_ref text,
    failure text,
    card_id bigint references payment_card (id) on delete set null,
    idempotency_key text,
    user_id integer references app_user (id) on delete set null,
    created_at timestamptz not null default now(),
    booked_at timestamptz,
    ledger_entry_id bigint references ledger_entry (id),
    reset_entry_id bigint references ledger_entry (id),
    unique (reseller_id, idempotency_key),
    check (amount = credited_amount + fee),
    check ((status in ('confirmed', 'reset')) = (ledger_entry_id is not null)),
    check ((status = 'reset') = (reset_entry_id is not null))
  )`.execute(db);
  await sql`create index payment_reseller_idx on payment (reseller_id, id)`.execute(db);
  await sql`create index payment_account_idx on payment (account_id, id) where account_id is not null`.execute(db);
  await sql`create index payment_created_idx on payment (method, created_at) where status in ('pending', 'confirmed')`.execute(db);
  await sql`create index payment_queue_idx on payment (method, status, id) where status = 'pending'`.execute(db);
  await sql`create table payment_proof (
    payment_id bigint primary key references payment (id) on delete cascade,
    file_name text not null,
    mime_type text not null check (mime_type in ('application/pdf', 'image/png', 'image/jpeg')),
    size integer not null,
    content bytea not null,
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create table payment_parameters (
    reseller_id integer primary key references reseller (id) on delete cascade,
    card_daily_limit numeric(14, 2) check (card_daily_limit >= 0),
    card_monthly_limit numeric(14, 2) check (card_monthly_limit >= 0),
    card_fee_rate numeric(6, 4) check (card_fee_rate between 0 and 1),
    crypto_daily_limit numeric(14, 2) check (crypto_daily_limit >= 0),
    crypto_monthly_limit numeric(14, 2) check (crypto_monthly_limit >= 0),
    crypto_fee_rate numeric(6, 4) check (crypto_fee_rate between 0 and 1),
    crypto_total_limit numeric(14, 2) check (crypto_total_limit >= 0),
    crypto_enabled boolean,
    provider_daily_limit numeric(14, 2) check (provider_daily_limit >= 0),
    provider_monthly_limit numeric(14, 2) check (provider_monthly_limit >= 0),
    updated_at timestamptz not null default now(),
    updated_by integer references app_user (id) on delete set null
  )`.execute(db);
  // The provider's defaults, once the provider's reseller row exists (it is made with the administrator).
  await sql`create function payment_parameters_defaults() returns trigger language plpgsql as $$
    begin
      if new.id = -1 then
        insert into payment_parameters (reseller_id, card_daily_limit, card_monthly_limit, card_fee_rate, crypto_daily_limit,
          crypto_monthly_limit, crypto_fee_rate, crypto_total_limit, crypto_enabled, provider_daily_limit, provider_monthly_limit)
        values (-1, 5000, 20000, 0.0300, 5000, 20000, 0.0100, 10000, true, 100000, 1000000) on conflict do nothing;
      end if;
      return new;
    end $$`.execute(db);
  await sql`create trigger payment_parameters_defaults after insert on reseller for each row execute function payment_parameters_defaults()`.execute(db);
  await sql`insert into payment_parameters (reseller_id, card_daily_limit, card_monthly_limit, card_fee_rate, crypto_daily_limit,
      crypto_monthly_limit, crypto_fee_rate, crypto_total_limit, crypto_enabled, provider_daily_limit, provider_monthly_limit)
    select -1, 5000, 20000, 0.0300, 5000, 20000, 0.0100, 10000, true, 100000, 1000000 from reseller where id = -1`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop trigger payment_parameters_defaults on reseller`.execute(db);
  await sql`drop function payment_parameters_defaults()`.execute(db);
  await sql`drop table payment_parameters, payment_proof, payment, payment_card`.execute(db);
}
