import { sql, type Kysely } from 'kysely';

/**
 * Prepaid packages: a template's allowances given to one subscriber, copied at the time of sale so a later
 * change of the template leaves sold packages as they were. The reseller and account are the subscriber's,
 * for tenancy; a purchase also names its ledger row.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('prepaid_package')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('template_id', 'integer', (c) => c.notNull().references('prepaid_template.id'))
    .addColumn('subscriber_id', 'integer', (c) => c.notNull().references('subscriber.subscriber_id').onDelete('cascade'))
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('reseller.id'))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('account.account_id'))
    .addColumn('location_zone_id', 'integer', (c) => c.notNull().references('location_zone.id').onDelete('restrict'))
    .addColumn('destination_zone_id', 'integer', (c) => c.references('destination_zone.id').onDelete('restrict'))
    .addColumn('period_days', 'integer', (c) => c.notNull())
    .addColumn('activation_date', 'timestamptz')
    .addColumn('expiration_date', 'timestamptz')
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('moc_minutes', 'integer')
    .addColumn('mtc_minutes', 'integer')
    .addColumn('sms_out', 'integer')
    .addColumn('sms_out_used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sms_in', 'integer')
    .addColumn('sms_in_used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bitrate', 'integer')
    .addColumn('data_mb', 'integer')
    .addColumn('unlimited_data', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('data_usage_mb', sql`numeric(14, 3)`, (c) => c.notNull().defaultTo(0))
    .addColumn('data_slices', 'integer')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active', 'pending', 'expired')`))
    .addColumn('price', sql`numeric(12, 2)`, (c) => c.notNull())
    .addColumn('sale_kind', 'text', (c) => c.notNull().check(sql`sale_kind in ('assign', 'purchase')`))
    .addColumn('purchase_date', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('payment_date', 'timestamptz')
    .addColumn('activate_upon_first_use', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('ledger_entry_id', 'bigint', (c) => c.references('ledger_entry.id'))
    .addColumn('sold_by', 'text', (c) => c.notNull())
    .execute();
  await sql`create index prepaid_package_subscriber_idx on prepaid_package (subscriber_id, id)`.execute(db);
  await sql`create index prepaid_package_reseller_idx on prepaid_package (reseller_id, id)`.execute(db);
  await sql`create index prepaid_package_due_idx on prepaid_package (expiration_date) where status = 'active'`.execute(db);
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('prepaid_package').execute();
}
