/**
 * The bulk paths of subscribers on PostgreSQL: the loader's rate (BENCH_SUBSCRIBERS, default 1,000,000 subscribers
 * with their SIM cards, MSISDNs and sponsor IMSIs, through COPY), the full CSV export of them through a portal running
 * as its own process (`npm start`'s way: time, rows, peak growth of the server's memory above its idle level), and
 * a CSV bulk update of BENCH_CSV_ROWS (default 100,000) subscribers (a new name and group on each line) as the
 * administrator: the check of the upload, its confirmation and the job until done (and the job alone, from its
 * first chunk to its end).
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:bulk
 *   BENCH_SUBSCRIBERS=200000 BENCH_CSV_ROWS=20000 npm run bench:bulk
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { buildApp } from '@server/app';
import { ensureAdmin, seedDemo } from '@server/db/seed';
import { copySubscribers, type LoadPhases } from './lib/copySubscribers';
import { lineFeeds } from './lib/lineFeeds';
import { freshDatabase } from '../test/server/helpers';
import { apiToken, startPortal } from '../test/e2e/harness';
import type { Database } from '../src/server/db/types';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 1_000_000);
const CSV_ROWS = Number(process.env.BENCH_CSV_ROWS ?? 100_000);
const PASSWORD = 'Bench@2026pass';
const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
const WEB_ROOT = resolve(process.env.WEB_ROOT ?? 'dist/web');
const BOUNDARY = 'bench-bulk-boundary';
/** Which parts to run (comma-separated: loader, export, csv); the loader always loads. */
const PARTS = new Set((process.env.BENCH_PARTS ?? 'loader,export,csv').split(','));
/** A CSV job still running after this many seconds is left, its rate so far printed instead. */
const CSV_LIMIT = Number(process.env.BENCH_CSV_LIMIT ?? 300);

if (!pgUrl) {
  console.log('Set TEST_DATABASE_URL or DATABASE_URL: the bulk paths measured here are those of PostgreSQL.');
  process.exit(0);
}

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const residentBytes = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024;
const seconds = (since: number) => Number(((performance.now() - since) / 1000).toFixed(1));
const figures: Record<string, string | number>[] = [];
const report = (figure: Record<string, string | number>) => {
  figures.push(figure);
  console.log(figure);
};

process.env.TEST_DATABASE_URL = pgUrl;
const database = await freshDatabase('postgres');
const db = database.db as unknown as Kysely<Database>;
await ensureAdmin(database.db, PASSWORD);
await seedDemo(database.db, { subscribers: 0 });

// The loader.
{
  const started = performance.now();
  const phases: Partial<LoadPhases> = {};
  const written = await copySubscribers(db, SUBSCRIBERS, database.url ?? pgUrl, { phases });
  const s = (performance.now() - started) / 1000;
  const split = Object.entries(phases).map(([phase, seconds]) => `${phase} ${seconds.toFixed(1)} s`);
  report({
    figure: `loader, ${SUBSCRIBERS.toLocaleString('en')} subscribers (${written.toLocaleString('en')} rows)`,
    value: `${Math.round(written / s).toLocaleString('en')} rows/s (${s.toFixed(1)} s: ${split.join(', ')})`,
    load: load(),
  });
  for (const table of ['sim_card', 'subscriber', 'subscriber_msisdn', 'sponsor_imsi']) await sql`vacuum analyze ${sql.id(table)}`.execute(db);
}

