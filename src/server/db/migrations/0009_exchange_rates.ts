import { sql, type Kysely } from 'kysely';

/**
 * Exchange rates against the US dollar, one row per currency and day. Seeded with reference rates of
 * 1 July 2024 so the portal shows a dated rate without ever needing the network; a configured source adds
 * newer days.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('exchange_rate')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('as_of', 'date', (c) => c.notNull())
    .addColumn('rate', 'double precision', (c) => c.notNull().check(sql`rate > 0`))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('fetched_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('exchange_rate_pk', ['currency', 'as_of'])
    .execute();
  const reference = { EUR: 0.9334, RUB: 87.79, ILS: 3.7645, JPY: 161.48, BTC: 0.0000159 };
  await db
    .insertInto('exchange_rate')
    .values(Object.entries(reference).map(([currency, rate]) => ({ currency, as_of: '2024-07-01', rate, source: 'reference' })))
    .execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('exchange_rate').execute();
}
