import { sql, type Kysely } from 'kysely';

/**
 * The MSISDN pool: numbers bought from suppliers, each owned by a reseller and drawn from by the subscribers of
 * that reseller's subtree. A number is assigned while a `subscriber_msisdn` row holds it, so the pool keeps no
 * copy of who has it. Also the sequence subscribers created from inventory take their IMSIs from.
 */
export async function up(db: Kysely<any>) {
  await sql`create table msisdn_supplier (
    id serial primary key,
    name text not null unique,
    country char(2),
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create table msisdn_pool (
    msisdn text primary key check (msisdn ~ '^[0-9]{8,15}$'),
    country char(2) not null,
    supplier_id integer not null references msisdn_supplier (id),
    reseller_id integer not null references reseller (id),
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index msisdn_pool_reseller_idx on msisdn_pool (reseller_id, country, msisdn)`.execute(db);
  await sql`create index msisdn_pool_supplier_idx on msisdn_pool (supplier_id)`.execute(db);
  // IMSIs of subscribers created from inventory: the home network 90128 and a 10-digit serial above the demo's.
  await sql`create sequence subscriber_imsi_seq start with 5000000000 maxvalue 9999999999`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop sequence subscriber_imsi_seq`.execute(db);
  await db.schema.dropTable('msisdn_pool').execute();
  await db.schema.dropTable('msisdn_supplier').execute();
}
