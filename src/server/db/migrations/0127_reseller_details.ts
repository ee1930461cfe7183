import { sql, type Kysely } from 'kysely';

/**
 * Resellers as a whole entity (schemas/reseller.json).
 * - The reseller row gets the fields its users edit: names, contact details, commercial terms set from above (type,
 *   international plan, QuickBooks ids, TADIG code), relay flags for its webhooks, and the row version every edited
 *   entity carries.
 * - Its standing lives beside it in `reseller_standing`, written by the ledger, by sign-in, by the subscriber table
 *   and by the credit calls, never by the form, so a balance moving does not make an open form stale:
 *   balance (the latest ledger row's balance after), deposit (every payment credited), total credit (every
 *   positive movement), credit limit, debt in review, and, derived by the database, the credit in use (what the
 *   balance is below zero), the open balance (the same, what the reseller owes) and the available credit
 *   (credit limit + balance). The subscriber count follows the subscriber table through triggers.
 */
export async function up(db: Kysely<any>) {
  await sql`alter table reseller
    add column legal_name text,
    add column customer_type text,
    add column reseller_type text,
    add column first_name text,
    add column last_name text,
    add column email text,
    add column phone text,
    add column cell_phone text,
    add column preferred_currency char(3) not null default 'USD',
    add column international_pricing_plan_id integer references international_plan (id) on delete set null,
    add column quickbooks_id text,
    add column quickbooks_open_balance numeric(14, 2),
    add column quickbooks_deposit numeric(14, 2),
    add column tadig_code text,
    add column uses_gz boolean not null default false,
    add column relay_mobile_event boolean not null default false,
    add column relay_esim_status boolean not null default false,
    add column relay_location_update boolean not null default false,
    add column relay_voip boolean not null default false,
    add column relay_subscription_status boolean not null default false,
    add column esim_status_relay_url text,
    add column version integer not null default 1`.execute(db);
  await sql`create trigger reseller_version before update on reseller for each row execute function raise_row_version()`.execute(db);
  await sql`create index reseller_parent_idx on reseller (parent_id)`.execute(db);
  await sql`create unique index reseller_name_lower_uq on reseller (lower(name))`.execute(db);

  await sql`create table reseller_standing (
    reseller_id integer primary key references reseller (id) on delete cascade,
    balance numeric(14, 2) not null default 0,
    deposit numeric(14, 2) not null default 0,
    total_credit numeric(14, 2) not null default 0,
    credit_limit numeric(14, 2) not null default 0 check (credit_limit >= 0),
    disputed_amount numeric(14, 2) not null default 0 check (disputed_amount >= 0),
    credit_used numeric(14, 2) generated always as (greatest(-balance, 0)) stored,
    open_balance numeric(14, 2) generated always as (greatest(-balance, 0)) stored,
    available_credit numeric(15, 2) generated always as (credit_limit + balance) stored,
    subscriber_count integer not null default 0,
    last_login_at timestamptz,
    last_login_ip text,
    usage_reset_at timestamptz
  )`.execute(db);
  await sql`insert into reseller_standing (reseller_id, balance, deposit, total_credit, subscriber_count)
    select r.id,
      coalesce((select balance_after from ledger_entry l where l.reseller_id = r.id order by id desc limit 1), 0),
      coalesce((select sum(amount) from ledger_entry l where l.reseller_id = r.id and kind = 'payment' and amount > 0), 0),
      coalesce((select sum(amount) from ledger_entry l where l.reseller_id = r.id and amount > 0), 0),
      (select count(*) from subscriber s where s.reseller_id = r.id)
    from reseller r`.execute(db);

  // Every reseller has its standing from its first moment.
  await sql`create function reseller_standing_open() returns trigger language plpgsql as $$
    begin
      insert into reseller_standing (reseller_id) values (new.id) on conflict do nothing;
      return null;
    end $$`.execute(db);
  await sql`create trigger reseller_standing_open after insert on reseller for each row execute function reseller_standing_open()`.execute(db);

  // The ledger moves the balance: postings for one reseller run one after the other (the posting locks the reseller).
  await sql`create function reseller_standing_post() returns trigger language plpgsql as $$
    begin
      update reseller_standing set
        balance = new.balance_after,
        deposit = deposit + case when new.kind = 'payment' and new.amount > 0 then new.amount else 0 end,
        total_credit = total_credit + greatest(new.amount, 0)
      where reseller_id = new.reseller_id;
      return null;
    end $$`.execute(db);
  await sql`create trigger ledger_entry_standing after insert on ledger_entry for each row execute function reseller_standing_post()`.execute(db);

  // Subscriber counts: one statement per loaded or deleted batch (transition tables), one row per moved subscriber.
  await sql`create function reseller_subscribers_added() returns trigger language plpgsql as $$
    begin
      update reseller_standing st set subscriber_count = st.subscriber_count + n.count
        from (select reseller_id, count(*) as count from added group by reseller_id) n where st.reseller_id = n.reseller_id;
      return null;
    end $$`.execute(db);
  await sql`create function reseller_subscribers_removed() returns trigger language plpgsql as $$
    begin
      update reseller_standing st set subscriber_count = st.subscriber_count - n.count
        from (select reseller_id, count(*) as count from removed group by reseller_id) n where st.reseller_id = n.reseller_id;
      return null;
    end $$`.execute(db);
  await sql`create function reseller_subscriber_moved() returns trigger language plpgsql as $$
    begin
      update reseller_standing set subscriber_count = subscriber_count - 1 where reseller_id = old.reseller_id;
      update reseller_standing set subscriber_count = subscriber_count + 1 where reseller_id = new.reseller_id;
      return null;
    end $$`.execute(db);
  await sql`create trigger subscriber_count_added after insert on subscriber referencing new table as added
    for each statement execute function reseller_subscribers_added()`.execute(db);
  await sql`create trigger subscriber_count_removed after delete on subscriber referencing old table as removed
    for each statement execute function reseller_subscribers_removed()`.execute(db);
  await sql`create trigger subscriber_count_moved after update of reseller_id on subscriber
    for each row when (old.reseller_id is distinct from new.reseller_id) execute function reseller_subscriber_moved()`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop trigger if exists subscriber_count_moved on subscriber`.execute(db);
  await sql`drop trigger if exists subscriber_count_removed on subscriber`.execute(db);
  await sql`drop trigger if exists subscriber_count_added on subscriber`.execute(db);
  await sql`drop trigger if exists ledger_entry_standing on ledger_entry`.execute(db);
  await sql`drop trigger if exists reseller_standing_open on reseller`.execute(db);
  await sql`drop function if exists reseller_subscriber_moved(), reseller_subscribers_removed(), reseller_subscribers_added(), reseller_standing_post(), reseller_standing_open()`.execute(
    db,
  );
  await sql`drop table if exists reseller_standing`.execute(db);
  await sql`drop trigger if exists reseller_version on reseller`.execute(db);
  await sql`drop index if exists reseller_name_lower_uq`.execute(db);
  await sql`drop index if exists reseller_parent_idx`.execute(db);
  await sql`alter table reseller
    drop column legal_name, drop column customer_type, drop column reseller_type, drop column first_name, drop column last_name,
    drop column email, drop column phone, drop column cell_phone, drop column preferred_currency, drop column international_pricing_plan_id,
    drop column quickbooks_id, drop column quickbooks_open_balance, drop column quickbooks_deposit, drop column tadig_code, drop column uses_gz,
    drop column relay_mobile_event, drop column relay_esim_status, drop column relay_location_update, drop column relay_voip,
    drop column relay_subscription_status, drop column esim_status_relay_url, drop column version`.execute(db);
}
