import { sql, type Kysely } from 'kysely';

/**
 * What subscriber operations need: the record of each operation (pending until the core network answers),
 * charges and credits on a subscriber, the usage log (credit-control requests) and the TAC table that names
 * a device from its IMEI.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('subscriber_operation')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('subscriber_id', 'integer', (c) => c.notNull().references('subscriber.subscriber_id').onDelete('cascade'))
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'success', 'failed')`))
    .addColumn('request', 'jsonb')
    .addColumn('message_id', 'text')
    .addColumn('detail', 'text')
    .addColumn('network_request_id', 'text')
    .addColumn('user_id', 'integer')
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await sql`create index subscriber_operation_subscriber_idx on subscriber_operation (subscriber_id, id desc)`.execute(db);
  // One network operation at a time per subscriber: a second one waits until the first is answered.
  await sql`create unique index subscriber_operation_pending_idx on subscriber_operation (subscriber_id) where status = 'pending'`.execute(db);

  await db.schema
    .createTable('subscriber_charge')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('subscriber_id', 'integer', (c) => c.notNull().references('subscriber.subscriber_id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('wallet', 'account', 'credit')`))
    .addColumn('amount', 'numeric(14, 2)', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('description', 'text')
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index subscriber_charge_subscriber_idx on subscriber_charge (subscriber_id, id desc)`.execute(db);

  // Credit-control requests (Diameter Gy CCR) of a subscriber's data sessions.
  await db.schema
    .createTable('usage_record')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('subscriber_id', 'integer', (c) => c.notNull().references('subscriber.subscriber_id').onDelete('cascade'))
    .addColumn('imsi', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .addColumn('request_type', 'text', (c) => c.notNull().check(sql`request_type in ('INITIAL', 'UPDATE', 'TERMINATION', 'EVENT')`))
    .addColumn('plmn', 'text')
    .addColumn('apn', 'text')
    .addColumn('bytes_up', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes_down', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('result_code', 'integer', (c) => c.notNull().defaultTo(2001))
    .execute();
  await sql`create index usage_record_subscriber_idx on usage_record (subscriber_id, at desc, id desc)`.execute(db);

  // Type Allocation Codes: the first 8 digits of an IMEI name the device's make and model.
  await db.schema
    .createTable('equipment_tac')
    .addColumn('tac', 'text', (c) => c.primaryKey().check(sql`tac ~ '^[0-9]{8}$'`))
    .addColumn('make', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('device_type', 'text')
    .execute();
  await db
    .insertInto('equipment_tac')
    .values([
      { tac: '86423904', make: 'Teltonika', model: 'RUT240', device_type: 'Router' },
      { tac: '86359803', make: 'Queclink', model: 'GV300', device_type: 'Tracker' },
      { tac: '35332508', make: 'Landis+Gyr', model: 'E360', device_type: 'Meter' },
      { tac: '35226611', make: 'Apple', model: 'iPhone 14', device_type: 'Smartphone' },
      { tac: '86762504', make: 'Quectel', model: 'EG25-G', device_type: 'Module' },
      { tac: '35384011', make: 'Samsung', model: 'Galaxy Watch5', device_type: 'Wearable' },
    ])
    .execute();
}

export async function down(db: Kysely<any>) {
  for (const t of ['equipment_tac', 'usage_record', 'subscriber_charge', 'subscriber_operation']) await db.schema.dropTable(t).execute();
}
