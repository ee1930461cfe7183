import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';

/**
 * A server key: the configured value, or one generated once and kept in the database, so that it survives a
 * restart and several servers on one PostgreSQL share it.
 */
export async function serverKey(db: Kysely<Database>, name: string, configured?: string): Promise<string> {
  if (configured) return configured;
  await db
    .insertInto('setting')
    .values({ key: name, value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return (await db.selectFrom('setting').select('value').where('key', '=', name).executeTakeFirstOrThrow()).value;
}
