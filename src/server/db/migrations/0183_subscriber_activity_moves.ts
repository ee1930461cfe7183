import { sql, type Kysely } from 'kysely';
import { createMovedRowTrigger } from './0176_subscriber_activity';

/**
 * A statement moving many subscribers to another reseller, account or country moves their `subscriber_activity` rows
 * in one statement (docs/dashboard.md, "The map's countries"), so the histograms and the steps between their days
 * (migrations 0176, 0181 and 0182) take and add each key's counts once for all of them, instead of once per subscriber
 * (migration 0176's row trigger: a move of 10,000 subscribers with their usage took 13 to 16 s, 2.3 to 2.5 s of it
 * without the steps). A statement trigger cannot name the columns it follows and keep transition tables, so it reads
 * every update of `subscriber` and keeps the rows whose reseller, account or country changed.
 */
export async function up(db: Kysely<any>) {
  await sql`drop trigger if exists subscriber_activity_moved on subscriber`.execute(db);
  await sql`create or replace function subscriber_activity_moved() returns trigger language plpgsql as $$
    begin
      update subscriber_activity a set reseller_id = m.reseller_id, account_id = m.account_id, country = m.country
      from (select n.subscriber_id, n.reseller_id, n.account_id, coalesce(n.country, '')::text as country
        from old_rows o join new_rows n on n.subscriber_id = o.subscriber_id
        where o.reseller_id is distinct from n.reseller_id or o.account_id is distinct from n.account_id
          or o.country is distinct from n.country order by 1) m
      where a.subscriber_id = m.subscriber_id;
      return null;
    end $$`.execute(db);
  await sql`create trigger subscriber_activity_moved after update on subscriber referencing old table as old_rows new table as new_rows
    for each statement execute function subscriber_activity_moved()`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop trigger if exists subscriber_activity_moved on subscriber`.execute(db);
  await createMovedRowTrigger(db);
}
