/**
 * One server process against two on one PostgreSQL. Loads the demo data and BENCH_SCALE_SUBSCRIBERS (default
 * 100,000) subscribers into a scratch database, starts the portal as `npm run serve` does with WORKERS=1, then
 * WORKERS=2, and drives each with autocannon (32 connections, BENCH_SECONDS s per list, default 20) on the
 * subscribers' and the accounts' default lists, signed in as the administrator. Prints requests/s, p50 and p99 side
 * by side, the ratio of two processes to one, and the machine's load average: the cores are shared with
 * PostgreSQL and with whatever else runs, so the ratio is the machine's, not the portal's ceiling.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:scale
 */
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { ensureAdmin, seedDemo } from '@server/db/seed';
import { copySubscribers } from './lib/copySubscribers';
import { freshDatabase } from '../test/server/helpers';
import { apiToken, startPortal } from '../test/e2e/harness';

const SUBSCRIBERS = Number(process.env.BENCH_SCALE_SUBSCRIBERS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CONNECTIONS = 32;
const PASSWORD = 'Bench@2026pass';
const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
if (!pgUrl) {
  console.error('bench:scale needs PostgreSQL: set TEST_DATABASE_URL (or DATABASE_URL).');
  process.exit(1);
}
process.env.TEST_DATABASE_URL = pgUrl;

const lists = [
  { name: 'subscribers', url: '/portal/subscribers/paged' },
  { name: 'accounts', url: '/portal/accounts/paged' },
];
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const database = await freshDatabase('postgres');
try {
  await ensureAdmin(database.db, PASSWORD);
  await seedDemo(database.db, { subscribers: 0 });
  const started = performance.now();
  await copySubscribers(database.db, SUBSCRIBERS, database.url!);
  for (const table of ['sim_card', 'subscriber', 'subscriber_msisdn', 'sponsor_imsi']) await sql`vacuum analyze ${sql.id(table)}`.execute(database.db);
  console.log(`${SUBSCRIBERS.toLocaleString('en')} subscribers loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  type Figures = { 'req/s': number; 'p50 ms': number; 'p99 ms': number; errors: number; 'load average': string };
  const figures: Record<number, Record<string, Figures>> = {};
  for (const workers of [1, 2]) {
    const portal = await startPortal(
      { ADMIN_PASSWORD: PASSWORD, SEED_DEMO: '0', JWT_SECRET: 'bench', LOG_LEVEL: 'warn', DATABASE_URL: database.url!, WORKERS: String(workers) },
      mkdtempSync(join(tmpdir(), 'bench-scale-')),
    );
    try {
      // Every process is listening once the portal says it is ready.
      while (!portal.output().includes('is ready')) await new Promise((r) => setTimeout(r, 200));
      const headers = { authorization: `Bearer ${await apiToken(portal, 'admin', PASSWORD)}`, 'content-type': 'application/json' };
      const body = JSON.stringify({ page: { page: 0, size: 50 } });
      figures[workers] = {};
      for (const list of lists) {
        const options = { url: `${portal.url}${list.url}`, method: 'POST' as const, connections: CONNECTIONS, headers, body };
        // The first seconds compile the hot paths of each process: not counted.
        await autocannon({ ...options, duration: 3 });
        const before = load();
        const run = await autocannon({ ...options, duration: SECONDS });
        figures[workers][list.name] = {
          'req/s': Math.round(run.requests.average),
          'p50 ms': run.latency.p50,
          'p99 ms': run.latency.p99,
          errors: run.non2xx + run.errors,
          'load average': `${before} → ${load()}`,
        };
      }
    } finally {
      await portal.stop();
    }
  }

  console.log(
    `\nPOST <list>/paged, default sort, pages of 50, as the administrator; ${CONNECTIONS} connections, ${SECONDS} s each; ` +
      `${SUBSCRIBERS.toLocaleString('en')} subscribers; ${cpus().length} cores shared by the portal's processes, PostgreSQL and anything else running`,
  );
  console.table(
    lists.map(({ name }) => {
      const [one, two] = [figures[1][name], figures[2][name]];
      return {
        list: name,
        '1 process req/s': one['req/s'],
        '1 p50/p99 ms': `${one['p50 ms']} / ${one['p99 ms']}`,
        '2 processes req/s': two['req/s'],
        '2 p50/p99 ms': `${two['p50 ms']} / ${two['p99 ms']}`,
        'ratio 2/1': Number((two['req/s'] / one['req/s']).toFixed(2)),
        errors: one.errors + two.errors,
      };
    }),
  );
  console.log('Load average (1, 5, 15 min) before → after each run:');
  for (const workers of [1, 2]) for (const { name } of lists) console.log(`  ${workers} process(es), ${name}: ${figures[workers][name]['load average']}`);
  console.log('The load average counts every runnable process on the machine: above the core count, the runs competed for CPU.');
} finally {
  await database.close();
}
