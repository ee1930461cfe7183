/**
 * Overload benchmark: 200 signed-in clients send the grid's calls (the subscriber list, the account list and the
 * signed-in user) for 60 s, each client its next call as soon as the last is answered, against the portal running as
 * its own process (`src/server/main.ts`, as `npm start` runs it) over the demo data with 20,000 subscribers; on the
 * embedded PGlite and on PostgreSQL (TEST_DATABASE_URL or DATABASE_URL) side by side. Prints requests a second,
 * p50 / p99 / max latency, answers 503 (the database's queue full or its wait over), answers over 2 s, other errors
 * and requests unanswered after 10 s.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:load
 *   npm run bench:load -- --seconds=15 --clients=100      BENCH_SECONDS, BENCH_CLIENTS, BENCH_SUBSCRIBERS as well
 *
 * The clients share the demo users' tokens (the administrator, two reseller managers, a sub-reseller's manager and
 * an account user, one sign-in each), so every tenancy's lists are in the mix.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { openDatabase, type Db } from '@server/db';
import { ensureAdmin, seedDemo } from '@server/db/seed';
import { freshDatabase } from '../test/server/helpers';
import { apiToken, startPortal } from '../test/e2e/harness';

const flag = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const SECONDS = Number(flag('seconds') ?? process.env.BENCH_SECONDS ?? 60);
const CLIENTS = Number(flag('clients') ?? process.env.BENCH_CLIENTS ?? 200);
const SUBSCRIBERS = Number(flag('subscribers') ?? process.env.BENCH_SUBSCRIBERS ?? 20_000);
/** Seconds a request may go unanswered before the load generator gives up on it and counts a timeout. */
const TIMEOUT_SECONDS = 10;
const SLOW_MS = 2000;
const PASSWORD = 'Bench@2026pass';
const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;

/** The calls the subscriber grid makes, in turn on each connection. */
const CALLS = [
  { method: 'POST', path: '/portal/subscribers/paged', body: JSON.stringify({ page: { page: 0, size: 50 } }) },
  { method: 'POST', path: '/portal/accounts/paged', body: JSON.stringify({ page: { page: 0, size: 50 } }) },
  { method: 'GET', path: '/portal/user' },
] as const;

async function seeded(engine: 'pglite' | 'postgres', dataDir: string): Promise<{ database: Db & { url?: string }; users: string[]; password: string }> {
  if (engine === 'postgres') process.env.TEST_DATABASE_URL = pgUrl;
  const database = engine === 'pglite' ? await openDatabase({ dataDir }) : await freshDatabase(engine);
  const started = performance.now();
  await ensureAdmin(database.db, PASSWORD);
  const demo = await seedDemo(database.db, { subscribers: SUBSCRIBERS, networkEvents: false });
  console.log(`[${engine}] demo data with ${SUBSCRIBERS.toLocaleString('en')} subscribers seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { database, users: demo.map((u) => u.username), password: demo[0].password };
}

async function measure(engine: 'pglite' | 'postgres') {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-load-'));
  const { database, users, password } = await seeded(engine, dataDir);
  // PGlite has one owner: the server opens the folder once the seeder has closed it.
  if (engine === 'pglite') await database.close();
  const portal = await startPortal(
    {
      ADMIN_PASSWORD: PASSWORD,
      SEED_DEMO: '0',
      JWT_SECRET: 'bench',
      LOG_LEVEL: 'warn',
      // The server's own limits (the test harness raises them), unless set for the run.
      DB_QUEUE_LIMIT: process.env.DB_QUEUE_LIMIT ?? '',
      DB_QUEUE_WAIT_MS: process.env.DB_QUEUE_WAIT_MS ?? '',
      ...(engine === 'postgres' ? { DATABASE_URL: database.url! } : {}),
    },
    dataDir,
  );
  try {
    const tokens = [await apiToken(portal, 'admin', PASSWORD)];
    for (const user of users) tokens.push(await apiToken(portal, user, password));
    let next = 0;
    // Each connection is one client signed in as one of the demo users, in turn; its token is kept in its context.
    const signedIn = (request: Record<string, unknown>, context: { token?: string }) => {
      context.token ??= tokens[next++ % tokens.length];
      return { ...request, headers: { 'content-type': 'application/json', authorization: `Bearer ${context.token}` } };
    };
    const options = {
      url: portal.url,
      connections: CLIENTS,
      timeout: TIMEOUT_SECONDS,
      requests: CALLS.map((c) => ({ ...c, setupRequest: signedIn })),
    };
    // A few unmeasured seconds first: a server that has just started compiles its hot paths during its first requests.
    await autocannon({ ...options, connections: 16, duration: 3 } as autocannon.Options);
    let slow = 0;
    let unavailable = 0;
    const run = autocannon({ ...options, duration: SECONDS } as autocannon.Options) as unknown as autocannon.Instance & Promise<autocannon.Result>;
    run.on('response', (_client: unknown, statusCode: number, _bytes: number, ms: number) => {
      if (ms > SLOW_MS) slow++;
      if (statusCode === 503) unavailable++;
    });
    run.on('reqError', () => {});
    const result = await run;
    const codes = result.statusCodeStats as Record<string, { count: number }>;
    console.log(
      `[${engine}] answers by status: ${JSON.stringify(Object.fromEntries(Object.entries(codes).map(([k, v]) => [k, v.count])))}, errors ${result.errors}`,
    );
    const other = Object.entries(codes)
      .filter(([code]) => code !== '200' && code !== '503')
      .reduce((n, [, c]) => n + c.count, 0);
    return {
      engine,
      clients: CLIENTS,
      s: SECONDS,
      'req/s': Math.round(result.requests.average),
      answered: result.requests.total,
      'p50 ms': result.latency.p50,
      'p99 ms': result.latency.p99,
      'max ms': result.latency.max,
      '503s': unavailable,
      'over 2 s': slow,
      'other errors': other + result.errors - result.timeouts,
      timeouts: result.timeouts,
    };
  } finally {
    await portal.stop();
    if (engine === 'postgres') await database.close();
  }
}

const rows = [await measure('pglite')];
if (pgUrl) rows.push(await measure('postgres'));
else console.log('PostgreSQL skipped: set TEST_DATABASE_URL or DATABASE_URL to include it.');
console.log(
  `\n${CLIENTS} clients, each sending the subscriber list, the account list and the signed-in user in turn, ${SECONDS} s; ` +
    `${SUBSCRIBERS.toLocaleString('en')} demo subscribers; timeouts after ${TIMEOUT_SECONDS} s`,
);
console.table(rows);
