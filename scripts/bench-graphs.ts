/**
 * The dashboard's graph calls at the specification's scale, on PostgreSQL only (docs/performance.md, "Dashboard graphs
 * at a million subscribers"). In a database of its own (migrated, dropped at the end):
 *
 * - the demo resellers and accounts and BENCH_GRAPHS_SUBSCRIBERS subscribers (default 1,000,000) through COPY;
 * - a year of usage of BENCH_GRAPHS_RECORDS hourly records a subscriber on average (default 100: 100 million for a
 *   million subscribers), in two parts:
 *   - the last BENCH_GRAPHS_RAW_DAYS UTC days (default 2, to now) as raw `usage_record` rows through COPY, the rollup
 *     triggers on: every rollup level of those days is built by the triggers themselves;
 *   - the days of the year before them generated as what their records roll up to, never as records: per subscriber
 *     and active day its records, bytes and network (skewed: a few subscribers use most), copied into a staging table
 *     and rolled up from it in SQL the way the triggers add them, in time order as the triggers write them (per
 *     subscriber by day and month, and by hour in the days holding the custom ranges' ends; per reseller, account
 *     and network by hour, day and month; per reseller by hour, day and month). The quarter-hour rows and the other
 *     days' per-subscriber hours are not generated: a range reads them only in the hours and days holding its two
 *     ends, the named ranges' ends fall in the raw days, and the custom ranges' ends on whole hours;
 *   - each subscriber's latest quarter hour with usage, the UTC days it used data on, their histograms by day and hour
 *     and the steps between those days (`subscriber_activity`, `active_day`, `active_hour`, `active_day_prev`) built
 *     from the per-subscriber rollups, before the raw days move them forward;
 *   - each subscriber's bytes of a day and the day before (`usage_subscriber_recent_days`) built from the generated
 *     days, before the raw days add theirs;
 *   - each subscriber's bytes over the last 2, 8, 32 and 367 UTC days (`usage_subscriber_span`) likewise;
 * - BENCH_GRAPHS_SALES package sales over the year (default: one a subscriber), the sales rollups (every level, the
 *   per-reseller ones included) then built from them by the sales rollup's own function.
 *
 * Then, through the real server (buildApp, `inject`, BENCH_CLIENTS requests at a time, default 8; BENCH_REQUESTS a
 * call, default 48) as the administrator in Europe/Berlin, every graph call over every range (the last 24 hours, 7 and
 * 30 days, 12 months, and a custom 92 days and 6 months ending a week ago, whose ends fall in generated days), with
 * the load average. Prints p50/p95/p99 in ms per call and range; there the Usage screen's totals (`usageBy`) are not
 * kept, so each of its requests adds up its range. Then, for each `usageBy` call, the screen as used: a first page
 * alone (which keeps the totals), then pages 1 to 20 of the same question read from them.
 *
 *   npm run bench:graphs          postgres://postgres@127.0.0.1:5432/test unless TEST_DATABASE_URL or DATABASE_URL
 *   BENCH_GRAPHS_SUBSCRIBERS=50000 BENCH_REQUESTS=16 npm run bench:graphs   a quick run
 *   BENCH_RANGES=last30Days,last12Months BENCH_CALLS=usage,usageBy:subscriber   only those
 *   BENCH_EXPLAIN=1 npm run bench:graphs   also prints the plans of the totals per subscriber over 12 months and of the
 *                                          map's countries over the last 24 hours, 12 months and the custom 92 days
 *   BENCH_GRAPHS_DATABASE=bench_graphs npm run bench:graphs   keeps the database under that name: the first run loads
 *                                          it and leaves it, later runs only migrate it and time the calls (its raw
 *                                          days stay those of the load); drop it by hand when done
 */
