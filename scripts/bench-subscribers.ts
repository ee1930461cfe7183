/**
 * Subscribers at scale. On PostgreSQL: loads BENCH_SUBSCRIBERS (default 1,000,000) demo subscribers with their SIM
 * cards, MSISDNs and sponsor IMSIs through COPY and prints the loader's rate; then measures the subscriber list under
 * 32 concurrent clients with autocannon (default sort, a deep page by number and after a row, ICCID, IMSI prefix,
 * multi-field and account-name searches) and a full CSV export (time, rows, growth of the server's memory), with the
 * portal running as its own process as `npm start` runs it. On PGlite the same list and export figures at BENCH_PGLITE_SUBSCRIBERS (default 20,000), loaded by the demo seeder. On both, when Chromium and a
 * build are there (npm run build; WEB_ROOT to use another), the time from navigation to the grid's first rows and
 * whether paging ever leaves it blank. Then, with five custom fields defined (values on every tenth subscriber on
 * PostgreSQL), the default list again, a search and a sort by a custom field. On PostgreSQL, a bulk suspend of BENCH_BULK (default 100,000) subscribers
 * selected by id: the time until its job is done and until every core-network answer is applied.
 *
 * For each list case: the server's CPU time per request beside PostgreSQL's (and their ratio). For the default list
 * (50 and 100 rows), the ICCID search, the multi-field search and a sorted, filtered page, also the latency at one
 * client: the HTTP call against the same SQL (the statements the server runs for that page, captured from its own
 * list code) run directly through pg, one at a time. BENCH_LISTS_ONLY=1 leaves out the export, the browser, the
 * custom fields and the bulk suspend; BENCH_PGLITE_SUBSCRIBERS=0 leaves out PGlite. BENCH_KEEP_DATABASE=<name> loads the
 * subscribers into a PostgreSQL database of that name on the server of TEST_DATABASE_URL and keeps it: a later run
 * with the same name (and size) measures over it again without loading (with BENCH_LISTS_ONLY=1: the other parts
 * write to it); drop it by hand when done.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:subscribers
 *   BENCH_SUBSCRIBERS=200000 BENCH_SECONDS=5 npm run bench:subscribers
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { sql, type Kysely } from 'kysely';
import { buildApp } from '@server/app';
import { arrayQueriesOf, openDatabase, type Db } from '@server/db';
import { EntityRepository } from '@server/engine/repository';
import { loadSchemas } from '@server/engine/schemas';
import { normaliseListRequest } from '@shared/schema';
import type { ListRequest } from '@shared/wire';
import { ensureAdmin, seedDemo } from '@server/db/seed';
import { seedSubscribers } from '@server/db/seedSubscribers';
import { copySubscribers } from './lib/copySubscribers';
import { lineFeeds } from './lib/lineFeeds';
import { measureBrowserList } from './lib/browserList';
import { freshDatabase } from '../test/server/helpers';
import { apiToken, startPortal } from '../test/e2e/harness';
import type { Database } from '../src/server/db/types';

const PG_ROWS = Number(process.env.BENCH_SUBSCRIBERS ?? 1_000_000);
const PGLITE_ROWS = Number(process.env.BENCH_PGLITE_SUBSCRIBERS ?? 20_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
const PASSWORD = 'Bench@2026pass';
const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
const WEB_ROOT = resolve(process.env.WEB_ROOT ?? 'dist/web');
const BULK_SUBSCRIBERS = Number(process.env.BENCH_BULK ?? 100_000);
const LISTS_ONLY = process.env.BENCH_LISTS_ONLY === '1';
const KEEP_DATABASE = process.env.BENCH_KEEP_DATABASE;

/** The resident memory of a process, from /proc (Linux), in bytes. */
function residentBytes(pid: number): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

/** CPU time (user and system) of processes so far, in ms, from /proc (Linux counts it in hundredths of a second). */
function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime and stime, fields 14 and 15 of the line
    } catch {
      /* the process has ended */
    }
  }
  return ticks * 10;
}

