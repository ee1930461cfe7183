import { sql, type Kysely } from 'kysely';

/**
 * SIM orders and what hangs off them:
 * - `credit_hold`: an amount of a reseller's available credit set aside (an order's total from submission until it is
 *   delivered, denied or cancelled); the ledger counts held amounts against the credit limit of every purchase.
 * - `sim_order`: the order, its price breakdown (in its currency) and its state (see domains/orders/machine.ts).
 * - `sim_order_event`: every transition and action, who did it, when and why (the order's timeline).
 * - `sim_order_slot`: the IMSI range allocated per slot; `sim_resource_range`: the IMSI, ICCID and MSISDN ranges
 *   allocation takes from.
 * - `sim_order_setting`: per reseller, whether financial approval needs a second user (four eyes).
 * - `sim_order_artwork`: an uploaded artwork file; `sim_order_keys`: the SIMs' secret keys, encrypted (AES-GCM);
 *   `sim_order_key_download`: who downloaded them and when.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('credit_hold')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('reseller.id'))
    .addColumn('amount', 'numeric(14, 2)', (c) => c.notNull().check(sql`amount >= 0`))
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c
        .notNull()
        .defaultTo('held')
        .check(sql`state in ('held', 'released', 'charged')`),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('closed_at', 'timestamptz')
    .execute();
  await sql`create index credit_hold_open_idx on credit_hold (reseller_id) where state = 'held'`.execute(db);

  await db.schema
    .createTable('sim_order_artwork')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('reseller.id').onDelete('cascade'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('content', 'bytea', (c) => c.notNull())
    .addColumn('uploaded_by', 'integer', (c) => c.references('app_user.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('sim_order')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'text', (c) =>
      c
        .notNull()
        .unique()
        .defaultTo(sql`gen_random_uuid()::text`),
    )
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('reseller.id'))
    .addColumn('created_by', 'integer', (c) => c.references('app_user.id').onDelete('set null'))
    .addColumn('batch_name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft'))
    .addColumn('sim_type', 'text', (c) => c.notNull().check(sql`sim_type in ('physical', 'esim')`))
    .addColumn('sim_size', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('slots', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sponsor_ids', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('provider_id', 'integer', (c) => c.notNull().references('sim_provider.id'))
    .addColumn('provider_profile_id', 'integer', (c) => c.references('provider_profile.id'))
    .addColumn('service_provider_name', 'text')
    .addColumn('roaming_profile_id', 'integer', (c) => c.references('roaming_profile.id').onDelete('set null'))
    .addColumn('custom_imsi_from', 'text')
    .addColumn('custom_imsi_to', 'text')
    .addColumn('ef_config', 'text')
    .addColumn('provisioned_on_the_fly', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('delivery_email', 'text')
    .addColumn('delivery_address_id', 'integer', (c) => c.references('reseller_address.id').onDelete('set null'))
    .addColumn('artwork_id', 'integer', (c) => c.references('sim_order_artwork.id').onDelete('set null'))
    .addColumn('comment', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('unit_price', 'numeric(12, 4)', (c) => c.notNull())
    .addColumn('total_unit_price', 'numeric(14, 2)', (c) => c.notNull())
    .addColumn('additional_slot_charge', 'numeric(14, 2)', (c) => c.notNull())
    .addColumn('artwork_charge', 'numeric(14, 2)', (c) => c.notNull())
    .addColumn('fee_below_moq', 'numeric(14, 2)', (c) => c.notNull())
    .addColumn('moq', 'integer', (c) => c.notNull())
    .addColumn('discount_description', 'text')
    .addColumn('discount_rate', 'numeric(7, 4)', (c) => c.notNull().defaultTo(0))
    .addColumn('discount_value', 'numeric(14, 2)', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'numeric(14, 2)', (c) => c.notNull())
    .addColumn('hold_id', 'integer', (c) => c.references('credit_hold.id'))
    .addColumn('financial_review', 'text', (c) => c.check(sql`financial_review in ('approved', 'denied')`))
    .addColumn('technical_review', 'text', (c) => c.check(sql`technical_review in ('approved', 'denied')`))
    .addColumn('resource_allocation', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('msisdn_from', 'text')
    .addColumn('msisdn_to', 'text')
    .addColumn('imsi_from', 'text')
    .addColumn('imsi_to', 'text')
    .addColumn('iccid_from', 'text')
    .addColumn('iccid_to', 'text')
    .addColumn('vendor', 'text')
    .addColumn('vendor_reference', 'text')
    .addColumn('order_date', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await sql`alter table sim_order add constraint sim_order_status_check check (status in ('draft', 'submitted', 'financially_approved',
    'financially_denied', 'technically_approved', 'technically_denied', 'resources_allocated', 'placed', 'delivered', 'cancelled'))`.execute(db);
  await sql`create index sim_order_reseller_idx on sim_order (reseller_id, id)`.execute(db);
  await sql`create trigger sim_order_version before update on sim_order for each row execute function raise_row_version()`.execute(db);

  await db.schema
    .createTable('sim_order_event')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('sim_order.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text')
    .addColumn('user_id', 'integer', (c) => c.references('app_user.id').onDelete('set null'))
    .addColumn('username', 'text')
    .addColumn('reason', 'text')
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index sim_order_event_order_idx on sim_order_event (order_id, id)`.execute(db);

  await db.schema
    .createTable('sim_resource_range')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('imsi', 'iccid', 'msisdn')`))
    .addColumn('sponsor_id', 'integer', (c) => c.references('sponsor.id'))
    .addColumn('provider_id', 'integer', (c) => c.references('sim_provider.id'))
    .addColumn('first_value', 'bigint', (c) => c.notNull())
    .addColumn('last_value', 'bigint', (c) => c.notNull())
    .addColumn('next_value', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`alter table sim_resource_range add constraint sim_resource_range_bounds check (first_value <= next_value and next_value <= last_value + 1)`.execute(
    db,
  );

  await db.schema
    .createTable('sim_order_slot')
    .addColumn('order_id', 'integer', (c) => c.notNull().references('sim_order.id').onDelete('cascade'))
    .addColumn('slot', 'integer', (c) => c.notNull().check(sql`slot between 1 and 4`))
    .addColumn('sponsor_id', 'integer', (c) => c.notNull().references('sponsor.id'))
    .addColumn('imsi_from', 'text', (c) => c.notNull())
    .addColumn('imsi_to', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sim_order_slot_pk', ['order_id', 'slot'])
    .execute();

  await db.schema
    .createTable('sim_order_setting')
    .addColumn('reseller_id', 'integer', (c) => c.primaryKey().references('reseller.id').onDelete('cascade'))
    .addColumn('four_eyes', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();

  await db.schema
    .createTable('sim_order_keys')
    .addColumn('order_id', 'integer', (c) => c.primaryKey().references('sim_order.id').onDelete('cascade'))
    .addColumn('iv', 'bytea', (c) => c.notNull())
    .addColumn('tag', 'bytea', (c) => c.notNull())
    .addColumn('ciphertext', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('sim_order_key_download')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('sim_order.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('app_user.id').onDelete('set null'))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>) {
  for (const t of [
    'sim_order_key_download',
    'sim_order_keys',
    'sim_order_setting',
    'sim_order_slot',
    'sim_resource_range',
    'sim_order_event',
    'sim_order',
    'sim_order_artwork',
    'credit_hold',
  ])
    await db.schema.dropTable(t).execute();
}
