/**
 * The dashboard's graph calls at scale, on PostgreSQL only. In a database of its own (migrated, dropped at the end):
 * the demo resellers and accounts, BENCH_GRAPHS_SUBSCRIBERS subscribers (default 100,000) copied in, and
 * BENCH_GRAPHS_RECORDS usage records (default 5,000,000) over the last year through COPY with the rollup triggers
 * off, the rollups then built in one statement each (as migration 0150's backfill); BENCH_GRAPHS_SALES package sales
 * (default 200,000) likewise. Then ANALYZE, and through the real server (buildApp, `inject`, BENCH_CLIENTS requests
 * at a time, default 8) as the administrator and as a reseller, each graph call over several ranges in
 * Europe/Berlin. Prints p50/p95/p99 in ms.
 *
 *   npm run bench:graphs          postgres://postgres@127.0.0.1:5432/test unless TEST_DATABASE_URL or DATABASE_URL
 *   BENCH_GRAPHS_RECORDS=1000000 BENCH_REQUESTS=100 npm run bench:graphs
 *   BENCH_EXPLAIN=1 npm run bench:graphs   also prints the plan of the administrator's usage over a year
 */
import { cpus, loadavg } from 'node:os';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { buildApp } from '@server/app';
import { ensureAdmin, seedDemo } from '@server/db/seed';
import { copySubscribers } from './lib/copySubscribers';
import { usageSeriesQuery } from '@server/domains/graphs';
import { RESELLER_LEVELS, totalsQuery } from '@server/domains/graphs/usageBy';
import { buildUsageByRollups } from '@server/db/migrations/0166_usage_by_rollups';
import { resolveRange } from '@server/domains/graphs/ranges';
import { freshDatabase } from '../test/server/helpers';
import { random } from '@server/db/seedSubscribers';
import { percentile } from './lib/percentile';

const SUBSCRIBERS = Number(process.env.BENCH_GRAPHS_SUBSCRIBERS ?? 100_000);
const RECORDS = Number(process.env.BENCH_GRAPHS_RECORDS ?? 5_000_000);
const SALES = Number(process.env.BENCH_GRAPHS_SALES ?? 200_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
/** The usage-by dimensions measured (BENCH_DIMENSIONS, comma-separated; every one by default). */
const BENCH_DIMENSIONS = (process.env.BENCH_DIMENSIONS ?? 'account,reseller,country,operator,subscriber,group').split(',').filter(Boolean);
const PASSWORD = 'Bench@2026pass';
const ZONE = 'Europe/Berlin';
const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const YEAR_S = 365 * 86_400;
const PLMNS = ['26201', '26202', '310260', '23410', '20404', '20801', '22201', '21401', '\\N'];

try {
  const probe = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 5000 });
  await probe.connect();
  await probe.end();
} catch (e) {
  console.error(`bench:graphs needs PostgreSQL; none at ${pgUrl.replace(/\/\/[^@]*@/, '//…@')}: ${(e as Error).message}`);
  process.exit(1);
}
process.env.TEST_DATABASE_URL = pgUrl;

/** COPY lines of usage records: subscribers skewed (a few use most), instants over the year up to now. */
function* usageLines(ids: number[], imsis: string[]) {
  const next = random(7);
  const now = Date.now() / 1000;
  let lines: string[] = [];
  for (let i = 0; i < RECORDS; i++) {
    const k = Math.floor(next() ** 2 * ids.length);
    const at = new Date((now - next() * YEAR_S) * 1000).toISOString();
    const plmn = PLMNS[Math.floor(next() * PLMNS.length)];
    lines.push(`${ids[k]}\t${imsis[k]}\t${at}\tUPDATE\t${plmn}\t${Math.floor(next() * 500_000)}\t${Math.floor(next() * 5_000_000)}\n`);
    if (lines.length === 10_000) {
      yield lines.join('');
      lines = [];
    }
  }
  if (lines.length) yield lines.join('');
}

