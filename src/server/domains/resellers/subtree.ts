import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { notFound } from '../../http/errors';
import type { Principal } from '../../http/principal';

/**
 * The reseller `id` if the caller sees it: the administrator any; a reseller's user its reseller and those below it;
 * an account user its own reseller only (the sub-resellers below it are other tenants to it). Else 404.
 */
export async function resellerInSubtree(db: Kysely<Database>, principal: Principal, id: number): Promise<number> {
  let q = db.selectFrom('reseller').select('id').where('id', '=', id);
  if (!principal.isAdmin)
    q = principal.accountId !== null ? q.where('id', '=', principal.resellerId) : q.where('path', 'like', sql<string>`${principal.resellerPath} || '%'`);
  const row = await q.executeTakeFirst();
  if (!row) throw notFound();
  return row.id;
}
