/**
 * Rule upload benchmark: 100,000 roaming rules as a 13 MB CSV file, read from disk as the upload route reads the
 * file it has spooled: checked row by row with what applying would change (the preview), then applied in one
 * transaction, a batch of rows per statement, with the same functions `POST …/local/{id}/by-csv` runs; the peak
 * resident memory of the process above what it was before (sampled every 10 ms) and the time, on PGlite (a data
 * folder on disk, as a server has it) and on PostgreSQL side by side. The HTTP call itself takes files under
 * 4 MB (about 40,000 short rules); the bench measures the engine beyond it.
 *
 *   npm run bench:rules                 PGlite, plus PostgreSQL at TEST_DATABASE_URL or DATABASE_URL
 *   BENCH_RULES=20000 npm run bench:rules
 */
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { execFileSync } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import type { Kysely } from 'kysely';
import { openDatabase, type Db } from '@server/db';
import { ensureAdmin, seedDemo } from '@server/db/seed';
import { readRules, replaceRules, RuleDiff } from '@server/domains/pricing/csv';
import { knownNetworks, RULE_FIELDS, RuleStore } from '@server/domains/pricing/rules';
import { ensureNetworks } from '@server/domains/networks/catalogue';
import { freshDatabase } from '../test/server/helpers';
import type { Database } from '../src/server/db/types';

const RULES = Number(process.env.BENCH_RULES ?? 100_000);
const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;

/** Writes the file line by line (it is never held whole, here or by the reader). */
async function writeRuleFile(path: string, n: number, plmns: { mcc: string; mnc: string }[]) {
  const out = createWriteStream(path);
  const write = async (line: string) => {
    if (!out.write(line)) await once(out, 'drain');
  };
  await write(`${RULE_FIELDS.join(',')}\r\n`);
  const countries = ['DE', 'FR', 'ES', 'NL', 'NO', 'US', 'IL', 'JP', 'CH', 'GB'];
  for (let i = 0; i < n; i++) {
    const values: Record<string, string> = {
      country: countries[i % 10],
      mcc: plmns[i % plmns.length].mcc,
      mnc: plmns[i % plmns.length].mnc,
      network: `Network ${i}`,
      currency: 'EUR',
      dataRate: `0.${String(i % 1000000).padStart(6, '0')}`,
      moCallRate: '0.09',
      mtCallRate: '0.01',
      moSmsRate: '0.04',
      mtSmsRate: '0',
      dailyCap: i % 3 === 0 ? 'true' : 'false',
      dailyCapLimit: i % 3 === 0 ? '5' : '',
      dailyCapTimeZone: i % 3 === 0 ? 'Europe/Berlin' : '',
      discounted: 'false',
      displaySponsorName: '',
      sponsorId: '',
      sponsorName: '',
      startDate: '2026-01-01T00:00:00.000Z',
      endDate: '2026-12-31T23:59:59.000Z',
      hidden: 'false',
    };
    await write(`${RULE_FIELDS.map((f) => values[f] ?? '').join(',')}\r\n`);
  }
  out.end();
  await once(out, 'finish');
}

let peak = 0;
let peakHeap = 0;
let peakExternal = 0;
const sample = () => {
  const m = process.memoryUsage();
  peak = Math.max(peak, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
  peakExternal = Math.max(peakExternal, m.external);
};

/** Wall time and this process's CPU time (on PGlite the database's work too; on PostgreSQL the client's only). */
async function time<T>(fn: () => Promise<T> | T): Promise<[T, number, number]> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const result = await fn();
  sample();
  const used = process.cpuUsage(cpu);
  return [result, performance.now() - started, (used.user + used.system) / 1000];
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

async function benchEngine(engine: 'pglite' | 'postgres') {
  const dir = mkdtempSync(join(tmpdir(), 'bench-rules-'));
  if (engine === 'postgres') process.env.TEST_DATABASE_URL = pgUrl;
  const database: Db = engine === 'pglite' ? await openDatabase({ dataDir: join(dir, 'data') }) : await freshDatabase(engine);
  const db = database.db as unknown as Kysely<Database>;
  try {
    await ensureAdmin(database.db, 'Bench@2026pass');
    await seedDemo(database.db, { networkEvents: false });
    const plan = await db.selectFrom('pricingPlan').select('id').orderBy('id').executeTakeFirstOrThrow();
    const planId = Number(plan.id);
    await ensureNetworks(db);
    const plmns = await db.selectFrom('network').select(['mcc', 'mnc']).orderBy('plmn').execute();
    const networks = await knownNetworks(db);
    const file = join(dir, 'rules.csv');
    await writeRuleFile(file, RULES, plmns);
    const bytes = statSync(file).size;
    // Idle: after a full collection where the runtime allows one (node --expose-gc), with the file on disk.
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((r) => setTimeout(r, 200));
    const idle = process.memoryUsage();
    peak = idle.rss;
    peakHeap = idle.heapUsed;
    peakExternal = idle.external;
    const timer = setInterval(sample, 10);
    const [preview, previewMs, previewCpu] = await time(async () => {
      const diff = await RuleDiff.of(new RuleStore(db), planId);
      const read = await readRules(createReadStream(file), networks, (rows) => diff.add(rows));
      return { ...read, changes: diff.result() };
    });
    const previewPeak = peak;
    const [applied, applyMs, applyCpu] = await time(() => replaceRules(db, planId, createReadStream(file), networks));
    clearInterval(timer);
    const count = await db
      .selectFrom('roamingRule')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('planId', '=', planId)
      .executeTakeFirstOrThrow();
    if (Number(count.n) !== applied.applied || applied.applied !== RULES - preview.rejected.length)
      throw new Error(`applied ${applied.applied}, stored ${count.n}`);
    return {
      engine,
      rules: RULES,
      'file MB': Number((bytes / 1e6).toFixed(1)),
      'preview s': Number((previewMs / 1000).toFixed(2)),
      rejected: preview.rejected.length,
      added: preview.changes.added,
      'apply s': Number((applyMs / 1000).toFixed(2)),
      'total s': Number(((previewMs + applyMs) / 1000).toFixed(2)),
      'process CPU s': Number(((previewCpu + applyCpu) / 1000).toFixed(2)),
      'idle RSS MB': mb(idle.rss),
      'peak above idle, preview MB': mb(previewPeak - idle.rss),
      'peak above idle MB': mb(peak - idle.rss),
      'of it JS heap MB': mb(peakHeap - idle.heapUsed),
      'external MB': mb(peakExternal - idle.external),
    };
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// Each engine in a process of its own, started as the server is (npm run serve's flags, main.ts's heap setting),
// so one engine's memory is not the other's idle.
if (process.env.BENCH_ENGINE) {
  setFlagsFromString('--heap-growing-percent=30');
  console.log(JSON.stringify(await benchEngine(process.env.BENCH_ENGINE as 'pglite' | 'postgres')));
} else {
  const run = (engine: string) =>
    JSON.parse(
      execFileSync(process.execPath, ['--max-semi-space-size=64', '--expose-gc', '--import', 'tsx', 'scripts/bench-rules.ts'], {
        env: { ...process.env, BENCH_ENGINE: engine },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      })
        .trim()
        .split('\n')
        .pop()!,
    );
  const rows = [run('pglite')];
  if (pgUrl) rows.push(run('postgres'));
  else console.log('PostgreSQL skipped: set TEST_DATABASE_URL or DATABASE_URL to include it.');
  console.log(`\nRule upload engine (check, preview of changes, apply), ${RULES.toLocaleString('en')} rules read from a file on disk`);
  console.table(rows);
}
