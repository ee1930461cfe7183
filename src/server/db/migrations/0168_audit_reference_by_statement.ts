import { sql, type Kysely } from 'kysely';

/**
 * A subscriber's audit entries refer to it as before, checked once per statement instead of once per row. The
 * foreign key `subscriber_audit_subscriber_id_fkey` ran a lookup of its subscriber for every entry written (2.6 s
 * of the 100,000 entries of one range assignment); its rules are now kept by statement-level triggers over the
 * rows the statement wrote, which look every subscriber up in one join:
 *
 * - entries written or changed must name subscribers that exist; those are locked as the key did (FOR KEY SHARE), so
 *   a subscriber being deleted at the same time either waits for the entries or makes them fail, and the error is
 *   the key's own (23503, same constraint name);
 * - deleting subscribers deletes their entries in the same statement (ON DELETE CASCADE), and emptying the table
 *   (TRUNCATE) empties the entries;
 * - a subscriber's id that entries refer to is not changed (NO ACTION on update).
 */
export async function up(db: Kysely<any>) {
  await sql`alter table subscriber_audit drop constraint subscriber_audit_subscriber_id_fkey`.execute(db);
  await sql`create function subscriber_audit_refers() returns trigger language plpgsql as $$
    declare
      wanted int;
      found int;
    begin
      select count(distinct subscriber_id) into wanted from added;
      select count(*) into found
        from (select 1 from subscriber s where s.subscriber_id in (select subscriber_id from added) for key share of s) locked;
      if found < wanted then
        raise exception using errcode = 'foreign_key_violation', constraint = 'subscriber_audit_subscriber_id_fkey',
          message = 'insert or update on table "subscriber_audit" violates foreign key constraint "subscriber_audit_subscriber_id_fkey"',
          detail = format('%s of the subscribers referred to are not present in table "subscriber".', wanted - found);
      end if;
      return null;
    end
  $$`.execute(db);
  // Transition tables need one event a trigger.
  await sql`create trigger subscriber_audit_refers_added after insert on subscriber_audit referencing new table as added
    for each statement execute function subscriber_audit_refers()`.execute(db);
  await sql`create trigger subscriber_audit_refers_changed after update on subscriber_audit referencing new table as added
    for each statement execute function subscriber_audit_refers()`.execute(db);

  await sql`create function subscriber_audit_cascade() returns trigger language plpgsql as $$
    begin
      delete from subscriber_audit where subscriber_id in (select subscriber_id from removed);
      return null;
    end
  $$`.execute(db);
  await sql`create trigger subscriber_audit_cascade after delete on subscriber referencing old table as removed
    for each statement execute function subscriber_audit_cascade()`.execute(db);

  await sql`create function subscriber_audit_truncate() returns trigger language plpgsql as $$
    begin
      truncate subscriber_audit;
      return null;
    end
  $$`.execute(db);
  await sql`create trigger subscriber_audit_truncate after truncate on subscriber for each statement
    execute function subscriber_audit_truncate()`.execute(db);

  await sql`create function subscriber_audit_key_kept() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from subscriber_audit where subscriber_id = old.subscriber_id) then
        raise exception using errcode = 'foreign_key_violation', constraint = 'subscriber_audit_subscriber_id_fkey',
          message = 'update on table "subscriber" violates foreign key constraint "subscriber_audit_subscriber_id_fkey" on table "subscriber_audit"';
      end if;
      return null;
    end
  $$`.execute(db);
  await sql`create trigger subscriber_audit_key_kept after update of subscriber_id on subscriber for each row
    when (old.subscriber_id is distinct from new.subscriber_id) execute function subscriber_audit_key_kept()`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop trigger subscriber_audit_key_kept on subscriber`.execute(db);
  await sql`drop trigger subscriber_audit_truncate on subscriber`.execute(db);
  await sql`drop trigger subscriber_audit_cascade on subscriber`.execute(db);
  await sql`drop trigger subscriber_audit_refers_changed on subscriber_audit`.execute(db);
  await sql`drop trigger subscriber_audit_refers_added on subscriber_audit`.execute(db);
  for (const f of ['subscriber_audit_key_kept', 'subscriber_audit_truncate', 'subscriber_audit_cascade', 'subscriber_audit_refers'])
    await sql`drop function ${sql.id(f)}()`.execute(db);
  await sql`delete from subscriber_audit a where not exists (select 1 from subscriber s where s.subscriber_id = a.subscriber_id)`.execute(db);
  await sql`alter table subscriber_audit add constraint subscriber_audit_subscriber_id_fkey foreign key (subscriber_id)
    references subscriber (subscriber_id) on delete cascade`.execute(db);
}
