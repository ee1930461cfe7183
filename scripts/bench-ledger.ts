/**
 * The reseller ledger at scale, on PostgreSQL only. In a database of its own (migrated, dropped at the end): 1,000
 * resellers under the provider, BENCH_LEDGER_ROWS (default 10,000,000) ledger rows over two years, loaded through
 * COPY in time order with each reseller's running balance computed by the generator. The share of rows is skewed:
 * one big reseller has 12% of them (1,200,000 of 10 million), the others follow a long tail. While loading, the
 * per-row trigger that keeps `reseller_standing` is disabled (it would update one row per movement) and the ledger's
 * secondary indexes and reseller foreign key are dropped and made again at the end, as pg_restore does; one
 * statement then brings every reseller's standing in line with its ledger, and the daily summaries and the journal
 * lines are rebuilt.
 * Then ANALYZE, and through the real server (buildApp, `inject`, one request at a time) for the big reseller and a
 * typical one (the median): the balance, the first page of movements with its total, a year's balance history by
 * day (365 points) and by week. Prints p50/p95/p99 in ms.
 *
 *   npm run bench:ledger                      postgres://postgres@127.0.0.1:5432/test unless TEST_DATABASE_URL or DATABASE_URL
 *   BENCH_LEDGER_ROWS=1000000 BENCH_REQUESTS=200 npm run bench:ledger
 *   BENCH_KEEP=1 npm run bench:ledger         keeps the database (its URL is printed) to read plans by hand
 */
import { cpus, loadavg } from 'node:os';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { buildApp } from '@server/app';
import { ensureAdmin } from '@server/db/seed';
import { migratedDatabase } from '../test/server/helpers';
import { JOURNAL_OF_EVERY_ENTRY } from '../src/server/db/migrations/0140_ledger_accounts';
import { random } from '@server/db/seedSubscribers';
import { percentile } from './lib/percentile';

const ROWS = Number(process.env.BENCH_LEDGER_ROWS ?? 10_000_000);
const RESELLERS = 1_000;
/** The big reseller's share of the rows. */
const BIG_SHARE = 0.12;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 500);
const HISTORY_REQUESTS = Number(process.env.BENCH_HISTORY_REQUESTS ?? 100);
const PASSWORD = 'Bench@2026pass';
/** Leaves the database in place for EXPLAIN ANALYZE by hand. */
const KEEP = process.env.BENCH_KEEP === '1';
const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DAY_MS = 86_400_000;
/** The ledger covers the two years up to the first of this month (UTC). */
const END = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1);
const START = END - 730 * DAY_MS;

try {
  const probe = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 5000 });
  await probe.connect();
  await probe.end();
} catch (e) {
  console.error(`bench:ledger needs PostgreSQL (it measures PostgreSQL's plans at 10 million rows; PGlite is not measured).`);
  console.error(`No PostgreSQL at ${pgUrl.replace(/\/\/[^@]*@/, '//…@')}: ${(e as Error).message}`);
  console.error('Start one, or set TEST_DATABASE_URL (or DATABASE_URL) to a database this user may create databases from.');
  process.exit(1);
}
process.env.TEST_DATABASE_URL = pgUrl;

/** Cents as exact decimal text. */
function money(cents: number): string {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * Cumulative weights of the resellers (index 0 is the big one): BIG_SHARE for it, the rest by a Zipf-like tail, so
 * a few resellers have tens of thousands of rows and most a few thousand.
 */
function cumulativeWeights(): Float64Array {
  const tail = Array.from({ length: RESELLERS - 1 }, (_, i) => 1 / Math.pow(i + 20, 0.9));
  const sum = tail.reduce((a, b) => a + b, 0);
  const cumulative = new Float64Array(RESELLERS);
  let acc = BIG_SHARE;
  cumulative[0] = acc;
  tail.forEach((w, i) => {
    acc += (w / sum) * (1 - BIG_SHARE);
    cumulative[i + 1] = acc;
  });
  cumulative[RESELLERS - 1] = 1;
  return cumulative;
}

function pick(cumulative: Float64Array, r: number): number {
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] < r) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const METHODS = ['CREDIT_CARD', 'BIT_PAY', 'BANK_WIRE', 'STRIPE', 'MANUAL'];

