/**
 * Rule upload benchmark: 100,000 roaming rules as a CSV file, read (papaparse), checked row by row (the preview)
 * and applied in one transaction, with the same functions `POST …/local/{id}/by-csv` runs, and the process's
 * peak memory. The HTTP call itself takes files under 4 MB (about 40,000 short rules); the bench measures the
 * engine beyond it.
 *
 *   npm run bench:rules                 PGlite, plus PostgreSQL at TEST_DATABASE_URL
 *   BENCH_RULES=20000 npm run bench:rules
 */
import type { Kysely } from 'kysely';
import { ensureAdmin, seedDemo } from '@server/db/seed';
import { applyRules, checkRules, readRuleFile } from '@server/domains/pricing/csv';
import { knownNetworks, RULE_FIELDS } from '@server/domains/pricing/rules';
import { ensureNetworks } from '@server/domains/networks/catalogue';
import { freshDatabase } from '../test/server/helpers';
import type { Database } from '../src/server/db/types';

const RULES = Number(process.env.BENCH_RULES ?? 100_000);

function ruleFile(n: number, plmns: { mcc: string; mnc: string }[]): string {
  const lines = [RULE_FIELDS.join(',')];
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
    lines.push(RULE_FIELDS.map((f) => values[f] ?? '').join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

let peak = 0;
const sample = () => {
  peak = Math.max(peak, process.memoryUsage().rss);
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

async function benchEngine(engine: 'pglite' | 'postgres') {
  const database = await freshDatabase(engine);
  const db = database.db as unknown as Kysely<Database>;
  await ensureAdmin(database.db, 'Bench@2026pass');
  await seedDemo(database.db);
  const plan = await db.selectFrom('pricingPlan').select('id').orderBy('id').executeTakeFirstOrThrow();
  await ensureNetworks(db);
  const plmns = await db.selectFrom('network').select(['mcc', 'mnc']).orderBy('plmn').execute();
  const networks = await knownNetworks(db);
  const text = ruleFile(RULES, plmns);
  const timer = setInterval(sample, 20);
  peak = 0;
  sample();
  const [read, parseMs, parseCpu] = await time(() => readRuleFile(text));
  const [checked, previewMs, previewCpu] = await time(() => checkRules(read, networks));
  const [applied, applyMs, applyCpu] = await time(() => applyRules(db, Number(plan.id), checked.rows));
  clearInterval(timer);
  await database.close();
  const total = parseMs + previewMs + applyMs;
  console.log(
    `${engine}: ${RULES} rules (${(text.length / 1e6).toFixed(1)} MB): parse ${parseMs.toFixed(0)} ms, preview ${previewMs.toFixed(0)} ms ` +
      `(${checked.rejected.length} rejected), apply ${applyMs.toFixed(0)} ms (${applied} rows); total ${(total / 1000).toFixed(2)} s ` +
      `(process CPU ${((parseCpu + previewCpu + applyCpu) / 1000).toFixed(2)} s, of which apply ${(applyCpu / 1000).toFixed(2)} s); peak memory ${(peak / 1024 / 1024).toFixed(0)} MB`,
  );
}

await benchEngine('pglite');
if (process.env.TEST_DATABASE_URL) await benchEngine('postgres');
