import { Logger, PostgresDialect, generate } from 'kysely-codegen';
import { openDatabase } from './index';

/** Where the generated `DB` interface is checked in. */
export const TYPES_FILE = 'src/server/db/types.gen.ts';

/**
 * The Kysely types of every table and view, read from a fresh in-memory database the migrations built. Names are
 * camel-cased, as the app's CamelCasePlugin presents them; types are what both engines hand back (bigint arrives
 * as a number, see index.ts; numeric as text).
 */
export async function generateDatabaseTypes(): Promise<string> {
  const { db, close } = await openDatabase({ dataDir: 'memory' });
  try {
    return await generate({
      db: db.withoutPlugins(),
      dialect: new PostgresDialect(),
      camelCase: true,
      excludePattern: 'kysely_*',
      outFile: null,
      logger: new Logger('silent'),
      typeMapping: { int8: 'number' },
    });
  } finally {
    await close();
  }
}
