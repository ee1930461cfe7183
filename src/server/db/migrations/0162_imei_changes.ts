import { sql, type Kysely } from 'kysely';

/**
 * Devices seen in the network: every time a subscriber's IMEI changes (a SIM moved to another device) an event
 * is written by a trigger, whichever call or job made the change, with the SIM it happened in.
 */
export async function up(db: Kysely<any>) {
  await sql`create table imei_change (
    id bigserial primary key,
    subscriber_id integer not null references subscriber (subscriber_id) on delete cascade,
    iccid text not null,
    imei text,
    previous_imei text,
    at timestamptz not null default now()
  )`.execute(db);
  await sql`create index imei_change_subscriber_idx on imei_change (subscriber_id, at desc)`.execute(db);
  await sql`create index imei_change_imei_idx on imei_change (imei)`.execute(db);
  await sql`create or replace function record_imei_change() returns trigger language plpgsql as $$
    begin
      if new.imei is distinct from old.imei then
        insert into imei_change (subscriber_id, iccid, imei, previous_imei) values (new.subscriber_id, new.iccid, new.imei, old.imei);
      end if;
      return new;
    end
  $$`.execute(db);
  await sql`create trigger subscriber_imei_change after update of imei on subscriber for each row execute function record_imei_change()`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop trigger subscriber_imei_change on subscriber`.execute(db);
  await sql`drop function record_imei_change()`.execute(db);
  await db.schema.dropTable('imei_change').execute();
}