/**
 * The PostgreSQL server's processes on this machine that serve `database` (none when the database runs elsewhere): its
 * backends, whose titles name their database ("postgres: [cluster:] user database host state"), so that other databases'
 * work on the same server is not counted. The server's shared processes (writers, checkpointer) are left out.
 */
function postgresPids(database: string): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((pid) => {
      try {
        if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') return false;
        return ` ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ')} `.includes(` ${database} `);
      } catch {
        return false;
      }
    });
}

/** The peak resident memory of process `pid` while `work` runs, sampled every 20 ms, above what it was before. */
async function peakGrowth<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; growthMb: number }> {
  const before = residentBytes(pid);
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, residentBytes(pid));
  }, 20);
  try {
    const result = await work();
    return { result, growthMb: Math.round((peak - before) / 1024 / 1024) };
  } finally {
    clearInterval(timer);
  }
}

/**
 * The figures of one engine. The portal runs as its own process (`src/server/main.ts`, as `npm start` runs it), so
 * the load generator does not share its event loop and the export's memory is the server's alone. PGlite has one
 * owner: its database is closed here before the server opens it.
 */
async function measure(engine: 'pglite' | 'postgres', database: Db & { url?: string }, count: number, dataDir: string) {
  // Entity tables are the engine's, not in the typed Database.
  const db = database.db as unknown as Kysely<Database>;

  // Search keys taken from rows that exist, deep in the table.
  const deep = Math.floor(count * 0.77);
  const probe = await db
    .selectFrom('subscriber')
    .innerJoin('account', 'account.accountId', 'subscriber.accountId')
    .select(['subscriber.iccid', 'subscriber.imsi', 'subscriber.name', 'account.name as accountName'])
    .where('subscriber.subscriberId', '=', deep)
    .executeTakeFirstOrThrow();
  const page = (body: object) => ({ ...body, page: { page: 0, size: 50 } });
  const deepPage = Math.floor(count / 2 / 50);
  const before = await db
    .selectFrom('subscriber')
    .select('subscriberId')
    .orderBy('subscriberId')
    .offset(deepPage * 50 - 1)
    .limit(1)
    .executeTakeFirstOrThrow();
  const scenarios: { name: string; body: object; oneClient?: boolean }[] = [
    { name: 'default sort', body: page({}), oneClient: true },
    { name: 'default sort, 100 rows', body: { page: { page: 0, size: 100 } }, oneClient: true },
    { name: `page ${deepPage} (deep), by number`, body: { page: { page: deepPage, size: 50 } } },
    { name: `page ${deepPage} (deep), after the row before it`, body: { page: { page: deepPage, size: 50, after: Number(before.subscriberId) } } },
    { name: 'ICCID search', body: page({ searchBy: 'iccid', searchKey: probe.iccid }), oneClient: true },
    { name: 'IMSI prefix search', body: page({ searchBy: 'imsi', searchKey: String(probe.imsi).slice(0, 12) }) },
    { name: 'multi-field search', body: page({ searchBy: 'multi', searchKey: probe.name }), oneClient: true },
    { name: 'account name filter', body: page({ searchBy: 'accountName', searchKey: probe.accountName }) },
    {
      name: 'sorted by name (desc), account filter',
      body: page({ sortBy: 'name', sortDir: 'desc', searchBy: 'accountName', searchKey: probe.accountName }),
      oneClient: true,
    },
  ];
  // The statements the server runs for each one-client case, once its estimate is kept, from the same list code.
  const statements = new Map<string, { sql: string; parameters: unknown[]; name: string }[]>();
  if (engine === 'postgres')
    for (const scenario of scenarios) if (scenario.oneClient) statements.set(scenario.name, await pageStatements(database.db, scenario.body));
  if (engine === 'pglite') await database.close();

  const portal = await startPortal(
    {
      ADMIN_PASSWORD: PASSWORD,
      SEED_DEMO: '0',
      JWT_SECRET: 'bench',
      WEB_ROOT,
      LOG_LEVEL: 'warn',
      ...(engine === 'postgres' ? { DATABASE_URL: database.url! } : {}),
    },
    dataDir,
  );
  try {
    const address = portal.url;
    const headers = { authorization: `Bearer ${await apiToken(portal, 'admin', PASSWORD)}`, 'content-type': 'application/json' };

    // A server that has just started compiles its hot paths during its first requests: a few seconds of the default
    // list first, not counted, so the first scenario measures a warm server like the others.
    await autocannon({
      url: `${address}/portal/subscribers/paged`,
      method: 'POST',
      connections: CONNECTIONS,
      duration: 3,
      headers,
      body: JSON.stringify(scenarios[0].body),
    });
    const rows: Record<string, string | number>[] = [];
    const run = async (scenario: { name: string; body: object; oneClient?: boolean }) => {
      // What each request costs the machine's 2 cores: the server's CPU time and PostgreSQL's, over the run.
      const dbName = engine === 'postgres' ? new URL(database.url!).pathname.slice(1) : '';
      const pg = engine === 'postgres' ? postgresPids(dbName) : [];
      const before = { server: cpuMs([portal.pid]), db: cpuMs(pg) };
      const run = await autocannon({
        url: `${address}/portal/subscribers/paged`,
        method: 'POST',
        connections: CONNECTIONS,
        duration: SECONDS,
        headers,
        body: JSON.stringify(scenario.body),
      });
      const perRequest = (ms: number) => Number((ms / run.requests.total).toFixed(2));
      const serverCpu = perRequest(cpuMs([portal.pid]) - before.server);
      // Backends the pool opened during the run count from their start.
      const dbCpu = engine === 'postgres' ? perRequest(cpuMs([...new Set([...pg, ...postgresPids(dbName)])]) - before.db) : undefined;
      rows.push({
        engine,
        subscribers: count,
        scenario: scenario.name,
        'req/s': Math.round(run.requests.average),
        'p50 ms': run.latency.p50,
        'p99 ms': run.latency.p99,
        errors: run.non2xx + run.errors,
        'server CPU ms/req': serverCpu,
        'database CPU ms/req': dbCpu ?? '-',
        'server/database': dbCpu ? Number((serverCpu / dbCpu).toFixed(2)) : '-',
      });
      const sqlRun = statements.get(scenario.name);
      if (sqlRun) {
        // One client: the HTTP call, then the same SQL straight through pg.
        const http = await autocannon({
          url: `${address}/portal/subscribers/paged`,
          method: 'POST',
          connections: 1,
          duration: Math.max(2, Math.round(SECONDS / 2)),
          headers,
          body: JSON.stringify(scenario.body),
        });
        const raw = await rawLatency(database.url!, sqlRun, Math.max(2, Math.round(SECONDS / 2)));
        // One connection sends its next request when an answer comes, so its mean is the run's time over its answers
        // (autocannon's latency histogram counts whole milliseconds: a call well under one reads as 0).
        const httpMean = (http.duration * 1000) / http.requests.total;
        oneClient.push({
          subscribers: count,
          scenario: scenario.name,
          statements: sqlRun.length,
          'SQL mean ms': raw.mean,
          'SQL p50 ms': raw.p50,
          'HTTP mean ms': Number(httpMean.toFixed(2)),
          'HTTP p50 ms': http.latency.p50,
          'HTTP/SQL (mean)': Number((httpMean / raw.mean).toFixed(2)),
        });
      }
    };
    for (const scenario of scenarios) await run(scenario);
    if (LISTS_ONLY) return { rows };
    // The same default list once the administrator has five custom fields (values on every tenth subscriber where
    // the database can be written beside the server), then a search and a sort by one of them.
    await defineCustomFields(address, headers, engine === 'postgres' ? db : undefined);
    await run({ name: 'default sort, 5 custom fields defined', body: scenarios[0].body });
    await run({ name: 'custom field search (a choice)', body: page({ searchBy: 'custom.region', searchKey: 'North' }) });
    await run({ name: 'sorted by a custom field (a number)', body: { sortBy: 'custom.capacity', sortDir: 'asc', page: { page: 0, size: 50 } } });

    const started = performance.now();
    const { result: exported, growthMb } = await peakGrowth(portal.pid, async () => {
      const res = await fetch(`${address}/portal/subscribers/list/download`, { method: 'POST', headers, body: '{}' });
      if (!res.ok || !res.body) throw new Error(`export failed: ${res.status}`);
      let lines = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) lines += lineFeeds(chunk);
      return lines - 1; // the header line
    });
    const exportSeconds = (performance.now() - started) / 1000;
    const browser = await measureBrowserList(address, PASSWORD, WEB_ROOT);
    if (browser) browsers.push({ engine, subscribers: count, ...browser });
    else console.log(`[${engine}] browser figures skipped: they need /usr/bin/chromium and a build in ${WEB_ROOT} (npm run build)`);
    return {
      rows,
      exportRow: { engine, subscribers: count, 'export rows': exported, 'export s': Number(exportSeconds.toFixed(1)), 'server memory growth MB': growthMb },
    };
  } finally {
    await portal.stop();
  }
}

