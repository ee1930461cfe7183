import { sql, type Kysely } from 'kysely';

/**
 * A reseller's ledger by day (UTC): the money moved up and down that day and the balance it closed on, kept beside
 * the ledger by triggers. A year's balance history reads at most 366 of these rows per reseller instead of every
 * movement of the year (over half a million for a big reseller).
 * - A new movement adds itself to its day; the closing balance is the balance after the day's latest movement
 *   (by time, then id), as the history has always read it.
 * - A movement changed or removed (a correction, a back-dated row) makes its days be summed anew from the ledger.
 */
export async function up(db: Kysely<any>) {
  await sql`create table ledger_day (
    reseller_id integer not null references reseller (id) on delete cascade,
    day date not null,
    credits numeric(14, 2) not null default 0,
    debits numeric(14, 2) not null default 0,
    closing_balance numeric(14, 2) not null,
    last_at timestamptz not null,
    last_entry_id bigint not null,
    primary key (reseller_id, day)
  )`.execute(db);

  await sql`create function ledger_day_post() returns trigger language plpgsql as $$
    begin
      insert into ledger_day as d (reseller_id, day, credits, debits, closing_balance, last_at, last_entry_id)
      values (new.reseller_id, (new.created_at at time zone 'UTC')::date, greatest(new.amount, 0), least(new.amount, 0),
        new.balance_after, new.created_at, new.id)
      on conflict (reseller_id, day) do update set
        credits = d.credits + excluded.credits,
        debits = d.debits + excluded.debits,
        closing_balance = case when (excluded.last_at, excluded.last_entry_id) > (d.last_at, d.last_entry_id)
          then excluded.closing_balance else d.closing_balance end,
        last_entry_id = case when (excluded.last_at, excluded.last_entry_id) > (d.last_at, d.last_entry_id)
          then excluded.last_entry_id else d.last_entry_id end,
        last_at = greatest(d.last_at, excluded.last_at);
      return null;
    end $$`.execute(db);
  await sql`create trigger ledger_entry_day after insert on ledger_entry for each row execute function ledger_day_post()`.execute(db);

  // The days a changed or removed movement touched, summed anew from the ledger (once per statement, whatever its rows).
  await sql`create function ledger_day_resum(resellers integer[], days date[]) returns void language plpgsql as $$
    begin
      delete from ledger_day d using unnest(resellers, days) t (reseller_id, day) where d.reseller_id = t.reseller_id and d.day = t.day;
      insert into ledger_day (reseller_id, day, credits, debits, closing_balance, last_at, last_entry_id)
      select t.reseller_id, t.day, s.credits, s.debits, s.closing_balance, s.last_at, s.last_entry_id
      from (select distinct * from unnest(resellers, days)) t (reseller_id, day)
      cross join lateral (
        select sum(greatest(l.amount, 0)) as credits, sum(least(l.amount, 0)) as debits,
          (array_agg(l.balance_after order by l.created_at desc, l.id desc))[1] as closing_balance,
          max(l.created_at) as last_at,
          (array_agg(l.id order by l.created_at desc, l.id desc))[1] as last_entry_id
        from ledger_entry l
        where l.reseller_id = t.reseller_id
          and l.created_at >= t.day::timestamp at time zone 'UTC' and l.created_at < (t.day + 1)::timestamp at time zone 'UTC') s
      where s.last_at is not null;
    end $$`.execute(db);
  await sql`create function ledger_day_changed() returns trigger language plpgsql as $$
    begin
      perform ledger_day_resum(array_agg(reseller_id), array_agg(day)) from (
        select reseller_id, (created_at at time zone 'UTC')::date as day from old_rows
        union select reseller_id, (created_at at time zone 'UTC')::date from new_rows) k;
      return null;
    end $$`.execute(db);
  await sql`create function ledger_day_removed() returns trigger language plpgsql as $$
    begin
      perform ledger_day_resum(array_agg(reseller_id), array_agg(day)) from (
        select distinct reseller_id, (created_at at time zone 'UTC')::date as day from old_rows) k;
      return null;
    end $$`.execute(db);
  await sql`create trigger ledger_entry_day_update after update on ledger_entry referencing old table as old_rows new table as new_rows
    for each statement execute function ledger_day_changed()`.execute(db);
  await sql`create trigger ledger_entry_day_delete after delete on ledger_entry referencing old table as old_rows
    for each statement execute function ledger_day_removed()`.execute(db);

  await sql`insert into ledger_day (reseller_id, day, credits, debits, closing_balance, last_at, last_entry_id)
    select reseller_id, (created_at at time zone 'UTC')::date, sum(greatest(amount, 0)), sum(least(amount, 0)),
      (array_agg(balance_after order by created_at desc, id desc))[1], max(created_at), (array_agg(id order by created_at desc, id desc))[1]
    from ledger_entry group by 1, 2`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop trigger if exists ledger_entry_day_delete on ledger_entry`.execute(db);
  await sql`drop trigger if exists ledger_entry_day_update on ledger_entry`.execute(db);
  await sql`drop trigger if exists ledger_entry_day on ledger_entry`.execute(db);
  await sql`drop function if exists ledger_day_removed(), ledger_day_changed(), ledger_day_resum(integer[], date[]), ledger_day_post()`.execute(db);
  await sql`drop table if exists ledger_day`.execute(db);
}