import { cpus, loadavg } from 'node:os';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { buildApp } from '@server/app';
import { buildSubscriberActivityWithDays } from '@server/db/migrations/0180_subscriber_active_days';
import { buildActiveDayPrev } from '@server/db/migrations/0181_active_day_prev';
import { buildActiveHour } from '@server/db/migrations/0182_active_hour';
import { buildRecentDays } from '@server/db/migrations/0178_subscriber_recent_days';
import { buildSpans } from '@server/db/migrations/0184_subscriber_spans';
import { ensureAdmin, seedDemo } from '@server/db/seed';
import { openDatabase } from '@server/db';
import { copySubscribers } from './lib/copySubscribers';
import { graphRead } from '@server/domains/graphs/rollups';
import { totalsQuery } from '@server/domains/graphs/usageBy';
import { countriesQuery } from '@server/domains/graphs/countries';
import { resolveRange } from '@server/domains/graphs/ranges';
import { freshDatabase } from '../test/server/helpers';
import { random } from '@server/db/seedSubscribers';
import { percentile } from './lib/percentile';

const SUBSCRIBERS = Number(process.env.BENCH_GRAPHS_SUBSCRIBERS ?? 1_000_000);
const PER_SUBSCRIBER = Number(process.env.BENCH_GRAPHS_RECORDS ?? 100);
const RAW_DAYS = Number(process.env.BENCH_GRAPHS_RAW_DAYS ?? 2);
const SALES = Number(process.env.BENCH_GRAPHS_SALES ?? SUBSCRIBERS);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 48);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const ZONE = 'Europe/Berlin';
const PASSWORD = 'Bench@2026pass';
const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PLMNS = ['26201', '26202', '310260', '23410', '20404', '20801', '22201', '21401', '\\N'];
const DAY_MS = 86_400_000;
/** Records of an active day: 1 to 8 hourly records, 4.5 on average. */
const PER_ACTIVE_DAY = 4.5;
/** The UTC date `offset` days ago. */
const day = (offset: number) => new Date(Date.now() - offset * DAY_MS).toISOString().slice(0, 10);
/** The custom ranges (local dates in ZONE, both ends included), ending a week ago, in generated days. */
const CUSTOM = {
  custom92Days: { range: 'custom', from: day(98), to: day(7) },
  custom6Months: { range: 'custom', from: day(190), to: day(7) },
};

try {
  const probe = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 5000 });
  await probe.connect();
  await probe.end();
} catch (e) {
  console.error(`bench:graphs needs PostgreSQL; none at ${pgUrl.replace(/\/\/[^@]*@/, '//…@')}: ${(e as Error).message}`);
  process.exit(1);
}
process.env.TEST_DATABASE_URL = pgUrl;

type Sub = { id: number; imsi: string; reseller: number; account: number };
/** Subscribers' shares of the usage: skewed, a few use most (weight w², normalised below). */
function weights(n: number) {
  const next = random(3);
  return Array.from({ length: n }, () => 0.2 + 1.8 * next() ** 2);
}

const rawStart = () => {
  const d = new Date();
  d.setUTCHours(0, 0, 0, 0);
  return d.getTime() - (RAW_DAYS - 1) * DAY_MS;
};

/**
 * COPY lines of the staging table: per subscriber and active day of the generated days (a year back to the raw
 * window), the day's records, bytes up and down, network and its hour. About PER_SUBSCRIBER × (generated days / 365)
 * records a subscriber, spread over its active days.
 */
function* stagingLines(subs: Sub[], w: number[]) {
  const next = random(7);
  const end = rawStart();
  const start = end - (365 - RAW_DAYS) * DAY_MS;
  const days = (end - start) / DAY_MS;
  const mean = w.reduce((a, b) => a + b, 0) / w.length;
  let lines: string[] = [];
  for (let i = 0; i < subs.length; i++) {
    const s = subs[i];
    const records = (PER_SUBSCRIBER * (days / 365) * w[i]) / mean;
    const active = Math.max(1, Math.round(records / PER_ACTIVE_DAY));
    const home = PLMNS[i % PLMNS.length];
    for (let k = 0; k < active; k++) {
      const day = new Date(start + Math.floor(next() * days) * DAY_MS).toISOString().slice(0, 10);
      const n = 1 + Math.floor(next() * 8);
      const plmn = next() < 0.8 ? home : PLMNS[Math.floor(next() * PLMNS.length)];
      const up = n * Math.floor(next() * 500_000);
      const down = n * Math.floor(next() * 5_000_000);
      lines.push(`${s.id}\t${s.reseller}\t${s.account}\t${day}\t${Math.floor(next() * 24)}\t${plmn}\t${up}\t${down}\t${n}\n`);
    }
    if (lines.length >= 10_000) {
      yield lines.join('');
      lines = [];
    }
  }
  if (lines.length) yield lines.join('');
}

