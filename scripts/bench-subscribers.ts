/**
 * Subscribers at scale. On PostgreSQL: loads BENCH_SUBSCRIBERS (default 1,000,000) demo subscribers with their SIM
 * cards, MSISDNs and sponsor IMSIs through COPY and prints the loader's rate; then measures the subscriber list under
 * 32 concurrent clients with autocannon (default sort, a deep page, ICCID, IMSI prefix, multi-field and account-name
 * searches) and a full CSV export (time, rows, growth of the process's memory). On PGlite the same list and export
 * figures at BENCH_PGLITE_SUBSCRIBERS (default 20,000), loaded by the demo seeder.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:subscribers
 *   BENCH_SUBSCRIBERS=200000 BENCH_SECONDS=5 npm run bench:subscribers
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import autocannon from 'autocannon';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { buildApp } from '@server/app';
import type { Db } from '@server/db';
import { ensureAdmin, seedDemo } from '@server/db/seed';
import { seedSubscribers, subscriberSeedContext, subscriberSeedRows, type SubscriberSeedRow } from '@server/db/seedSubscribers';
import { freshDatabase } from '../test/server/helpers';

const PG_ROWS = Number(process.env.BENCH_SUBSCRIBERS ?? 1_000_000);
const PGLITE_ROWS = Number(process.env.BENCH_PGLITE_SUBSCRIBERS ?? 20_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
const CHUNK = 50_000;
const PASSWORD = 'Bench@2026pass';
const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A value in COPY's text format. */
function copyText(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  return String(value).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

async function copyInto(client: pg.PoolClient | pg.Client, table: string, rows: Record<string, unknown>[]) {
  if (!rows.length) return;
  const keys = Object.keys(rows[0]);
  const lines = function* () {
    for (const row of rows) yield `${keys.map((k) => copyText(row[k])).join('\t')}\n`;
  };
  await pipeline(Readable.from(lines()), client.query(copyFrom(`copy ${table} (${keys.map(snake).join(', ')}) from stdin`)));
}

/** Loads `count` demo subscribers through COPY, in transactions of CHUNK subscribers; returns rows written. */
async function copySubscribers(db: Kysely<any>, count: number): Promise<number> {
  const [{ schema }] = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows;
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  await client.query(`set search_path = ${schema}, public`);
  const ctx = await subscriberSeedContext(db);
  const generated = subscriberSeedRows(ctx, count);
  let written = 0;
  let subscriberId = 0;
  for (let start = 0; start < count; start += CHUNK) {
    const rows: SubscriberSeedRow[] = [];
    while (rows.length < CHUNK) {
      const next = generated.next();
      if (next.done) break;
      rows.push(next.value);
    }
    const ids = rows.map(() => ++subscriberId);
    await client.query('begin');
    await copyInto(client, 'sim_card', rows.map((r) => r.sim));
    await copyInto(client, 'subscriber', rows.map((r, i) => ({ subscriberId: ids[i], ...r.subscriber })));
    const msisdns = rows.flatMap((r, i) => r.msisdns.map((msisdn) => ({ msisdn, subscriberId: ids[i] })));
    const sponsors = rows.flatMap((r, i) => r.sponsorImsis.map((s) => ({ ...s, subscriberId: ids[i] })));
    await copyInto(client, 'subscriber_msisdn', msisdns);
    await copyInto(client, 'sponsor_imsi', sponsors);
    await client.query('commit');
    written += rows.length * 2 + msisdns.length + sponsors.length;
  }
  await client.query(`select setval(pg_get_serial_sequence('subscriber', 'subscriber_id'), ${subscriberId})`);
  await client.end();
  return written;
}

/** The peak resident memory of this process while `work` runs, sampled every 20 ms, above what it was before. */
async function peakGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growthMb: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 20);
  try {
    const result = await work();
    return { result, growthMb: Math.round((peak - before) / 1024 / 1024) };
  } finally {
    clearInterval(timer);
  }
}

