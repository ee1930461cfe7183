import { sql, type Kysely } from 'kysely';

const FKEY = 'subscriber_operation_subscriber_id_fkey';

/**
 * Two costs of writing many subscribers' audit entries and operation records at once (a CSV bulk update writes two of
 * each per line):
 *
 * - The statement-level reference checks of migration 0168 (`refers_by_statement`: a subscriber's account, reseller
 *   and SIM card, an audit entry's subscriber) now look the referred rows up by their key's index. The transition table
 *   of the rows a statement wrote has no statistics, so the planner took its join with the referred table for a hash
 *   join over a full scan of it: every 2,000 audit entries scanned the whole subscriber table, twice when the
 *   subscribers were written in a savepoint (their rows are then not the transaction's own and are locked and counted
 *   again); 0.3 to 1.2 s per 2,000 entries on 50,000 subscribers, 30 to 50 ms by the index (load of 12 on two shared
 *   cores). Inside the function only: hash and merge joins off.
 * - An operation record's subscriber is checked by statement, as an audit entry's is since 0168, instead of by its
 *   foreign key's lookup per row (8.8 s of a 24.5 s job of 20,000 lines, 40,000 records, at a load of 21): a statement
 *   inserting records checks them in one pass; a record moved to another subscriber (never done by the portal) is
 *   checked alone; deleting subscribers deletes their records in the same statement (ON DELETE CASCADE), emptying them
 *   empties the records, and a subscriber's id is not changed while records refer to it. A refusal is the foreign
 *   key's own error: 23503 with its former name.
 */
export async function up(db: Kysely<any>) {
  await sql`alter function refers_by_statement() set enable_hashjoin = off`.execute(db);
  await sql`alter function refers_by_statement() set enable_mergejoin = off`.execute(db);

  await sql`alter table subscriber_operation drop constraint ${sql.id(FKEY)}`.execute(db);
  await sql`create trigger subscriber_operation_refers_added after insert on subscriber_operation referencing new table as added
    for each statement execute function refers_by_statement('subscriber_id', 'subscriber', 'subscriber_id', ${sql.lit(FKEY)})`.execute(db);
  await sql`create function subscriber_operation_refers_changed() returns trigger language plpgsql as $$
    begin
      perform 1 from subscriber where subscriber_id = new.subscriber_id for key share;
      if not found then
        raise exception using errcode = 'foreign_key_violation', constraint = ${sql.lit(FKEY)},
          message = ${sql.lit(`insert or update on table "subscriber_operation" violates foreign key constraint "${FKEY}"`)};
      end if;
      return null;
    end
  $$`.execute(db);
  await sql`create trigger subscriber_operation_refers_changed after update of subscriber_id on subscriber_operation for each row
    when (old.subscriber_id is distinct from new.subscriber_id) execute function subscriber_operation_refers_changed()`.execute(db);

  await sql`create function subscriber_operation_cascade() returns trigger language plpgsql as $$
    begin
      delete from subscriber_operation where subscriber_id in (select subscriber_id from removed);
      return null;
    end
  $$`.execute(db);
  await sql`create trigger subscriber_operation_cascade after delete on subscriber referencing old table as removed
    for each statement execute function subscriber_operation_cascade()`.execute(db);
  await sql`create function subscriber_operation_truncate() returns trigger language plpgsql as $$
    begin
      truncate subscriber_operation;
      return null;
    end
  $$`.execute(db);
  await sql`create trigger subscriber_operation_truncate after truncate on subscriber for each statement
    execute function subscriber_operation_truncate()`.execute(db);
  await sql`create function subscriber_operation_key_kept() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from subscriber_operation where subscriber_id = old.subscriber_id) then
        raise exception using errcode = 'foreign_key_violation', constraint = ${sql.lit(FKEY)},
          message = ${sql.lit(`update on table "subscriber" violates foreign key constraint "${FKEY}" on table "subscriber_operation"`)};
      end if;
      return null;
    end
  $$`.execute(db);
  await sql`create trigger subscriber_operation_key_kept after update of subscriber_id on subscriber for each row
    when (old.subscriber_id is distinct from new.subscriber_id) execute function subscriber_operation_key_kept()`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop trigger subscriber_operation_key_kept on subscriber`.execute(db);
  await sql`drop trigger subscriber_operation_truncate on subscriber`.execute(db);
  await sql`drop trigger subscriber_operation_cascade on subscriber`.execute(db);
  await sql`drop trigger subscriber_operation_refers_changed on subscriber_operation`.execute(db);
  await sql`drop trigger subscriber_operation_refers_added on subscriber_operation`.execute(db);
  for (const f of ['subscriber_operation_key_kept', 'subscriber_operation_truncate', 'subscriber_operation_cascade', 'subscriber_operation_refers_changed'])
    await sql`drop function ${sql.id(f)}()`.execute(db);
  await sql`delete from subscriber_operation o where not exists (select 1 from subscriber s where s.subscriber_id = o.subscriber_id)`.execute(db);
  await sql`alter table subscriber_operation add constraint ${sql.id(FKEY)} foreign key (subscriber_id)
    references subscriber (subscriber_id) on delete cascade`.execute(db);

  await sql`alter function refers_by_statement() reset enable_hashjoin`.execute(db);
  await sql`alter function refers_by_statement() reset enable_mergejoin`.execute(db);
}
