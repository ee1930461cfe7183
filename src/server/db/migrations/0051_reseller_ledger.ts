import { sql, type Kysely } from 'kysely';

/**
 * The reseller ledger: one row per movement of money (opening balance, package purchase, later payments),
 * with the balance after it. Amounts are exact (numeric); a reseller's balance is its latest row's.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('ledger_entry')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('reseller.id'))
    .addColumn('amount', sql`numeric(14, 2)`, (c) => c.notNull())
    .addColumn('currency', 'char(3)', (c) => c.notNull().defaultTo('USD'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('balance_after', sql`numeric(14, 2)`, (c) => c.notNull())
    .execute();
  await sql`create index ledger_entry_reseller_idx on ledger_entry (reseller_id, id desc)`.execute(db);
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('ledger_entry').execute();
}
