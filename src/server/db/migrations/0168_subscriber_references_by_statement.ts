import { sql, type Kysely } from 'kysely';

/** The subscriber's references checked by statement: constraint, column, referred table, its key. */
const REFERENCES = [
  ['subscriber_account_id_fkey', 'account_id', 'account', 'account_id'],
  ['subscriber_reseller_id_fkey', 'reseller_id', 'reseller', 'id'],
  ['subscriber_iccid_fkey', 'iccid', 'sim_card', 'iccid'],
] as const;

/**
 * A new subscriber's references (its account, reseller and SIM card) and an audit entry's reference to its
 * subscriber, checked once per statement instead of once per row. Their foreign keys ran a lookup of the referred
 * row for every row written: 100,000 for each key when a range of 100,000 cards is assigned to an account (the
 * subscribers' three keys and the audit entries' together, 7.6 s of the assignment's 20.3 s at a load of 20 on two
 * shared cores). The same rules are now kept by triggers:
 *
 * - rows written must refer to rows that exist: a statement-level trigger over the rows a statement inserted counts
 *   the referred rows in one join each and locks them as a foreign key does (FOR KEY SHARE), so a referred row
 *   deleted at the same time either waits or makes the insert fail; rows the transaction wrote itself need no lock
 *   (no one else can delete them before it ends), which spares the 100,000 cards and subscribers of an assignment;
 *   a row whose reference is changed by an UPDATE is checked alone (a row-level trigger firing only on a change);
 * - a referred row is not deleted, nor its key changed, while subscribers refer to it (NO ACTION), and its table
 *   is not emptied (TRUNCATE) unless the subscribers are emptied with it; deleting subscribers deletes their audit
 *   entries in the same statement (ON DELETE CASCADE), and emptying them empties the entries;
 * - a refusal is the foreign key's own error: 23503 with the constraint's former name.
 *
 * The portal writes in READ COMMITTED, where this locking is the foreign keys'. The subscriber's other references
 * (pricing plan, roaming profile, service class), which bulk updates change, keep their foreign keys.
 */
