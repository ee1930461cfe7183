import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { notFound } from '../../http/errors';
import type { Principal } from '../../http/principal';

/** The reseller `id` if it is in the caller's subtree (itself or below it), else 404. */
export async function resellerInSubtree(db: Kysely<Database>, principal: Principal, id: number): Promise<number> {
  const row = await db
    .selectFrom('reseller')
    .select('id')
    .where('id', '=', id)
    .where('path', 'like', sql<string>`${principal.resellerPath} || '%'`)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row.id;
}
