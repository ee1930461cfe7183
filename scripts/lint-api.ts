/**
 * Lints the OpenAPI document the server publishes at /portal/v3/api-docs: builds the app in-process on an in-memory
 * database, writes the document to a temporary file and runs `redocly lint` on it (rules in redocly.yaml, problems
 * left on purpose in .redocly.lint-ignore.yaml). Fails on any error or warning.
 *
 *   npm run lint:api
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '@server/app';
import { openDatabase } from '@server/db';
import { ensureAdmin } from '@server/db/seed';

const database = await openDatabase({ dataDir: 'memory' });
await ensureAdmin(database.db, 'Lint@2026pass');
const app = await buildApp({ database, jwtSecret: 'lint-api' });
await app.ready();
const document = app.swagger();
await app.close();
await database.close();

const dir = mkdtempSync(join(tmpdir(), 'api-docs-'));
const file = join(dir, 'openapi.json');
writeFileSync(file, JSON.stringify(document, null, 2));
// The rules and the ignored problems go beside the document: the ignore file names it relative to itself.
for (const name of ['redocly.yaml', '.redocly.lint-ignore.yaml']) copyFileSync(new URL(`../${name}`, import.meta.url), join(dir, name));
const redocly = (format: string) =>
  spawnSync('npx', ['--no-install', 'redocly', 'lint', file, '--config', join(dir, 'redocly.yaml'), '--format', format, '--max-problems', '1000'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
// Redocly fails on errors only; a warning fails here too.
const json = redocly('json');
const totals = (JSON.parse(json.stdout.slice(json.stdout.indexOf('{'))) as { totals: { errors: number; warnings: number; ignored: number } }).totals;
if (totals.errors || totals.warnings) process.stdout.write(redocly('stylish').stdout);
rmSync(dir, { recursive: true, force: true });
console.log(
  `OpenAPI document: ${totals.errors} errors, ${totals.warnings} warnings, ${totals.ignored} problems ignored on purpose (.redocly.lint-ignore.yaml).`,
);
process.exit(totals.errors || totals.warnings ? 1 : 0);