/**
 * COPY text of the ledger in time order, 10,000 rows a chunk: each row's reseller drawn by weight, its amount a
 * purchase (most), a payment (when the balance runs low, or now and then) or a charge, its balance after the
 * reseller's running sum in cents. `counts` gathers rows per reseller.
 */
function* ledgerLines(resellerIds: number[], counts: Int32Array) {
  const rnd = random(20_260_101);
  const cumulative = cumulativeWeights();
  const balance = new Float64Array(RESELLERS);
  const step = (END - START) / ROWS;
  let lines: string[] = [];
  for (let i = 0; i < ROWS; i++) {
    const r = pick(cumulative, rnd());
    const at = new Date(START + Math.floor(i * step + rnd() * step)).toISOString();
    let kind: string;
    let cents: number;
    let method = '\\N';
    let reference: string;
    if (counts[r] === 0) {
      kind = 'opening';
      cents = 50_000 + Math.floor(rnd() * 500_000);
      reference = 'opening balance';
    } else if (balance[r] < 5_000 || rnd() < 0.02) {
      kind = 'payment';
      cents = 10_000 + Math.floor(rnd() * 490_000);
      method = METHODS[Math.floor(rnd() * METHODS.length)];
      reference = `payment ${i + 1}`;
    } else if (rnd() < 0.05) {
      kind = 'charge';
      cents = -(100 + Math.floor(rnd() * 2_000));
      reference = 'monthly charge';
    } else {
      kind = 'purchase';
      cents = -(10 + Math.floor(rnd() * 5_000));
      reference = `prepaid package ${i + 1}`;
    }
    balance[r] += cents;
    counts[r]++;
    lines.push(`${i + 1}\t${resellerIds[r]}\t${money(cents)}\tUSD\t${kind}\t${reference}\t${at}\t${money(balance[r])}\t0\t${method}\n`);
    if (lines.length === 10_000) {
      yield lines.join('');
      lines = [];
    }
  }
  if (lines.length) yield lines.join('');
}

