import { sql, type Kysely } from 'kysely';

/**
 * SIM cards, subscribers, their MSISDNs and sponsor IMSIs, and the audit log of subscriber changes.
 * Pricing plans, roaming profiles and sponsors are referenced by id; their foreign keys come with a later migration.
 */
export async function up(db: Kysely<any>) {
  // An ICCID is 18 to 22 digits whose last one is the Luhn check digit (ITU-T E.118).
  await sql`create or replace function iccid_valid(v text) returns boolean language sql immutable as $$
    select v ~ '^[0-9]{18,22}$' and (
      select sum(case when (length(v) - i) % 2 = 1 then (case when d * 2 > 9 then d * 2 - 9 else d * 2 end) else d end) % 10 = 0
      from (select i, substr(v, i, 1)::int as d from generate_series(1, length(v)) as i) digits)
  $$`.execute(db);

  await db.schema
    .createTable('sim_card')
    .addColumn('iccid', 'text', (c) => c.primaryKey().check(sql`iccid_valid(iccid)`))
    .addColumn('sim_type', 'text', (c) => c.notNull().check(sql`sim_type in ('physical', 'esim')`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('inventory', 'active', 'suspended', 'retired')`))
    .addColumn('status_date', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('profile_type', 'text')
    .addColumn('batch', 'text')
    .addColumn('cost', 'numeric(10, 2)')
    .addColumn('service_provider_name', 'text')
    .addColumn('activation_code', 'text')
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('reseller.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index sim_card_reseller_idx on sim_card (reseller_id)`.execute(db);

  await db.schema
    .createTable('subscriber')
    .addColumn('subscriber_id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('active')
        .check(sql`status in ('active', 'suspended')`),
    )
    .addColumn('imsi', 'text', (c) =>
      c
        .notNull()
        .unique()
        .check(sql`imsi ~ '^[0-9]{15}$'`),
    )
    .addColumn('iccid', 'text', (c) => c.notNull().unique().references('sim_card.iccid'))
    // The default MSISDN: one of the subscriber's rows in subscriber_msisdn.
    .addColumn('msisdn', 'text')
    .addColumn('device_type', 'text')
    .addColumn('device', 'text')
    .addColumn('imei', 'text', (c) => c.check(sql`imei ~ '^[0-9]{14,16}$'`))
    .addColumn('country', 'char(2)')
    .addColumn('network', 'text')
    .addColumn('last_location_at', 'timestamptz')
    .addColumn('balance', 'numeric(14, 2)', (c) => c.notNull().defaultTo(0))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('account.account_id'))
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('reseller.id'))
    .addColumn('group_name', 'text')
    .addColumn('apn', 'text')
    .addColumn('daily_limit_bytes', 'bigint', (c) => c.check(sql`daily_limit_bytes > 0`))
    .addColumn('qos_throttling', 'text')
    .addColumn('usage_today_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('pricing_plan_id', 'integer')
    .addColumn('roaming_profile_id', 'integer')
    .addColumn('migration_status', 'text', (c) => c.check(sql`migration_status in ('pending', 'success', 'error')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index subscriber_reseller_idx on subscriber (reseller_id, subscriber_id)`.execute(db);
  await sql`create index subscriber_account_idx on subscriber (account_id, subscriber_id)`.execute(db);
  await sql`create index subscriber_name_trgm_idx on subscriber using gin (name gin_trgm_ops)`.execute(db);
  await sql`create index subscriber_imsi_trgm_idx on subscriber using gin (imsi gin_trgm_ops)`.execute(db);
  await sql`create index subscriber_iccid_trgm_idx on subscriber using gin (iccid gin_trgm_ops)`.execute(db);

  await db.schema
    .createTable('subscriber_msisdn')
    .addColumn('msisdn', 'text', (c) => c.primaryKey().check(sql`msisdn ~ '^[0-9]{8,15}$'`))
    .addColumn('subscriber_id', 'integer', (c) => c.notNull().references('subscriber.subscriber_id').onDelete('cascade'))
    .execute();
  await sql`create index subscriber_msisdn_subscriber_idx on subscriber_msisdn (subscriber_id)`.execute(db);

  // The extra IMSIs of a multi-IMSI SIM, each lent by a sponsor network.
  await db.schema
    .createTable('sponsor_imsi')
    .addColumn('imsi', 'text', (c) => c.primaryKey().check(sql`imsi ~ '^[0-9]{15}$'`))
    .addColumn('subscriber_id', 'integer', (c) => c.notNull().references('subscriber.subscriber_id').onDelete('cascade'))
    .addColumn('sponsor_id', 'integer')
    .addColumn('sponsor_name', 'text')
    .addColumn('pending', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`create index sponsor_imsi_subscriber_idx on sponsor_imsi (subscriber_id)`.execute(db);

  await db.schema
    .createTable('subscriber_audit')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('subscriber_id', 'integer', (c) => c.notNull().references('subscriber.subscriber_id').onDelete('cascade'))
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('user_id', 'integer')
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('before', 'jsonb')
    .addColumn('after', 'jsonb')
    .execute();
  await sql`create index subscriber_audit_subscriber_idx on subscriber_audit (subscriber_id, at desc)`.execute(db);
}

export async function down(db: Kysely<any>) {
  for (const t of ['subscriber_audit', 'sponsor_imsi', 'subscriber_msisdn', 'subscriber', 'sim_card']) await db.schema.dropTable(t).execute();
  await sql`drop function iccid_valid(text)`.execute(db);
}