/** COPY lines of the raw records of the last RAW_DAYS days, to now: each subscriber's share, one hourly record each. */
function* rawLines(subs: Sub[], w: number[]) {
  const next = random(11);
  const start = rawStart();
  const span = Date.now() - start;
  const mean = w.reduce((a, b) => a + b, 0) / w.length;
  let lines: string[] = [];
  for (let i = 0; i < subs.length; i++) {
    const expected = (PER_SUBSCRIBER * (span / DAY_MS / 365) * w[i]) / mean;
    const count = Math.floor(expected) + (next() < expected % 1 ? 1 : 0);
    for (let k = 0; k < count; k++) {
      const at = new Date(start + Math.floor(next() * span)).toISOString();
      const plmn = next() < 0.8 ? PLMNS[i % PLMNS.length] : PLMNS[Math.floor(next() * PLMNS.length)];
      lines.push(`${subs[i].id}\t${subs[i].imsi}\t${at}\tUPDATE\t${plmn}\t${Math.floor(next() * 500_000)}\t${Math.floor(next() * 5_000_000)}\n`);
    }
    if (lines.length >= 10_000) {
      yield lines.join('');
      lines = [];
    }
  }
  if (lines.length) yield lines.join('');
}

/** Milliseconds, whole. */
const ms = (v: number) => Number(v.toFixed(0));

/**
 * The times of REQUESTS requests made by `send` (given how many are left to send), CLIENTS at a time, sorted; any
 * answer but 200 stops the bench.
 */
async function timedRequests(url: string, send: (left: number) => Promise<{ statusCode: number }>) {
  const times: number[] = [];
  let left = REQUESTS;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (left-- > 0) {
        const start = performance.now();
        const res = await send(left);
        times.push(performance.now() - start);
        if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
      }
    }),
  );
  return times.sort((a, b) => a - b);
}

/**
 * The Usage screen as it is used: a first page (which adds up the range and keeps the totals), then the next pages
 * of the same question, read from the kept totals (`usageTotals`, totalsCache.ts), `CLIENTS` at a time.
 */
async function pageTurns(calls: { name: string; range: string; url: string; payload: object }[], headers: Record<string, string>) {
  const app = await buildApp({ database, jwtSecret: 'bench' });
  await app.ready();
  const rows: Record<string, string | number>[] = [];
  try {
    for (const c of calls) {
      const send = (page: number) => app.inject({ method: 'POST', url: c.url, payload: { ...c.payload, page }, headers });
      const start = performance.now();
      const first = await send(0);
      const firstMs = performance.now() - start;
      if (first.statusCode !== 200) throw new Error(`${c.url}: ${first.statusCode} ${first.body}`);
      const times = await timedRequests(c.url, (left) => send(1 + (left % 20)));
      rows.push({
        call: c.name,
        range: c.range,
        'first page ms': ms(firstMs),
        'next pages p50 ms': ms(percentile(times, 50)),
        'p99 ms': ms(percentile(times, 99)),
      });
    }
  } finally {
    await app.close();
  }
  return rows;
}

