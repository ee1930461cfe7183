/**
 * Inventory at scale, on PostgreSQL (TEST_DATABASE_URL or DATABASE_URL): a scratch database with the demo
 * resellers and BENCH_INVENTORY_SUBSCRIBERS (default 100,000) subscribers already there, then the administrator adds
 * a batch of BENCH_INVENTORY_RANGE (default 100,000) SIM cards to a reseller's inventory and the reseller assigns the
 * whole range to an account through the API, in one transaction. Prints both times and checks the counts after:
 * the range's allocated and available cards, the account's subscribers and their audit entries, exactly.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:inventory
 */
import { cpus, loadavg } from 'node:os';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '@server/app';
import { ensureAdmin, seedDemo } from '@server/db/seed';
import { copySubscribers } from './lib/copySubscribers';
import { freshDatabase } from '../test/server/helpers';

const SUBSCRIBERS = Number(process.env.BENCH_INVENTORY_SUBSCRIBERS ?? 100_000);
const RANGE = Number(process.env.BENCH_INVENTORY_RANGE ?? 100_000);
const PASSWORD = 'Bench@2026pass';
const TARGET_MS = 10_000;
const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

try {
  const probe = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 5000 });
  await probe.connect();
  await probe.end();
} catch (e) {
  console.error(`bench:inventory needs PostgreSQL; none at ${pgUrl.replace(/\/\/[^@]*@/, '//…@')}: ${(e as Error).message}`);
  process.exit(1);
}
process.env.TEST_DATABASE_URL = pgUrl;

const database = await freshDatabase('postgres');
const db = database.db;
let failed = false;
const check = (what: string, ok: boolean) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failed = true;
};
try {
  await ensureAdmin(db, PASSWORD);
  const users = await seedDemo(db, { subscribers: 0, networkEvents: false });
  await copySubscribers(db, SUBSCRIBERS, database.url ?? pgUrl);
  await sql`analyze`.execute(db);
  const app = await buildApp({ database, jwtSecret: 'bench-inventory' });
  const login = async (userName: string, password: string) => {
    const res = await app.inject({ method: 'POST', url: '/portal/auth', payload: { userName, password } });
    return { authorization: `Bearer ${res.json().jwt as string}` };
  };
  const admin = await login('admin', PASSWORD);
  const northwind = await login('northwind', users.find((u) => u.username === 'northwind')!.password);
  const { id: resellerId } = await db.selectFrom('reseller').select('id').where('name', '=', 'Northwind Mobile').executeTakeFirstOrThrow();
  const { accountId } = await db
    .selectFrom('account')
    .select('accountId')
    .where('resellerId', '=', resellerId)
    .where('inventoryAccount', '=', false)
    .orderBy('accountId')
    .executeTakeFirstOrThrow();
  const countOf = async () =>
    Number(
      (
        await db
          .selectFrom('subscriber')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('accountId', '=', accountId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const before = await countOf();
  console.log(`PostgreSQL, ${SUBSCRIBERS.toLocaleString('en')} subscribers already there; a range of ${RANGE.toLocaleString('en')} SIM cards`);
  console.log(`machine: ${cpus().length} cores, load average ${loadavg()[0].toFixed(1)} (other work on the machine slows every figure)`);

  let t = performance.now();
  const added = await app.inject({
    method: 'POST',
    url: '/portal/inventory/batches/sim-cards',
    headers: admin,
    payload: { resellerId, name: 'Bench batch', quantity: RANGE, simType: 'physical', cost: 2.5, serviceProviderName: 'Bench provider' },
  });
  const addMs = performance.now() - t;
  check(`batch added (${added.statusCode})`, added.statusCode === 201);
  const batch = added.json();
  console.log(`add a batch of ${RANGE.toLocaleString('en')} cards: ${(addMs / 1000).toFixed(2)} s`);

  t = performance.now();
  const assigned = await app.inject({
    method: 'POST',
    url: '/portal/inventory/assign',
    headers: northwind,
    payload: { accountId, iccidStart: batch.iccidStart, iccidEnd: batch.iccidEnd, quantity: RANGE },
  });
  const assignMs = performance.now() - t;
  console.log(`assign the range to an account (one transaction): ${(assignMs / 1000).toFixed(2)} s (target under ${TARGET_MS / 1000} s)`);
  check(`assigned (${assigned.statusCode}) ${assigned.json().assigned}`, assigned.statusCode === 200 && assigned.json().assigned === RANGE);
  check('under the target', assignMs < TARGET_MS);

  const ranges = await app.inject({ method: 'GET', url: '/portal/inventory/ranges', headers: northwind });
  const range = (ranges.json().ranges as { batchId: number; allocated: number; available: number; total: number }[]).find((r) => r.batchId === batch.batchId);
  check(
    `range counts: allocated ${range?.allocated}, available ${range?.available}, total ${range?.total}`,
    range?.allocated === RANGE && range.available === 0 && range.total === RANGE,
  );
  const after = await countOf();
  check(`account's subscribers: ${before} + ${RANGE} = ${after}`, after === before + RANGE);
  const [audit] = (await sql<{ n: number }>`select count(*)::int as n from subscriber_audit where action = 'assign-from-inventory'`.execute(db)).rows;
  check(`audit entries: ${audit.n}`, audit.n === RANGE);
  const [imsis] = (
    await sql<{
      n: number;
    }>`select count(distinct s.imsi)::int as n from subscriber s join sim_card c on c.iccid = s.iccid where c.batch_id = ${batch.batchId}`.execute(db)
  ).rows;
  check(`distinct IMSIs: ${imsis.n}`, imsis.n === RANGE);
  if (process.env.BENCH_KEEP) {
    // A second batch left in inventory, and the database kept, to look at the assignment's plan by hand.
    await app.inject({
      method: 'POST',
      url: '/portal/inventory/batches/sim-cards',
      headers: admin,
      payload: { resellerId, name: 'Kept batch', quantity: RANGE, simType: 'physical' },
    });
    console.log(`kept database: ${database.url}`);
  }
  await app.close();
} finally {
  if (!process.env.BENCH_KEEP) await database.close();
}
process.exit(failed ? 1 : 0);
