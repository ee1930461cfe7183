import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/types';
import { notFound } from '../../http/errors';
import type { Principal } from '../../http/principal';
import { subtreePattern } from '../../http/tenancy';
import { resellerInSubtree, visibleResellers } from '../resellers/subtree';

export interface ScopeBody {
  resellerId?: number;
  accountId?: number;
}

/**
 * Which rollup rows a graph call adds up, as a condition on the rollup's `x.reseller_id` and `x.account_id`: the
 * caller's subtree (an account user: its account), narrowed to one reseller's subtree or one account the caller
 * sees; an id the caller may not see is 404.
 */
export async function scopeOf(db: Kysely<Database>, principal: Principal, body: ScopeBody): Promise<RawBuilder<SqlBool>> {
  let pattern: string | null = principal.isAdmin ? null : subtreePattern(principal);
  if (body.resellerId !== undefined) {
    const id = await resellerInSubtree(db, principal, body.resellerId);
    const row = await db.selectFrom('reseller').select('path').where('id', '=', id).executeTakeFirstOrThrow();
    pattern = subtreePattern({ resellerPath: row.path });
  }
  if (body.accountId !== undefined) {
    if (principal.accountId !== null && body.accountId !== principal.accountId) throw notFound();
    const found = await visibleResellers(db, principal)
      .innerJoin('account as a', 'a.resellerId', 'reseller.id')
      .select('a.accountId')
      .where('a.accountId', '=', body.accountId)
      .where('reseller.path', 'like', pattern ?? '%')
      .executeTakeFirst();
    if (!found) throw notFound();
    return sql<SqlBool>`x.account_id = ${body.accountId}`;
  }
  if (principal.accountId !== null && !principal.isAdmin) return sql<SqlBool>`x.account_id = ${principal.accountId}`;
  if (pattern === null) return sql<SqlBool>`true`;
  return sql<SqlBool>`x.reseller_id in (select r.id from reseller r where r.path like ${pattern})`;
}