const KEEP = process.env.BENCH_GRAPHS_DATABASE;
/** The kept database when BENCH_GRAPHS_DATABASE names one, created empty when it is not there yet; else a fresh one. */
async function benchDatabase(): Promise<{ database: Awaited<ReturnType<typeof freshDatabase>>; loaded: boolean }> {
  if (!KEEP) return { database: await freshDatabase('postgres'), loaded: false };
  if (!/^[a-z_][a-z0-9_]*$/.test(KEEP)) throw new Error(`BENCH_GRAPHS_DATABASE: ${KEEP} is not a plain database name`);
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [KEEP]);
  if (!rowCount) await admin.query(`create database ${KEEP}`);
  await admin.end();
  const url = new URL(pgUrl);
  url.pathname = `/${KEEP}`;
  const kept = await openDatabase({ databaseUrl: url.toString(), queue: { limit: 10_000, waitMs: 120_000 } });
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from subscriber`.execute(kept.db);
  return { database: { ...kept, url: url.toString() }, loaded: rows[0].n > 0 };
}
const { database, loaded } = await benchDatabase();
const db = database.db;
let client: pg.Client | undefined;
const s = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
const n = (v: number | string) => Number(v).toLocaleString('en');
try {
  if (loaded) console.log(`The kept database ${KEEP}: nothing loaded`);
  else {
    await ensureAdmin(db, PASSWORD);
    await seedDemo(db, { subscribers: 0, networkEvents: false });
    const load: string[] = [];
    const t0 = performance.now();
    await copySubscribers(db, SUBSCRIBERS, database.url ?? pgUrl);
    const { rows: subs } = await sql<Sub>`select subscriber_id as id, imsi, reseller_id as reseller, account_id as account
      from subscriber order by subscriber_id`.execute(db);
    const w = weights(subs.length);
    load.push(`${n(subs.length)} subscribers ${s(performance.now() - t0)}`);

    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows: schemaRow } = await client.query<{ schema: string }>(`select current_schema() as schema`);
    await client.query(`set search_path = ${schemaRow[0].schema}, public`);
    await client.query(`set maintenance_work_mem = '512MB'`);
    await client.query(`set work_mem = '256MB'`);
    const q = async (label: string, text: string) => {
      const t = performance.now();
      const r = await client!.query(text);
      load.push(`${label} ${s(performance.now() - t)}${r.rowCount !== null && r.command === 'INSERT' ? ` (${n(r.rowCount)} rows)` : ''}`);
      return r;
    };

    // The generated days: the staging table, then each rollup from it as the triggers would add it.
    let t = performance.now();
    await client.query(`create unlogged table bench_usage_day (subscriber_id integer, reseller_id integer, account_id integer, day date,
      hour integer, plmn text, bytes_up bigint, bytes_down bigint, records integer)`);
    await pipeline(
      Readable.from(stagingLines(subs, w)),
      client.query(copyFrom('copy bench_usage_day (subscriber_id, reseller_id, account_id, day, hour, plmn, bytes_up, bytes_down, records) from stdin')),
    );
    const { rows: staged } = await client.query<{ n: string; r: string }>(`select count(*)::text as n, sum(records)::text as r from bench_usage_day`);
    load.push(`generated subscriber-days through COPY ${s(performance.now() - t)} (${n(staged[0].n)} subscriber-days standing for ${n(staged[0].r)} records)`);
    /** Loads a big rollup with its indexes dropped, then builds them anew (as a restore does). */
    const bulk = async (table: string, label: string, insert: string) => {
      const { rows: indexes } = await client!.query<{ name: string; def: string; pk: boolean }>(
        `select i.relname as name, pg_get_indexdef(i.oid) as def, x.indisprimary as pk
         from pg_index x join pg_class i on i.oid = x.indexrelid where x.indrelid = $1::regclass`,
        [table],
      );
      for (const i of indexes) await client!.query(i.pk ? `alter table ${table} drop constraint ${i.name}` : `drop index ${i.name}`);
      await q(label, insert);
      const ti = performance.now();
      for (const i of indexes) {
        await client!.query(i.def);
        if (i.pk) await client!.query(`alter table ${table} add constraint ${i.name} primary key using index ${i.name}`);
      }
      load.push(`${table} indexes ${s(performance.now() - ti)}`);
    };
    const utc = (expr: string) => `(${expr})::timestamp at time zone 'UTC'`;
    await bulk(
      'usage_subscriber_day',
      'usage_subscriber_day',
      `insert into usage_subscriber_day (subscriber_id, slot, reseller_id, account_id, bytes_up, bytes_down, records)
       select subscriber_id, ${utc('day')}, min(reseller_id), min(account_id), sum(bytes_up), sum(bytes_down), sum(records) from bench_usage_day group by 1, 2 order by 2`,
    );
    // The per-subscriber hours of the UTC days holding the custom ranges' ends (a range reads hours only in the days
    // holding its ends; the named ranges' ends fall in the raw days, which have every level).
    const ends = await Promise.all(Object.values(CUSTOM).map((body) => resolveRange(db, body, ZONE)));
    const endDays = [...new Set(ends.flatMap((r) => [r.from, r.to]).map((at) => `'${at.slice(0, 10)}'`))].join(', ');
    await q(
      `usage_subscriber_hour of the custom ranges' end days (${endDays})`,
      `insert into usage_subscriber_hour (subscriber_id, slot, reseller_id, account_id, bytes_up, bytes_down, records)
       select subscriber_id, ${utc("day + hour * interval '1 hour'")}, min(reseller_id), min(account_id), sum(bytes_up), sum(bytes_down), sum(records)
       from bench_usage_day where day in (${endDays}) group by 1, 2 order by 2`,
    );
    await bulk(
      'usage_subscriber_month',
      'usage_subscriber_month',
      `insert into usage_subscriber_month (subscriber_id, slot, reseller_id, account_id, bytes_up, bytes_down, records)
       select subscriber_id, ${utc("date_trunc('month', day)")}, min(reseller_id), min(account_id), sum(bytes_up), sum(bytes_down), sum(records)
       from bench_usage_day group by 1, 2 order by 2`,
    );
    await q(
      'usage_hour',
      `insert into usage_hour (slot, reseller_id, account_id, plmn, bytes_up, bytes_down, records)
       select ${utc("day + hour * interval '1 hour'")}, reseller_id, account_id, coalesce(plmn, ''), sum(bytes_up), sum(bytes_down), sum(records)
       from bench_usage_day group by 1, 2, 3, 4 order by 1`,
    );
    await client.query('drop table bench_usage_day');
    for (const [table, unit, source] of [
      ['usage_day', 'day', 'usage_hour'],
      ['usage_month', 'month', 'usage_day'],
    ])
      await q(
        table,
        `insert into ${table} (slot, reseller_id, account_id, plmn, bytes_up, bytes_down, records)
         select date_trunc('${unit}', slot at time zone 'UTC') at time zone 'UTC', reseller_id, account_id, plmn, sum(bytes_up), sum(bytes_down), sum(records)
         from ${source} group by 1, 2, 3, 4`,
      );
    for (const [table, source] of [
      ['usage_reseller_hour', 'usage_hour'],
      ['usage_reseller_day', 'usage_day'],
      ['usage_reseller_month', 'usage_month'],
    ])
      await q(
        table,
        `insert into ${table} (reseller_id, slot, bytes_up, bytes_down, records) select reseller_id, slot, sum(bytes_up), sum(bytes_down), sum(records)
         from ${source} group by 1, 2`,
      );

    // Each subscriber's latest quarter hour with usage and the histogram of those by day (migration 0176), built from
    // the per-subscriber rollups with their own triggers off (the generated days have no hours: their latest is the
    // day's start); the raw days then move them forward through the usage triggers.
    await client.query('alter table subscriber_activity disable trigger user');
    t = performance.now();
    await buildSubscriberActivityWithDays(db);
    load.push(`subscriber_activity (with its day bits, migration 0180) and active_day ${s(performance.now() - t)}`);
    t = performance.now();
    await buildActiveDayPrev(db);
    await buildActiveHour(db);
    load.push(`active_day_prev and active_hour (migrations 0181, 0182) ${s(performance.now() - t)}`);
    await client.query('alter table subscriber_activity enable trigger user');
    // Each subscriber's bytes of today and yesterday (migration 0178) as far as generated days hold them (the day
    // before the raw days counts for the first raw day's row); the raw days add theirs through the triggers.
    await buildRecentDays(db);
    // Each subscriber's data over the last 2, 8, 32 and 367 UTC days (migration 0184), as far as generated days hold
    // it; the raw days add theirs through the triggers.
    t = performance.now();
    await buildSpans(db);
    load.push(`usage_subscriber_span (migration 0184) ${s(performance.now() - t)}`);

    // The raw days: records through COPY, every rollup level added by the triggers.
    t = performance.now();
    await pipeline(
      Readable.from(rawLines(subs, w)),
      client.query(copyFrom('copy usage_record (subscriber_id, imsi, at, request_type, plmn, bytes_up, bytes_down) from stdin')),
    );
    const { rows: rawCount } = await client.query<{ n: string }>(`select count(*)::text as n from usage_record`);
    load.push(`${n(rawCount[0].n)} raw usage records of the last ${RAW_DAYS} days through COPY with the rollup triggers ${s(performance.now() - t)}`);

    // Package sales over the year, their rollups built from them afterwards (the sales triggers' own function).
    await client.query('alter table prepaid_package disable trigger prepaid_package_sales_insert');
    await q(
      `${n(SALES)} package sales`,
      `insert into prepaid_package (template_id, subscriber_id, reseller_id, account_id, location_zone_id, period_days, price,
        sale_kind, sold_by, status, payment_date, purchase_date)
      select t.id, s.subscriber_id, s.reseller_id, s.account_id, t.location_zone_id, t.period_days, t.price, 'purchase', 'bench', 'active', at, at
      from (select g, now() - random() * interval '365 days' as at, 1 + floor(random() * ${subs.length})::int as k from generate_series(1, ${SALES}) g) x
      join (select row_number() over (order by subscriber_id) as k, * from subscriber) s on s.k = x.k
      join (select row_number() over (order by id) - 1 as k, * from prepaid_template) t on t.k = x.g % (select count(*) from prepaid_template)`,
    );
    await client.query('alter table prepaid_package enable trigger prepaid_package_sales_insert');
    await q('the sales rollups', `select sales_rollup_add(array_agg(id)) from prepaid_package where sale_kind = 'purchase'`);

    t = performance.now();
    const tables = [
      'usage_record',
      'usage_slot',
      'usage_hour',
      'usage_day',
      'usage_month',
      'usage_subscriber_slot',
      'usage_subscriber_hour',
      'usage_subscriber_day',
      'usage_subscriber_month',
      'usage_subscriber_recent_days',
      'usage_reseller_hour',
      'usage_reseller_day',
      'usage_reseller_month',
      'sales_slot',
      'sales_hour',
      'sales_day',
      'sales_month',
      'sales_reseller_hour',
      'sales_reseller_day',
      'sales_reseller_month',
      'sales_rollup_key',
      'subscriber_activity',
      'active_day',
      'prepaid_package',
      'subscriber',
    ];
    for (const table of tables) await client.query(`vacuum analyze ${table}`);
    load.push(`vacuum analyze ${s(performance.now() - t)}`);
    const { rows: sizes } = await client.query<{ t: string; n: string; size: string }>(
      tables
        .filter((x) => x.includes('_'))
        .map((x) => `select '${x}' as t, count(*)::text as n, pg_size_pretty(pg_total_relation_size('${x}')) as size from ${x}`)
        .join(' union all '),
    );
    await client.end();
    client = undefined;
    console.log(
      `Load (${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}): ${s(performance.now() - t0)} in all`,
    );
    for (const line of load) console.log(`  ${line}`);
    console.log(`Rows: ${sizes.map((r) => `${r.t} ${n(r.n)} (${r.size})`).join(', ')}`);

    // The incremental path: a batch of 10,000 new records through every trigger.
    const tb = performance.now();
    await sql`insert into usage_record (subscriber_id, imsi, at, request_type, bytes_up, bytes_down)
      select s.subscriber_id, s.imsi, now() - random() * interval '1 hour', 'UPDATE', 1000, 10000 from subscriber s limit 10000`.execute(db);
    console.log(`A batch of 10,000 new usage records with its rollup upserts: ${(performance.now() - tb).toFixed(0)} ms`);
  }

  if (process.env.BENCH_EXPLAIN === '1') {
    // As the calls read (graphRead: no JIT, 64 MB to group in).
    const explain = (query: CompiledQuery) =>
      graphRead(db, async (trx) => {
        const { rows: plan } = await sql
          .raw<{ 'QUERY PLAN': string }>(
            `explain (analyze, buffers) ${query.sql.replace(/\$(\d+)/g, (_m, i) => `'${String(query.parameters[Number(i) - 1]).replace(/'/g, "''")}'`)}`,
          )
          .execute(trx);
        console.log(plan.map((r) => Object.values(r)[0]).join('\n'));
      });
    await explain(
      sql`select count(*) from ${totalsQuery(await resolveRange(db, { range: 'last12Months' }, ZONE), 'subscriber', sql`true`, false, null)} t`.compile(db),
    );
    for (const body of [{ range: 'last24Hours' }, { range: 'last12Months' }, CUSTOM.custom92Days])
      await explain(countriesQuery(await resolveRange(db, body, ZONE), sql`true`).compile(db));
  }

  // The Usage screen's totals are not kept here: each request adds up its range (or reads the spans: the totals per
  // subscriber, largest first). The page turns below use them.
  const app = await buildApp({ database, jwtSecret: 'bench', usageTotals: { keepMs: 0 } });
  await app.ready();
  const jwt = (await app.inject({ method: 'POST', url: '/portal/auth', payload: { userName: 'admin', password: PASSWORD } })).json().jwt as string;
  const RANGES: Record<string, { body: object; history: object }> = {
    last24Hours: { body: { range: 'last24Hours' }, history: { from: day(1), to: day(0) } },
    last7Days: { body: { range: 'last7Days' }, history: { from: day(6), to: day(0) } },
    last30Days: { body: { range: 'last30Days' }, history: { from: day(29), to: day(0) } },
    last12Months: { body: { range: 'last12Months' }, history: { from: day(364), to: day(0), interval: 'month' } },
    custom92Days: { body: CUSTOM.custom92Days, history: { from: day(98), to: day(7) } },
    custom6Months: { body: CUSTOM.custom6Months, history: { from: day(190), to: day(7), interval: 'month' } },
  };
  const wanted = (process.env.BENCH_RANGES ?? Object.keys(RANGES).join(',')).split(',');
  const ranged = ['usage', 'sales', 'salesTotal', 'salesTotalByCountry', 'salesTotalByCustomer', 'salesTotalByOperator', 'salesTotalByVendor', 'countries'];
  const dimensions = ['account', 'reseller', 'country', 'operator', 'group', 'subscriber'];
  const calls: { name: string; range: string; url: string; payload: object }[] = [];
  for (const range of wanted) {
    const r = RANGES[range];
    for (const url of ranged) calls.push({ name: url, range, url: `/portal/graphs/${url}`, payload: r.body });
    calls.push({ name: 'balanceHistory', range, url: '/portal/graphs/balanceHistory', payload: r.history });
    for (const dimension of dimensions)
      calls.push({ name: `usageBy:${dimension}`, range, url: '/portal/graphs/usageBy', payload: { ...r.body, dimension, page: 0, size: 25 } });
  }
  calls.push({ name: 'trends', range: '-', url: '/portal/graphs/trends', payload: {} });
  calls.push({ name: 'top24Hours', range: '-', url: '/portal/subscriber-info/top24Hours', payload: {} });
  const only = process.env.BENCH_CALLS?.split(',');
  const table: Record<string, string | number>[] = [];
  const headers = { authorization: `Bearer ${jwt}`, 'x-time-zone': ZONE };
  const tr = performance.now();
  for (const c of calls.filter((x) => !only || only.includes(x.name))) {
    const send = () => app.inject({ method: 'POST', url: c.url, payload: c.payload, headers });
    const first = await send();
    if (first.statusCode !== 200) throw new Error(`${c.url}: ${first.statusCode} ${first.body}`);
    await send();
    const before = loadavg()[0];
    const times = await timedRequests(c.url, send);
    const row = { call: c.name, range: c.range, 'p50 ms': ms(percentile(times, 50)), 'p95 ms': ms(percentile(times, 95)), 'p99 ms': ms(percentile(times, 99)) };
    table.push({ ...row, load: `${before.toFixed(1)}–${loadavg()[0].toFixed(1)}` });
    console.log(JSON.stringify(table[table.length - 1]));
  }
  await app.close();
  console.log(
    `\nThrough the server (buildApp, inject, ${CLIENTS} at a time, ${REQUESTS} requests per call, X-Time-Zone ${ZONE}, the administrator) in ${s(performance.now() - tr)}`,
  );
  const turns = await pageTurns(
    calls.filter((x) => x.name.startsWith('usageBy:') && (!only || only.includes(x.name))),
    headers,
  );
  if (turns.length) {
    console.log(
      `\nThe Usage screen's page turns: a first page alone, then its next pages (1 to 20, ${CLIENTS} at a time, ${REQUESTS} requests): from the spans where they answer (the largest first, the administrator), else from the totals the first page kept`,
    );
    console.table(turns);
  }
  console.log(
    `${cpus().length} cores; load average (1 min) per call in the last column; now ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.table(table);
} finally {
  await client?.end().catch(() => undefined);
  await database.close();
  if (KEEP) console.log(`The database stays as ${KEEP} (BENCH_GRAPHS_DATABASE)`);
}
