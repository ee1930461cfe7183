import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAdmin, seedDemo } from '@server/db/seed';
import { seedSubscribers, subscriberSeedContext } from '@server/db/seedSubscribers';
import type { Database } from '@server/db/types';
import { copySubscribers } from '../../scripts/lib/copySubscribers';
import { ADMIN_PASSWORD, freshDatabase } from './helpers';

type Database_ = Awaited<ReturnType<typeof freshDatabase>>;
type Row = Record<string, unknown>;

const SUBSCRIBERS = 3000;
const TABLES = ['sim_card', 'subscriber', 'subscriber_msisdn', 'sponsor_imsi'];

/**
 * The subscribers' rows of a table by key (the SIM cards of subscribers only, not those of the inventory), without the
 * columns that tell the time of the run (the seed's clock, `now()`).
 */
async function rows(db: Kysely<Database>, table: string, key: string): Promise<Row[]> {
  const { rows } = await sql<Row>`select * from ${sql.table(table)} t
    where ${sql.raw(table === 'sim_card' ? 'iccid in (select iccid from subscriber)' : 'true')} order by ${sql.ref(key)}`.execute(db);
  return rows.map(({ createdAt, statusDate, lastLocationAt, ...rest }) => rest);
}

/** What the four tables are made of: triggers (and whether they fire), constraints, indexes. */
async function schemaOf(db: Kysely<Database>) {
  const { rows } = await sql<{ what: string }>`
    select format('trigger %s %s %s', tgrelid::regclass, tgname, tgenabled) as what from pg_trigger
     where not tgisinternal and tgrelid = any(${TABLES}::regclass[])
    union all
    select format('constraint %s %s %s %s', conrelid::regclass, conname, convalidated, pg_get_constraintdef(oid)) from pg_constraint
     where conrelid = any(${TABLES}::regclass[])
    union all
    select format('index %s', pg_get_indexdef(indexrelid)) from pg_index where indrelid = any(${TABLES}::regclass[])
    order by 1`.execute(db);
  return rows.map((r) => r.what);
}

/** Rows per table. */
const sizes = async (db: Kysely<Database>) =>
  Promise.all(TABLES.map(async (table) => (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db)).rows[0].n));

const standing = async (db: Kysely<Database>) =>
  (await sql<Row>`select reseller_id, subscriber_count from reseller_standing order by reseller_id`.execute(db)).rows;

describe.skipIf(!process.env.TEST_DATABASE_URL)('the subscriber loader on PostgreSQL', () => {
  // The same demo subscribers, written by the loader into one database and by the demo seeder's inserts into another.
  let loaded: Database_;
  let inserted: Database_;
  let schemaBefore: string[];

  beforeAll(async () => {
    [loaded, inserted] = await Promise.all([freshDatabase('postgres'), freshDatabase('postgres')]);
    for (const database of [loaded, inserted]) {
      await ensureAdmin(database.db, ADMIN_PASSWORD);
      await seedDemo(database.db, { subscribers: 0, networkEvents: false });
    }
    schemaBefore = await schemaOf(loaded.db);
  }, 180_000);
  afterAll(async () => {
    await loaded?.close();
    await inserted?.close();
  });

  it('refuses the whole load when a subscriber refers to an account that does not exist, as the reference trigger does', async () => {
    const counts = await standing(loaded.db);
    const before = await sizes(loaded.db);
    const context = await subscriberSeedContext(loaded.db);
    context.accounts.push({ accountId: 999_999, resellerId: context.accounts[0].resellerId });
    await expect(copySubscribers(loaded.db, 100, loaded.url!, { context })).rejects.toMatchObject({ code: '23503', constraint: 'subscriber_account_id_fkey' });
    expect(await sizes(loaded.db)).toEqual(before);
    expect(await standing(loaded.db)).toEqual(counts);
    expect(await schemaOf(loaded.db)).toEqual(schemaBefore);
  });

  describe(`${SUBSCRIBERS} subscribers loaded`, () => {
    beforeAll(async () => {
      expect(await copySubscribers(loaded.db, SUBSCRIBERS, loaded.url!)).toBeGreaterThan(3 * SUBSCRIBERS);
      await seedSubscribers(inserted.db, SUBSCRIBERS);
    }, 180_000);

    it('keeps the resellers’ subscriber counts as inserting the rows does', async () => {
      const counts = await standing(loaded.db);
      expect(counts).toEqual(await standing(inserted.db));
      // And as the rows themselves give them.
      const { rows: rebuilt } = await sql<Row>`select reseller_id, count(*)::int as n from subscriber group by reseller_id`.execute(loaded.db);
      expect(rebuilt.reduce((sum, r) => sum + Number(r.n), 0)).toBe(SUBSCRIBERS);
      for (const r of rebuilt) expect(counts.find((c) => c.resellerId === r.resellerId)?.subscriberCount).toBe(r.n);
    });

    it('writes the same rows, numbered from the same sequence', async () => {
      for (const [table, key] of [
        ['sim_card', 'iccid'],
        ['subscriber', 'subscriber_id'],
        ['subscriber_msisdn', 'msisdn'],
        ['sponsor_imsi', 'imsi'],
      ])
        expect(await rows(loaded.db, table, key), table).toEqual(await rows(inserted.db, table, key));
      const next = (db: Kysely<Database>) =>
        sql<{ id: number }>`select nextval('subscriber_subscriber_id_seq')::int as id`.execute(db).then((r) => r.rows[0].id);
      expect(await next(loaded.db)).toBe(SUBSCRIBERS + 1);
      expect(await next(inserted.db)).toBe(SUBSCRIBERS + 1);
    });

    it('leaves the triggers enabled and the keys, constraints and indexes as they were', async () => {
      expect(await schemaOf(loaded.db)).toEqual(schemaBefore);
      expect(schemaBefore).toEqual(await schemaOf(inserted.db));
      expect(schemaBefore).toContain('trigger subscriber subscriber_count_added O');
      expect(schemaBefore).toContain('trigger subscriber subscriber_refers_added O');
    });
  });
});