const database = await freshDatabase('postgres');
const db = database.db;
let client: pg.Client | undefined;
try {
  await ensureAdmin(db, PASSWORD);
  await seedDemo(db, { subscribers: 0, networkEvents: false });
  const t0 = performance.now();
  await copySubscribers(db, SUBSCRIBERS, database.url ?? pgUrl);
  const { rows: subs } = await sql<{ id: number; imsi: string }>`select subscriber_id as id, imsi from subscriber order by subscriber_id`.execute(db);
  const t1 = performance.now();

  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query('begin');
  await client.query('alter table usage_record disable trigger usage_record_rollup_insert');
  await client.query('alter table usage_record disable trigger usage_record_by_rollup_insert');
  await pipeline(
    Readable.from(
      usageLines(
        subs.map((s) => s.id),
        subs.map((s) => s.imsi),
      ),
    ),
    client.query(copyFrom('copy usage_record (subscriber_id, imsi, at, request_type, plmn, bytes_up, bytes_down) from stdin')),
  );
  await client.query('alter table usage_record enable trigger usage_record_rollup_insert');
  await client.query('alter table usage_record enable trigger usage_record_by_rollup_insert');
  const t2 = performance.now();
  // The rollups in one statement each, as the migration's backfill.
  await client.query(`insert into usage_slot (slot, reseller_id, account_id, plmn, bytes_up, bytes_down, records)
    select graph_slot(r.at), s.reseller_id, s.account_id, coalesce(r.plmn, ''), sum(r.bytes_up), sum(r.bytes_down), count(*)
    from usage_record r join subscriber s on s.subscriber_id = r.subscriber_id group by 1, 2, 3, 4`);
  for (const [level, unit, source] of [
    ['usage_hour', 'hour', 'usage_slot'],
    ['usage_day', 'day', 'usage_hour'],
  ])
    await client.query(`insert into ${level} (slot, reseller_id, account_id, plmn, bytes_up, bytes_down, records)
      select date_trunc('${unit}', slot at time zone 'UTC') at time zone 'UTC', reseller_id, account_id, plmn, sum(bytes_up), sum(bytes_down), sum(records)
      from ${source} group by 1, 2, 3, 4`);
  await client.query(`insert into usage_subscriber_slot (subscriber_id, slot, reseller_id, account_id, bytes)
    select r.subscriber_id, graph_slot(r.at), min(s.reseller_id), min(s.account_id), sum(r.bytes_up + r.bytes_down)
    from usage_record r join subscriber s on s.subscriber_id = r.subscriber_id group by 1, 2`);
  const t3 = performance.now();
  await client.query('alter table prepaid_package disable trigger prepaid_package_sales_insert');
  await client.query(`insert into prepaid_package (template_id, subscriber_id, reseller_id, account_id, location_zone_id, period_days, price,
      sale_kind, sold_by, status, payment_date, purchase_date)
    select t.id, s.subscriber_id, s.reseller_id, s.account_id, t.location_zone_id, t.period_days, t.price, 'purchase', 'bench', 'active', at, at
    from (select g, now() - random() * interval '365 days' as at, 1 + floor(random() * ${subs.length})::int as k from generate_series(1, ${SALES}) g) x
    join (select row_number() over (order by subscriber_id) as k, * from subscriber) s on s.k = x.k
    cross join lateral (select * from prepaid_template order by id offset (x.g % (select count(*) from prepaid_template)) limit 1) t`);
  await client.query('alter table prepaid_package enable trigger prepaid_package_sales_insert');
  await client.query(`select sales_rollup_add(array_agg(id)) from prepaid_package where sale_kind = 'purchase'`);
  await client.query('commit');
  const t4 = performance.now();
  // Migration 0166's rollups, from those: per subscriber by hour and day, per reseller by hour and day.
  await buildUsageByRollups(db);
  const t5 = performance.now();
  for (const t of [
    'usage_record',
    'usage_slot',
    'usage_hour',
    'usage_day',
    'usage_subscriber_slot',
    'usage_subscriber_hour',
    'usage_subscriber_day',
    'usage_reseller_hour',
    'usage_reseller_day',
    'sales_slot',
    'sales_rollup_key',
    'prepaid_package',
    'subscriber',
  ])
    await client.query(`vacuum analyze ${t}`);
  const { rows: sizes } = await client.query<{ t: string; n: string }>(
    `select 'usage_slot' as t, count(*)::text as n from usage_slot union all select 'usage_hour', count(*)::text from usage_hour
     union all select 'usage_day', count(*)::text from usage_day union all select 'usage_subscriber_slot', count(*)::text from usage_subscriber_slot
     union all select 'usage_subscriber_day', count(*)::text from usage_subscriber_day union all select 'usage_reseller_day', count(*)::text from usage_reseller_day
     union all select 'sales_slot', count(*)::text from sales_slot`,
  );
  await client.end();
  client = undefined;
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(
    `${SUBSCRIBERS.toLocaleString('en')} subscribers in ${s(t1 - t0)}; ${RECORDS.toLocaleString('en')} usage records through COPY in ${s(t2 - t1)}; ` +
      `usage rollups in ${s(t3 - t2)} (and ${s(t5 - t4)} for those per subscriber and per reseller); ${SALES.toLocaleString('en')} sales and their rollup in ${s(t4 - t3)}; rollup rows: ${sizes.map((r) => `${r.t} ${Number(r.n).toLocaleString('en')}`).join(', ')}`,
  );

  // The incremental path: a batch of 10,000 new records through the trigger.
  const tb = performance.now();
  await sql`insert into usage_record (subscriber_id, imsi, at, request_type, bytes_up, bytes_down)
    select s.subscriber_id, s.imsi, now() - random() * interval '1 hour', 'UPDATE', 1000, 10000 from subscriber s limit 10000`.execute(db);
  console.log(`A batch of 10,000 new usage records with its rollup upserts: ${(performance.now() - tb).toFixed(0)} ms`);

  if (process.env.BENCH_EXPLAIN === '1') {
    // The plans of the administrator's usage over a year and of the totals per account over 30 days, to read by hand.
    const explain = async (query: CompiledQuery) => {
      const { rows: plan } = await sql
        .raw<{ 'QUERY PLAN': string }>(
          `explain (analyze, buffers) ${query.sql.replace(/\$(\d+)/g, (_m, n) => `'${String(query.parameters[Number(n) - 1]).replace(/'/g, "''")}'`)}`,
        )
        .execute(db);
      console.log(plan.map((r) => Object.values(r)[0]).join('\n'));
    };
    await explain(usageSeriesQuery(await resolveRange(db, { range: 'last12Months' }, ZONE), sql`true`, RESELLER_LEVELS).compile(db));
    await explain(
      sql`select count(*) from ${totalsQuery(await resolveRange(db, { range: 'last30Days' }, ZONE), 'account', sql`true`, false, null)} t`.compile(db),
    );
  }
  const app = await buildApp({ database, jwtSecret: 'bench' });
  await app.ready();
  const login = async (userName: string, password: string) =>
    (await app.inject({ method: 'POST', url: '/portal/auth', payload: { userName, password } })).json().jwt as string;
  const callers = [['administrator', await login('admin', PASSWORD)]] as [string, string][];
  const table: Record<string, string | number>[] = [];
  const loadBefore = loadavg()[0].toFixed(1);
  const calls: [string, object][] = [];
  for (const range of ['last24Hours', 'last30Days', 'last12Months'])
    for (const url of ['usage', 'sales', 'salesTotal', 'salesTotalByCountry', 'salesTotalByCustomer', 'salesTotalByOperator', 'salesTotalByVendor'])
      calls.push([`/portal/graphs/${url}`, { range }]);
  calls.push(['/portal/graphs/trends', {}], ['/portal/subscriber-info/top24Hours', {}]);
  // Usage by dimension (the Usage screen's first page).
  for (const range of ['last30Days', 'last12Months'])
    for (const dimension of BENCH_DIMENSIONS) calls.push(['/portal/graphs/usageBy', { dimension, range, page: 0, size: 25 }]);
  for (const [who, jwt] of callers)
    for (const [url, payload] of calls) {
      const headers = { authorization: `Bearer ${jwt}`, 'x-time-zone': ZONE };
      const send = () => app.inject({ method: 'POST', url, payload, headers });
      const first = await send();
      if (first.statusCode !== 200) throw new Error(`${url}: ${first.statusCode} ${first.body}`);
      for (let i = 0; i < 5; i++) await send();
      const times: number[] = [];
      let left = REQUESTS;
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          while (left-- > 0) {
            const t = performance.now();
            const res = await send();
            times.push(performance.now() - t);
            if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
          }
        }),
      );
      times.sort((a, b) => a - b);
      const ms = (v: number) => Number(v.toFixed(1));
      table.push({
        caller: who,
        call: `${url.replace('/portal/', '')} ${(payload as { dimension?: string }).dimension ?? ''} ${(payload as { range?: string }).range ?? ''}`
          .replace(/\s+/g, ' ')
          .trim(),
        'p50 ms': ms(percentile(times, 50)),
        'p95 ms': ms(percentile(times, 95)),
        'p99 ms': ms(percentile(times, 99)),
      });
    }
  await app.close();
  console.log(`\nThrough the server (buildApp, inject, ${CLIENTS} at a time, ${REQUESTS} requests per call, X-Time-Zone ${ZONE})`);
  console.log(`${cpus().length} cores; load average (1 min) ${loadBefore} before the requests, ${loadavg()[0].toFixed(1)} after`);
  console.table(table);
} finally {
  await client?.end().catch(() => undefined);
  await database.close();
}