export async function up(db: Kysely<any>) {
  // The subscriber's account, reseller and SIM card.
  for (const [name] of REFERENCES) await sql`alter table subscriber drop constraint ${sql.id(name)}`.execute(db);
  // The check of the rows a statement inserted or changed (its transition table, `added`): arguments are, four
  // at a time, the column, the referred table, its key and the constraint's name. One join counts the referred rows;
  // rows this transaction wrote (the cards a range assignment just updated, the subscribers it just inserted) are
  // its own until it ends, and only the others are then locked and counted again.
  await sql`create function refers_by_statement() returns trigger language plpgsql as $$
    declare
      mine xid := pg_current_xact_id()::xid;
      wanted bigint;
      found bigint;
      others bigint;
      counted text;
    begin
      for i in 0 .. tg_nargs - 1 by 4 loop
        counted := format('select count(a.%1$I), count(p.%3$I), count(p.%3$I) filter (where p.xmin <> $1) from added a left join %2$I p on p.%3$I = a.%1$I',
          tg_argv[i], tg_argv[i + 1], tg_argv[i + 2]);
        execute counted into wanted, found, others using mine;
        if others > 0 then
          execute format('select count(*) from (select 1 from %2$I p where p.%3$I in (select a.%1$I from added a) and p.xmin <> $1 for key share of p) l',
            tg_argv[i], tg_argv[i + 1], tg_argv[i + 2]) using mine;
          execute counted into wanted, found, others using mine;
        end if;
        if found < wanted then
          raise exception using errcode = 'foreign_key_violation', constraint = tg_argv[i + 3],
            message = format('insert or update on table "%s" violates foreign key constraint "%s"', tg_table_name, tg_argv[i + 3]),
            detail = format('%s of the rows refer to none in table "%s".', wanted - found, tg_argv[i + 1]);
        end if;
      end loop;
      return null;
    end
  $$`.execute(db);
  const subscriberArgs = sql.raw(REFERENCES.map(([name, column, table, key]) => `'${column}', '${table}', '${key}', '${name}'`).join(', '));
  await sql`create trigger subscriber_refers_added after insert on subscriber referencing new table as added
    for each statement execute function refers_by_statement(${subscriberArgs})`.execute(db);
  await sql`create function subscriber_refers_changed() returns trigger language plpgsql as $$
    declare
      broken text;
    begin
      perform 1 from account where account_id = new.account_id for key share;
      if not found then broken := 'subscriber_account_id_fkey'; end if;
      perform 1 from reseller where id = new.reseller_id for key share;
      if not found then broken := 'subscriber_reseller_id_fkey'; end if;
      perform 1 from sim_card where iccid = new.iccid for key share;
      if not found then broken := 'subscriber_iccid_fkey'; end if;
      if broken is not null then
        raise exception using errcode = 'foreign_key_violation', constraint = broken,
          message = format('insert or update on table "subscriber" violates foreign key constraint "%s"', broken);
      end if;
      return null;
    end
  $$`.execute(db);
  await sql`create trigger subscriber_refers_changed after update of account_id, reseller_id, iccid on subscriber for each row
    when (old.account_id is distinct from new.account_id or old.reseller_id is distinct from new.reseller_id or old.iccid is distinct from new.iccid)
    execute function subscriber_refers_changed()`.execute(db);
  // The referred tables: arguments are the subscriber's column, the table's key and the constraint's name.
  await sql`create function subscriber_referred_removed() returns trigger language plpgsql as $$
    declare
      used boolean;
    begin
      if tg_op = 'TRUNCATE' then
        used := exists (select 1 from subscriber);
      elsif tg_op = 'DELETE' then
        execute format('select exists (select 1 from subscriber s where s.%I in (select r.%I from removed r))', tg_argv[0], tg_argv[1]) into used;
      else
        execute format('select exists (select 1 from subscriber s where s.%I = ($1).%I)', tg_argv[0], tg_argv[1]) into used using old;
      end if;
      if used then
        raise exception using errcode = 'foreign_key_violation', constraint = tg_argv[2],
          message = format('update or delete on table "%s" violates foreign key constraint "%s" on table "subscriber"', tg_table_name, tg_argv[2]);
      end if;
      return null;
    end
  $$`.execute(db);
  for (const [name, column, table, key] of REFERENCES) {
    const args = sql.raw(`'${column}', '${key}', '${name}'`);
    await sql`create trigger ${sql.id(`${name}_deleted`)} after delete on ${sql.id(table)} referencing old table as removed
      for each statement execute function subscriber_referred_removed(${args})`.execute(db);
    await sql`create trigger ${sql.id(`${name}_key_changed`)} after update of ${sql.id(key)} on ${sql.id(table)} for each row
      when (old.${sql.id(key)} is distinct from new.${sql.id(key)}) execute function subscriber_referred_removed(${args})`.execute(db);
    await sql`create trigger ${sql.id(`${name}_truncated`)} after truncate on ${sql.id(table)}
      for each statement execute function subscriber_referred_removed(${args})`.execute(db);
  }

  // The audit entries' subscriber.
  await sql`alter table subscriber_audit drop constraint subscriber_audit_subscriber_id_fkey`.execute(db);
  // Transition tables need one event a trigger.
  const auditArgs = sql.raw(`'subscriber_id', 'subscriber', 'subscriber_id', 'subscriber_audit_subscriber_id_fkey'`);
  await sql`create trigger subscriber_audit_refers_added after insert on subscriber_audit referencing new table as added
    for each statement execute function refers_by_statement(${auditArgs})`.execute(db);
  await sql`create trigger subscriber_audit_refers_changed after update on subscriber_audit referencing new table as added
    for each statement execute function refers_by_statement(${auditArgs})`.execute(db);

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
  for (const [name, column, table, key] of REFERENCES) {
    for (const suffix of ['deleted', 'key_changed', 'truncated']) await sql`drop trigger ${sql.id(`${name}_${suffix}`)} on ${sql.id(table)}`.execute(db);
    await sql`alter table subscriber add constraint ${sql.id(name)} foreign key (${sql.id(column)}) references ${sql.id(table)} (${sql.id(key)})`.execute(db);
  }
  await sql`drop trigger subscriber_refers_changed on subscriber`.execute(db);
  await sql`drop trigger subscriber_refers_added on subscriber`.execute(db);
  for (const f of ['subscriber_referred_removed', 'subscriber_refers_changed']) await sql`drop function ${sql.id(f)}()`.execute(db);
  await sql`drop trigger subscriber_audit_key_kept on subscriber`.execute(db);
  await sql`drop trigger subscriber_audit_truncate on subscriber`.execute(db);
  await sql`drop trigger subscriber_audit_cascade on subscriber`.execute(db);
  await sql`drop trigger subscriber_audit_refers_changed on subscriber_audit`.execute(db);
  await sql`drop trigger subscriber_audit_refers_added on subscriber_audit`.execute(db);
  for (const f of ['subscriber_audit_key_kept', 'subscriber_audit_truncate', 'subscriber_audit_cascade', 'refers_by_statement'])
    await sql`drop function ${sql.id(f)}()`.execute(db);
  await sql`delete from subscriber_audit a where not exists (select 1 from subscriber s where s.subscriber_id = a.subscriber_id)`.execute(db);
  await sql`alter table subscriber_audit add constraint subscriber_audit_subscriber_id_fkey foreign key (subscriber_id)
    references subscriber (subscriber_id) on delete cascade`.execute(db);
}
