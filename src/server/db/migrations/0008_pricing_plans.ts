import { sql, type Kysely } from 'kysely';

/** Rates are exact: numeric columns with six decimals, never floating point. */
const RATE = 'numeric(12, 6)';

export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('pricing_plan')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('reseller.id'))
    .addColumn('default_outgoing_voice', sql.raw(RATE))
    .addColumn('default_incoming_voice', sql.raw(RATE))
    .addColumn('default_mo_sms', sql.raw(RATE))
    .addColumn('default_mt_sms', sql.raw(RATE))
    .addColumn('default_data', sql.raw(RATE))
    .addColumn('currency', 'char(3)', (c) => c.notNull().defaultTo('USD'))
    .addColumn('usd_convert_rate', sql.raw(RATE))
    .addColumn('use_default_prices', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index pricing_plan_name_uq on pricing_plan (reseller_id, lower(name))`.execute(db);

  await db.schema
    .createTable('roaming_rule')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('plan_id', 'integer', (c) => c.notNull().references('pricing_plan.id').onDelete('cascade'))
    .addColumn('country', 'char(2)', (c) => c.notNull())
    .addColumn('mcc', 'text', (c) => c.notNull())
    .addColumn('mnc', 'text', (c) => c.notNull())
    .addColumn('plmn', 'text', (c) => c.notNull())
    .addColumn('network', 'text')
    .addColumn('currency', 'char(3)', (c) => c.notNull().defaultTo('USD'))
    .addColumn('data_rate', sql.raw(RATE))
    .addColumn('mo_call_rate', sql.raw(RATE))
    .addColumn('mt_call_rate', sql.raw(RATE))
    .addColumn('mo_sms_rate', sql.raw(RATE))
    .addColumn('mt_sms_rate', sql.raw(RATE))
    .addColumn('daily_cap', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('daily_cap_limit', sql.raw(RATE))
    .addColumn('daily_cap_time_zone', 'text')
    .addColumn('discounted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('display_sponsor_name', 'text')
    .addColumn('sponsor_id', 'integer')
    .addColumn('sponsor_name', 'text')
    .addColumn('start_date', 'timestamptz', (c) => c.notNull())
    .addColumn('end_date', 'timestamptz')
    .addColumn('hidden', 'boolean', (c) => c.notNull().defaultTo(false))
    .addCheckConstraint('roaming_rule_dates_ck', sql`end_date is null or end_date > start_date`)
    .execute();
  await sql`create index roaming_rule_plan_idx on roaming_rule (plan_id, id)`.execute(db);

  await db.schema
    .createTable('international_plan')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('reseller.id'))
    .addColumn('default_price', sql.raw(RATE))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index international_plan_name_uq on international_plan (reseller_id, lower(name))`.execute(db);
}

export async function down(db: Kysely<any>) {
  for (const t of ['international_plan', 'roaming_rule', 'pricing_plan']) await db.schema.dropTable(t).execute();
}
