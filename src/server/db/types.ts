/**
 * The database's tables and views as Kysely sees them, generated from the migrations into types.gen.ts by
 * `npm run db:types` (a test fails when that file is stale).
 */
export type { DB as Database } from './types.gen';
export type * from './types.gen';
