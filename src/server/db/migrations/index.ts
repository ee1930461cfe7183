import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from '../types';

const here = fileURLToPath(new URL('.', import.meta.url));

/**
 * Every `NNNN_name.ts` file beside this one, in name order: adding a table is adding a file. Each migration
 * is frozen in time and never imports application code, so it takes `Kysely<any>` (the schema as it was then, not
 * the generated `Database` of today), as Kysely recommends.
 */
const provider: MigrationProvider = {
  async getMigrations() {
    const files = readdirSync(here)
      .filter((f) => /^\d{4}_[\w-]+\.ts$/.test(f))
      .sort();
    const entries = await Promise.all(files.map(async (f) => [f.replace(/\.ts$/, ''), (await import(`./${f}`)) as Migration] as const));
    return Object.fromEntries(entries);
  },
};

export async function migrateToLatest(db: Kysely<Database>) {
  // Name the schema: the migrator otherwise finds another schema's bookkeeping tables in the same database.
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  // Unordered: migrations written side by side may land in either order; each stands on its own.
  const migrator = new Migrator({ db, provider, migrationTableSchema: rows[0].schema, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}