/** Five custom fields of subscribers, made through the API; with `db`, values for every tenth subscriber. */
async function defineCustomFields(address: string, headers: Record<string, string>, db?: Kysely<Database>) {
  const fields = [
    { key: 'contractRef', label: 'Contract', type: 'text', maximum: 20 },
    { key: 'region', label: 'Region', type: 'choice', choices: ['North', 'South', 'East', 'West'] },
    { key: 'capacity', label: 'Capacity', type: 'number', minimum: 0 },
    { key: 'installed', label: 'Installed', type: 'date' },
    { key: 'site', label: 'Site', type: 'text' },
  ];
  for (const field of fields) {
    const res = await fetch(`${address}/portal/custom-fields`, { method: 'POST', headers, body: JSON.stringify({ entity: 'subscriber', ...field }) });
    if (res.status !== 201) throw new Error(`custom field refused: ${res.status} ${await res.text()}`);
  }
  if (!db) return;
  const started = performance.now();
  await sql`update subscriber set custom = jsonb_build_object(
      'contractRef', 'C-' || subscriber_id,
      'region', (array['North', 'South', 'East', 'West'])[1 + subscriber_id % 4],
      'capacity', subscriber_id % 1000,
      'installed', to_char(date '2024-01-01' + (subscriber_id % 700), 'YYYY-MM-DD'),
      'site', 'Site ' || (subscriber_id % 97))
    where subscriber_id % 10 = 0`.execute(db);
  await sql`vacuum analyze subscriber`.execute(db);
  console.log(`[postgres] custom values written on every tenth subscriber in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * A bulk suspend of `count` active subscribers selected by id, as the grid's bulk action sends it, with a simulated
 * core network that never fails: the time until the job is done and until every network answer is applied.
 */
async function measureBulkSuspend(database: Db, count: number) {
  const db = database.db as unknown as Kysely<Database>;
  const app = await buildApp({ database, jwtSecret: 'bench', webRoot: WEB_ROOT, coreNetwork: { simulator: { failureRate: 0 } } });
  await app.ready();
  const jwt = (await app.inject({ method: 'POST', url: '/portal/auth', payload: { userName: 'admin', password: PASSWORD } })).json().jwt;
  const ids = (await db.selectFrom('subscriber').select('subscriberId').where('status', '=', 'active').orderBy('subscriberId').limit(count).execute()).map(
    (r) => Number(r.subscriberId),
  );
  const seconds = (since: number) => Number(((performance.now() - since) / 1000).toFixed(1));
  const pause = () => new Promise((resolve) => setTimeout(resolve, 100));
  const started = performance.now();
  const res = await app.inject({
    method: 'POST',
    url: '/portal/subscribers/bulk',
    headers: { authorization: `Bearer ${jwt}` },
    payload: { action: 'suspend', selection: { ids } },
  });
  if (res.statusCode !== 202) throw new Error(`bulk suspend refused: ${res.statusCode} ${res.body}`);
  const { jobId } = res.json();
  const job = async () => db.selectFrom('job').select(['status', 'succeeded', 'failed']).where('id', '=', jobId).executeTakeFirstOrThrow();
  while (!['done', 'cancelled'].includes((await job()).status)) await pause();
  const done = seconds(started);
  const pending = async () =>
    Number(
      (
        await db
          .selectFrom('subscriberOperation')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('status', '=', 'pending')
          .executeTakeFirstOrThrow()
      ).n,
    );
  while (await pending()) await pause();
  const settled = seconds(started);
  const { failed } = await job();
  await app.close();
  return { subscribers: ids.length, 'job done s': done, 'all settled s': settled, 'failed items': Number(failed) };
}

/** The machine's load averages over 1, 5 and 15 minutes (Linux). */
function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

/**
 * The statements the server's list code runs for `body` as the administrator once the page's estimate is kept (its
 * second page of the same search), captured from the runner the repository uses, with their parameters.
 */
async function pageStatements(db: Kysely<Database>, body: object) {
  const schema = loadSchemas().find((s) => s.$id === 'subscriber')!;
  const repo = new EntityRepository(db, schema);
  const runner = arrayQueriesOf(db);
  if (!runner) throw new Error('no array runner on this database');
  const principal = { userId: 0, username: 'admin', resellerId: -1, resellerPath: '', accountId: null, isAdmin: true, privileges: [] };
  const req = normaliseListRequest(schema, body as ListRequest, true, []);
  await repo.page(req, { principal });
  const seen: { sql: string; parameters: unknown[]; name: string }[] = [];
  const run = runner.run;
  runner.run = (sql, parameters, name) => {
    seen.push({ sql, parameters: [...parameters], name });
    return run.call(runner, sql, parameters, name);
  };
  try {
    await repo.page(req, { principal });
  } finally {
    runner.run = run;
  }
  return seen;
}

/** Mean and median latency of running `statements` one after another (one client, named as the server names them). */
async function rawLatency(url: string, statements: { sql: string; parameters: unknown[]; name: string }[], seconds: number) {
  const client = new pg.Client({ connectionString: url, options: '-c plan_cache_mode=force_custom_plan' });
  await client.connect();
  const times: number[] = [];
  try {
    const until = performance.now() + seconds * 1000;
    while (performance.now() < until) {
      const started = performance.now();
      for (const s of statements) await client.query({ name: s.name, text: s.sql, values: s.parameters, rowMode: 'array' });
      times.push(performance.now() - started);
    }
  } finally {
    await client.end();
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  return { mean: Number(mean.toFixed(2)), p50: Number(times[Math.floor(times.length / 2)].toFixed(2)) };
}

async function setUp(engine: 'pglite' | 'postgres', dataDir: string): Promise<Db & { url?: string }> {
  if (engine === 'postgres') process.env.TEST_DATABASE_URL = pgUrl;
  const database = engine === 'pglite' ? await openDatabase({ dataDir }) : await freshDatabase(engine);
  await ensureAdmin(database.db, PASSWORD);
  await seedDemo(database.db, { subscribers: 0 });
  return database;
}

const lists = [];
const exports = [];
const oneClient: object[] = [];
const browsers: object[] = [];
const bulks: object[] = [];

if (PGLITE_ROWS > 0) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-pglite-'));
  const database = await setUp('pglite', dataDir);
  const started = performance.now();
  await seedSubscribers(database.db, PGLITE_ROWS);
  console.log(`[pglite] ${PGLITE_ROWS.toLocaleString('en')} subscribers seeded by the demo seeder in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const { rows, exportRow } = await measure('pglite', database, PGLITE_ROWS, dataDir); // closes the database, removes the folder
  lists.push(...rows);
  if (exportRow) exports.push(exportRow);
}

/**
 * The database BENCH_KEEP_DATABASE names, and whether it holds a previous run's subscribers (then nothing is loaded):
 * created, migrated and seeded when it does not exist, never dropped.
 */
async function keptDatabase(name: string): Promise<{ database: Db & { url: string }; loaded: boolean }> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`BENCH_KEEP_DATABASE: not a plain database name: ${name}`);
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  let exists;
  try {
    exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
    if (!exists) await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(pgUrl!);
  url.pathname = `/${name}`;
  const database = { ...(await openDatabase({ databaseUrl: url.toString() })), url: url.toString() };
  const db = database.db as unknown as Kysely<Database>;
  if (!exists) {
    await ensureAdmin(database.db, PASSWORD);
    await seedDemo(database.db, { subscribers: 0 });
  }
  const { n } = await db
    .selectFrom('subscriber')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(n) !== 0 && Number(n) !== PG_ROWS) throw new Error(`BENCH_KEEP_DATABASE: ${name} holds ${n} subscribers, not ${PG_ROWS}`);
  return { database, loaded: Number(n) === PG_ROWS };
}

