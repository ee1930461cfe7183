import { Logger, PostgresDialect, generate } from 'kysely-codegen';
import { format, resolveConfig } from 'prettier';
import { openDatabase } from './index';

/** Where the generated `DB` interface is checked in. */
export const TYPES_FILE = 'src/server/db/types.gen.ts';

/**
 * The Kysely types of every table and view, read from a fresh in-memory database the migrations built. Names are
 * camel-cased, as the app's CamelCasePlugin presents them; types are what both engines hand back (bigint arrives
 * as a number, see index.ts; numeric as text). Laid out by the project's Prettier settings.
 */
export async function generateDatabaseTypes(): Promise<string> {
  const { db, close } = await openDatabase({ dataDir: 'memory' });
  let text: string;
  try {
    text = await generate({
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
  return format(text, { ...(await resolveConfig(TYPES_FILE)), filepath: TYPES_FILE });
}
