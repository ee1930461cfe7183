import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { CamelCasePlugin, Kysely, PostgresDialect, type Dialect } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect';
import type { Database } from './types';
import { migrateToLatest } from './migrations';

export type Engine = 'pglite' | 'postgres';

export interface Db {
  db: Kysely<Database>;
  engine: Engine;
  close(): Promise<void>;
}

// numeric and bigint arrive as text from pg; the wire carries numbers (2-decimal money fits a double exactly enough
// to print, and the database keeps the exact value).
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/**
 * Column names to camelCase, each converted once: every result row repeats the same few names, and converting
 * them anew per row cost a tenth of a million-row download. Keys of JSON values are remembered too, up to a bound.
 */
class RememberingCamelCasePlugin extends CamelCasePlugin {
  private readonly names = new Map<string, string>();

  protected override camelCase(name: string): string {
    let converted = this.names.get(name);
    if (converted === undefined) {
      converted = super.camelCase(name);
      if (this.names.size < 10_000) this.names.set(name, converted);
    }
    return converted;
  }
}

/**
 * Opens the database: PostgreSQL when a URL is given, else embedded PGlite in `dataDir`
 * (or in memory when dataDir is "memory"). Migrations run before it is handed out.
 */
export async function openDatabase(opts: { databaseUrl?: string; dataDir?: string }): Promise<Db> {
  let dialect: Dialect;
  let engine: Engine;
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: Number(process.env.PG_POOL_SIZE ?? 10) });
    dialect = new PostgresDialect({ pool });
    engine = 'postgres';
  } else {
    const dir = opts.dataDir ?? 'memory';
    let client: PGlite;
    // pg_trgm lets a "contains" search use an index, as it does on PostgreSQL.
    const extensions = { pg_trgm };
    if (dir === 'memory') client = await PGlite.create({ extensions });
    else {
      mkdirSync(dir, { recursive: true });
      client = await PGlite.create(dir, { extensions });
    }
    dialect = new PGliteDialect(client);
    engine = 'pglite';
  }
  const db = new Kysely<Database>({ dialect, plugins: [new RememberingCamelCasePlugin()] });
  await migrateToLatest(db);
  return { db, engine, close: () => db.destroy() };
}