if (pgUrl) {
  const kept = KEEP_DATABASE ? await keptDatabase(KEEP_DATABASE) : undefined;
  const database = kept?.database ?? (await setUp('postgres', ''));
  if (kept?.loaded) console.log(`[postgres] ${PG_ROWS.toLocaleString('en')} subscribers kept in ${KEEP_DATABASE} by an earlier run`);
  else {
    const started = performance.now();
    const written = await copySubscribers(database.db, PG_ROWS, database.url ?? pgUrl);
    const loadSeconds = (performance.now() - started) / 1000;
    for (const table of ['sim_card', 'subscriber', 'subscriber_msisdn', 'sponsor_imsi']) await sql`vacuum analyze ${sql.id(table)}`.execute(database.db);
    console.log(
      `[postgres] loaded ${PG_ROWS.toLocaleString('en')} subscribers (${written.toLocaleString('en')} rows with SIM cards, MSISDNs and sponsor IMSIs) through COPY in ${loadSeconds.toFixed(1)} s: ${Math.round(written / loadSeconds).toLocaleString('en')} rows/s, ${Math.round(PG_ROWS / loadSeconds).toLocaleString('en')} subscribers/s`,
    );
  }
  const { rows, exportRow } = await measure('postgres', database, PG_ROWS, mkdtempSync(join(tmpdir(), 'bench-unused-')));
  lists.push(...rows);
  if (exportRow) exports.push(exportRow);
  if (!LISTS_ONLY && BULK_SUBSCRIBERS > 0) bulks.push(await measureBulkSuspend(database, Math.min(PG_ROWS, BULK_SUBSCRIBERS)));
  await database.close();
} else {
  console.log('PostgreSQL skipped: set TEST_DATABASE_URL or DATABASE_URL to include it.');
}

console.log(`\nPOST /portal/subscribers/paged as the administrator, ${CONNECTIONS} connections, ${SECONDS} s per scenario (load average ${loadAverage()})`);
console.table(lists);
if (oneClient.length) {
  console.log('\nOne client (PostgreSQL): the HTTP call against the same statements run directly through pg');
  console.table(oneClient);
}
if (LISTS_ONLY) process.exit(0);
console.log('\nPOST /portal/subscribers/list/download, every subscriber, streamed');
console.table(exports);
console.log('\nThe subscriber grid in Chromium, signed in as the administrator (pages of 50)');
console.table(browsers);
console.log('\nPOST /portal/subscribers/bulk, suspend of active subscribers selected by id (PostgreSQL; simulated core network, no failures)');
console.table(bulks);
