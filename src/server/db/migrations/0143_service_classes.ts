import { sql, type Kysely } from 'kysely';

/** The speeds subscribers were throttled to before service classes existed, kept under the same ids (`code`). */
const PROVIDER_CLASSES = [
  { id: 1, code: '64kbps', name: '64 kbit/s', kbps: 64 },
  { id: 2, code: '128kbps', name: '128 kbit/s', kbps: 128 },
  { id: 3, code: '256kbps', name: '256 kbit/s', kbps: 256 },
  { id: 4, code: '512kbps', name: '512 kbit/s', kbps: 512 },
  { id: 5, code: '1Mbps', name: '1 Mbit/s', kbps: 1024 },
];

/**
 * Service classes: named speed limits (downlink and uplink in kbit/s) owned by a reseller and seen by its subtree;
 * the provider's (reseller -1) are seen by everyone. `code` is the id the daily-limit throttling stores
 * (`subscriber.qos_throttling`). Resellers, accounts and subscribers may each name one; a subscriber's effective
 * class is its own, else its account's, else its nearest reseller's.
 */
export async function up(db: Kysely<any>) {
  await sql`insert into reseller (id, name, parent_id, path) values (-1, 'Connectivity Provider', null, '/-1/') on conflict (id) do nothing`.execute(db);
  await sql`create table service_class (
    id serial primary key,
    code text not null unique,
    name text not null,
    description text,
    downlink_kbps integer not null check (downlink_kbps between 1 and 100000000),
    uplink_kbps integer not null check (uplink_kbps between 1 and 100000000),
    reseller_id integer not null references reseller (id),
    version integer not null default 1
  )`.execute(db);
  await sql`create unique index service_class_name_uq on service_class (reseller_id, lower(name))`.execute(db);
  await sql`create trigger service_class_version before update on service_class for each row execute function raise_row_version()`.execute(db);
  for (const c of PROVIDER_CLASSES)
    await sql`insert into service_class (id, code, name, description, downlink_kbps, uplink_kbps, reseller_id)
      values (${c.id}, ${c.code}, ${c.name}, ${`Data throttled to ${c.name} both ways`}, ${c.kbps}, ${c.kbps}, -1)`.execute(db);
  await sql`select setval(pg_get_serial_sequence('service_class', 'id'), (select max(id) from service_class))`.execute(db);
  for (const table of ['reseller', 'account', 'subscriber']) {
    await sql`alter table ${sql.id(table)} add column service_class_id integer references service_class (id)`.execute(db);
    await sql`create index ${sql.id(`${table}_service_class_idx`)} on ${sql.id(table)} (service_class_id) where service_class_id is not null`.execute(db);
  }
}

export async function down(db: Kysely<any>) {
  for (const table of ['reseller', 'account', 'subscriber']) await sql`alter table ${sql.id(table)} drop column if exists service_class_id`.execute(db);
  await sql`drop table if exists service_class`.execute(db);
}
