import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { notFound } from '../../http/errors';
import type { Principal } from '../../http/principal';

/**
 * The resellers the caller sees: the administrator all; a reseller's user its reseller and those below it; an
 * account user its own reseller only (the sub-resellers below it are other tenants to it).
 */
export function visibleResellers(db: Kysely<Database>, principal: Principal) {
  const q = db.selectFrom('reseller');
  if (principal.isAdmin) return q;
  return principal.accountId !== null ? q.where('id', '=', principal.resellerId) : q.where('path', 'like', sql<string>`${principal.resellerPath} || '%'`);
}

/** The reseller `id` if the caller sees it (`visibleResellers`), else 404. */
export async function resellerInSubtree(db: Kysely<Database>, principal: Principal, id: number): Promise<number> {
  const row = await visibleResellers(db, principal).select('id').where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row.id;
}