const database = await migratedDatabase('postgres');
const db = database.db;
/** The loader's own connection, ended before the database is dropped (an open one would keep it). */
let client: pg.Client | undefined;
try {
  await ensureAdmin(db, PASSWORD);
  const { rows: created } = await sql<{ id: number }>`
    insert into reseller (name, parent_id, path)
    select 'Bench reseller ' || i, 1, '' from generate_series(1, ${RESELLERS}) i returning id`.execute(db);
  const resellerIds = created.map((r) => Number(r.id));
  await sql`update reseller set path = '/1/' || id || '/' where parent_id = 1 and path = ''`.execute(db);

  const started = performance.now();
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const counts = new Int32Array(RESELLERS);
  await client.query('begin');
  // The load's own shape: the per-row triggers that keep the standing and the daily summaries are off (they would
  // update a row per movement), no per-row foreign key lookup, indexes built once at the end.
  await client.query('alter table ledger_entry disable trigger ledger_entry_standing, disable trigger ledger_entry_day, disable trigger ledger_entry_lines');
  // Any other per-row trigger of the ledger still fires for each loaded row: said, so a slow load is explained.
  const { rows: others } = await client.query<{ name: string }>(
    `select tgname as name from pg_trigger where tgrelid = 'ledger_entry'::regclass and not tgisinternal
        and tgname not in ('ledger_entry_standing', 'ledger_entry_day', 'ledger_entry_day_update', 'ledger_entry_day_delete', 'ledger_entry_lines')`,
  );
  if (others.length) console.log(`Triggers left on during the load (each fires per row): ${others.map((t) => t.name).join(', ')}`);
  const { rows: indexes } = await client.query<{ name: string; def: string }>(
    `select indexrelid::regclass::text as name, pg_get_indexdef(indexrelid) as def from pg_index
      where indrelid = 'ledger_entry'::regclass and not indisprimary`,
  );
  for (const index of indexes) await client.query(`drop index ${index.name}`);
  const { rows: foreignKeys } = await client.query<{ name: string; def: string }>(
    `select conname as name, pg_get_constraintdef(oid) as def from pg_constraint where contype = 'f' and conrelid = 'ledger_entry'::regclass`,
  );
  for (const fk of foreignKeys) await client.query(`alter table ledger_entry drop constraint ${fk.name}`);
  await pipeline(
    Readable.from(ledgerLines(resellerIds, counts)),
    client.query(copyFrom('copy ledger_entry (id, reseller_id, amount, currency, kind, reference, created_at, balance_after, fee, method) from stdin')),
  );
  const copied = performance.now();
  await client.query(`select setval(pg_get_serial_sequence('ledger_entry', 'id'), ${ROWS})`);
  for (const index of indexes) await client.query(index.def);
  for (const fk of foreignKeys) await client.query(`alter table ledger_entry add constraint ${fk.name} ${fk.def}`);
  const indexed = performance.now();
  // What the triggers would have kept, one statement each over the whole ledger: every reseller's standing, the
  // daily summaries and the journal.
  await client.query(`update reseller_standing st set
        balance = coalesce((select balance_after from ledger_entry l where l.reseller_id = st.reseller_id order by id desc limit 1), 0),
        deposit = s.deposit, total_credit = s.total_credit
      from (select reseller_id, coalesce(sum(amount) filter (where kind = 'payment' and amount > 0), 0) as deposit,
              sum(greatest(amount, 0)) as total_credit
            from ledger_entry group by reseller_id) s
      where st.reseller_id = s.reseller_id`);
  const standing = performance.now();
  await client.query(`insert into ledger_day (reseller_id, day, credits, debits, closing_balance, last_at, last_entry_id)
      select reseller_id, (created_at at time zone 'UTC')::date, sum(greatest(amount, 0)), sum(least(amount, 0)),
        (array_agg(balance_after order by created_at desc, id desc))[1], max(created_at), (array_agg(id order by created_at desc, id desc))[1]
      from ledger_entry group by 1, 2`);
  const days = performance.now();
  // The journal lines the trigger would have written (two or three per movement), by the same mapping, in one statement.
  await client.query(JOURNAL_OF_EVERY_ENTRY);
  await client.query('alter table ledger_entry enable trigger ledger_entry_standing, enable trigger ledger_entry_day, enable trigger ledger_entry_lines');
  await client.query('commit');
  const done = performance.now();
  await client.query('vacuum analyze ledger_entry');
  await client.query('vacuum analyze reseller_standing');
  await client.query('vacuum analyze ledger_day');
  const analyzed = performance.now();
  await client.end();
  client = undefined;
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(
    `Loaded ${ROWS.toLocaleString('en')} ledger rows for ${RESELLERS.toLocaleString('en')} resellers in ${s(done - started)}: COPY ${s(copied - started)} ` +
      `(${Math.round(ROWS / ((copied - started) / 1000)).toLocaleString('en')} rows/s), indexes and foreign keys ${s(indexed - copied)}, ` +
      `standing ${s(standing - indexed)}, daily summaries ${s(days - standing)}, journal ${s(done - days)}; VACUUM ANALYZE ${s(analyzed - done)}`,
  );

  const { rows: check } = await sql<{ n: string }>`
    select count(*)::text as n from reseller_standing st
    where st.reseller_id = any(${resellerIds}) and st.balance <> (select balance_after from ledger_entry where reseller_id = st.reseller_id order by id desc limit 1)`.execute(
    db,
  );
  if (check[0].n !== '0') throw new Error(`${check[0].n} resellers' standing does not match their ledger`);

  const bySize = [...resellerIds.keys()].sort((a, b) => counts[b] - counts[a]);
  const big = bySize[0];
  const typical = bySize[Math.floor(bySize.length / 2)];

  const app = await buildApp({ database, jwtSecret: 'bench' });
  await app.ready();
  const jwt = (await app.inject({ method: 'POST', url: '/portal/auth', payload: { userName: 'admin', password: PASSWORD } })).json().jwt as string;
  const headers = { authorization: `Bearer ${jwt}` };
  const to = new Date(END - DAY_MS).toISOString().slice(0, 10);
  const from = new Date(END - 365 * DAY_MS).toISOString().slice(0, 10);

  const table: Record<string, string | number>[] = [];
  const load = () => loadavg()[0].toFixed(1);
  const loadBefore = load();
  for (const [who, index] of [
    ['big', big],
    ['typical', typical],
  ] as const) {
    const resellerId = resellerIds[index];
    const calls = [
      { name: 'GET /portal/ledger/balance', times: REQUESTS, request: { method: 'GET' as const, url: `/portal/ledger/balance?reseller_id=${resellerId}` } },
      {
        name: 'GET /portal/ledger/entries (first page of 50)',
        times: REQUESTS,
        request: { method: 'GET' as const, url: `/portal/ledger/entries?reseller_id=${resellerId}` },
      },
      {
        name: 'POST /portal/graphs/balanceHistory, a year by day',
        times: HISTORY_REQUESTS,
        request: { method: 'POST' as const, url: '/portal/graphs/balanceHistory', payload: { resellerId, from, to, interval: 'day' } },
      },
      {
        name: 'POST /portal/graphs/balanceHistory, a year by week',
        times: HISTORY_REQUESTS,
        request: { method: 'POST' as const, url: '/portal/graphs/balanceHistory', payload: { resellerId, from, to, interval: 'week' } },
      },
    ];
    for (const call of calls) {
      const send = () => app.inject({ ...call.request, headers });
      const first = await send();
      if (first.statusCode !== 200) throw new Error(`${call.name}: ${first.statusCode} ${first.body}`);
      const answer = first.json();
      for (let i = 0; i < 20; i++) await send(); // warm-up, not counted
      const times: number[] = [];
      for (let i = 0; i < call.times; i++) {
        const t = performance.now();
        const res = await send();
        times.push(performance.now() - t);
        if (res.statusCode !== 200) throw new Error(`${call.name}: ${res.statusCode}`);
      }
      times.sort((a, b) => a - b);
      const ms = (v: number) => Number(v.toFixed(2));
      table.push({
        reseller: `${who} (${counts[index].toLocaleString('en')} rows)`,
        call: call.name,
        answer:
          'balance' in answer
            ? `balance ${answer.balance}`
            : 'points' in answer
              ? `${answer.points.length} points`
              : `${answer.items.length} rows of ${answer.totalItemsCount.toLocaleString('en')}${answer.totalIsEstimate ? ' (estimate)' : ''}`,
        requests: call.times,
        'p50 ms': ms(percentile(times, 50)),
        'p95 ms': ms(percentile(times, 95)),
        'p99 ms': ms(percentile(times, 99)),
      });
    }
  }
  await app.close();
  console.log(`\nThrough the server (buildApp, inject, one request at a time, as the administrator), history ${from} to ${to}`);
  console.log(`${cpus().length} cores; load average (1 min) ${loadBefore} before the requests, ${load()} after`);
  console.table(table);
} finally {
  await client?.end().catch(() => undefined);
  if (KEEP) {
    console.log(`\nBENCH_KEEP: the database stays at ${database.url} (drop it when done)`);
    process.exit(0);
  }
  await database.close();
}