async function measure(engine: 'pglite' | 'postgres', database: Db, count: number) {
  // Entity tables are the engine's, not in the typed Database.
  const db = database.db as unknown as Kysely<any>;
  const app = await buildApp({ database, jwtSecret: 'bench' });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const jwt = (await app.inject({ method: 'POST', url: '/portal/auth', payload: { userName: 'admin', password: PASSWORD } })).json().jwt;
  const headers = { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' };

  // Search keys taken from rows that exist, deep in the table.
  const deep = Math.floor(count * 0.77);
  const probe = await db.selectFrom('subscriber').innerJoin('account', 'account.accountId', 'subscriber.accountId')
    .select(['subscriber.iccid', 'subscriber.imsi', 'subscriber.name', 'account.name as accountName'])
    .where('subscriber.subscriberId', '=', deep).executeTakeFirstOrThrow();
  const page = (body: object) => ({ ...body, page: { page: 0, size: 50 } });
  const scenarios = [
    { name: 'default sort', body: page({}) },
    { name: `page ${Math.floor(count / 2 / 50)} (deep)`, body: { page: { page: Math.floor(count / 2 / 50), size: 50 } } },
    { name: 'ICCID search', body: page({ searchBy: 'iccid', searchKey: probe.iccid }) },
    { name: 'IMSI prefix search', body: page({ searchBy: 'imsi', searchKey: String(probe.imsi).slice(0, 12) }) },
    { name: 'multi-field search', body: page({ searchBy: 'multi', searchKey: probe.name }) },
    { name: 'account name filter', body: page({ searchBy: 'accountName', searchKey: probe.accountName }) },
  ];

  const rows = [];
  for (const scenario of scenarios) {
    const run = await autocannon({ url: `${address}/portal/subscribers/paged`, method: 'POST', connections: CONNECTIONS, duration: SECONDS, headers, body: JSON.stringify(scenario.body) });
    rows.push({ engine, subscribers: count, scenario: scenario.name, 'req/s': Math.round(run.requests.average), 'p50 ms': run.latency.p50, 'p99 ms': run.latency.p99, errors: run.non2xx + run.errors });
  }

  const started = performance.now();
  const { result: exported, growthMb } = await peakGrowth(async () => {
    const res = await fetch(`${address}/portal/subscribers/list/download`, { method: 'POST', headers, body: '{}' });
    if (!res.ok || !res.body) throw new Error(`export failed: ${res.status}`);
    let lines = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) for (const byte of chunk) if (byte === 10) lines++;
    return lines - 1; // the header line
  });
  const exportSeconds = (performance.now() - started) / 1000;
  await app.close();
  return { rows, exportRow: { engine, subscribers: count, 'export rows': exported, 'export s': Number(exportSeconds.toFixed(1)), 'peak memory growth MB': growthMb } };
}

async function setUp(engine: 'pglite' | 'postgres') {
  if (engine === 'postgres') process.env.TEST_DATABASE_URL = pgUrl;
  const database = await freshDatabase(engine);
  await ensureAdmin(database.db, PASSWORD);
  await seedDemo(database.db, { subscribers: 0 });
  return database;
}

const lists = [];
const exports = [];

{
  const database = await setUp('pglite');
  const started = performance.now();
  await seedSubscribers(database.db, PGLITE_ROWS);
  console.log(`[pglite] ${PGLITE_ROWS.toLocaleString('en')} subscribers seeded by the demo seeder in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const { rows, exportRow } = await measure('pglite', database, PGLITE_ROWS);
  lists.push(...rows);
  exports.push(exportRow);
  await database.close();
}

if (pgUrl) {
  const database = await setUp('postgres');
  const started = performance.now();
  const written = await copySubscribers(database.db, PG_ROWS);
  const loadSeconds = (performance.now() - started) / 1000;
  for (const table of ['sim_card', 'subscriber', 'subscriber_msisdn', 'sponsor_imsi']) await sql`analyze ${sql.id(table)}`.execute(database.db);
  console.log(`[postgres] loaded ${PG_ROWS.toLocaleString('en')} subscribers (${written.toLocaleString('en')} rows with SIM cards, MSISDNs and sponsor IMSIs) through COPY in ${loadSeconds.toFixed(1)} s: ${Math.round(written / loadSeconds).toLocaleString('en')} rows/s, ${Math.round(PG_ROWS / loadSeconds).toLocaleString('en')} subscribers/s`);
  const { rows, exportRow } = await measure('postgres', database, PG_ROWS);
  lists.push(...rows);
  exports.push(exportRow);
  await database.close();
} else {
  console.log('PostgreSQL skipped: set TEST_DATABASE_URL or DATABASE_URL to include it.');
}

console.log(`\nPOST /portal/subscribers/paged as the administrator, ${CONNECTIONS} connections, ${SECONDS} s per scenario`);
console.table(lists);
console.log('\nPOST /portal/subscribers/list/download, every subscriber, streamed');
console.table(exports);