// The export, through the portal as its own process.
if (PARTS.has('export')) {
  const portal = await startPortal(
    { ADMIN_PASSWORD: PASSWORD, SEED_DEMO: '0', JWT_SECRET: 'bench', WEB_ROOT, LOG_LEVEL: 'warn', DATABASE_URL: database.url! },
    mkdtempSync(join(tmpdir(), 'bench-unused-')),
  );
  try {
    const headers = { authorization: `Bearer ${await apiToken(portal, 'admin', PASSWORD)}`, 'content-type': 'application/json' };
    // A first small export warms the server's paths; then the idle level of its memory.
    await (
      await fetch(`${portal.url}/portal/subscribers/list/download`, { method: 'POST', headers, body: JSON.stringify({ searchBy: 'iccid', searchKey: '0' }) })
    ).text();
    await new Promise((r) => setTimeout(r, 500));
    const idle = residentBytes(portal.pid);
    let peak = idle;
    const timer = setInterval(() => (peak = Math.max(peak, residentBytes(portal.pid))), 20);
    const started = performance.now();
    const res = await fetch(`${portal.url}/portal/subscribers/list/download`, { method: 'POST', headers, body: '{}' });
    if (!res.ok || !res.body) throw new Error(`export failed: ${res.status}`);
    let lines = 0;
    let bytes = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      lines += lineFeeds(chunk);
    }
    const s = seconds(started);
    clearInterval(timer);
    report({
      figure: `export of every subscriber (${(lines - 1).toLocaleString('en')} rows, ${Math.round(bytes / 1024 / 1024)} MB)`,
      value: `${s} s, server memory +${Math.round((peak - idle) / 1024 / 1024)} MB above idle`,
      load: load(),
    });
  } finally {
    await portal.stop();
  }
}

// The CSV bulk update, in this process (the job runs beside the upload).
if (PARTS.has('csv')) {
  const app = await buildApp({ database, jwtSecret: 'bench', webRoot: WEB_ROOT, coreNetwork: { simulator: { failureRate: 0 } } });
  await app.ready();
  const jwt = (await app.inject({ method: 'POST', url: '/portal/auth', payload: { userName: 'admin', password: PASSWORD } })).json().jwt;
  const iccids = await db.selectFrom('subscriber').select('iccid').orderBy('subscriberId').limit(CSV_ROWS).execute();
  const text = ['iccid,name,groupName', ...iccids.map((r, i) => `${r.iccid},B${i},G${i % 50}`)].join('\n');
  const body = Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="bulk.csv"\r\nContent-Type: text/csv\r\n\r\n`),
    Buffer.from(text),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
  const upload = (confirm: boolean) =>
    app.inject({
      method: 'POST',
      url: `/portal/subscribers/bulk/csv${confirm ? '?confirm=true' : ''}`,
      payload: body,
      headers: { authorization: `Bearer ${jwt}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    });
  let started = performance.now();
  const preview = await upload(false);
  if (preview.statusCode !== 200) throw new Error(`upload check refused: ${preview.statusCode} ${preview.body}`);
  const checked = seconds(started);
  started = performance.now();
  const res = await upload(true);
  if (res.statusCode !== 202) throw new Error(`upload refused: ${res.statusCode} ${res.body}`);
  const accepted = seconds(started);
  const { jobId, valid } = res.json();
  const job = () => db.selectFrom('job').select(['status', 'succeeded', 'failed']).where('id', '=', jobId).executeTakeFirstOrThrow();
  while (!['done', 'failed', 'cancelled'].includes((await job()).status) && seconds(started) < CSV_LIMIT) await new Promise((r) => setTimeout(r, 100));
  const total = seconds(started);
  const { succeeded, failed, status } = await job();
  if (status === 'running') await app.jobs.cancel(jobId);
  // The job alone, by the database's clock: from its first chunk to its end.
  const { ran } = await db
    .selectFrom('job')
    .select(sql<number>`extract(epoch from coalesce(finished_at, now()) - started_at)`.as('ran'))
    .where('id', '=', jobId)
    .executeTakeFirstOrThrow();
  const jobSeconds = Number(Number(ran).toFixed(1));
  report({
    figure: `CSV bulk update, ${CSV_ROWS.toLocaleString('en')} lines (name and group; ${Math.round(body.length / 1024)} kB)`,
    value:
      status === 'running'
        ? `check ${checked} s; confirmed: accepted ${accepted} s, job left after ${total} s at ${Math.round(Number(succeeded) / total)} lines/s (the job itself ${jobSeconds} s, ${Math.round(Number(succeeded) / jobSeconds)} lines/s; ${valid} valid, ${succeeded} succeeded, ${failed} failed)`
        : `check ${checked} s; confirmed: accepted ${accepted} s, job done ${total} s (the job itself ${jobSeconds} s, ${Math.round(Number(succeeded) / jobSeconds)} lines/s; ${valid} valid, ${succeeded} succeeded, ${failed} failed)`,
    load: load(),
  });
  await app.close();
}

await database.close();
console.table(figures);
