/**
 * The tree rule, written once. Resellers form a tree kept as materialised paths (`/-1/7/12/`); a caller sees the rows
 * of its reseller and of every reseller below it, an account user its own reseller only, the administrator all.
 */
import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/types';
import { forbidden } from './errors';
import type { Principal } from './principal';

/**
 * Refuses an account user (403): the call is its reseller's business (orders, prices, the reseller's groups and brand),
 * not its account's.
 */
export function resellerUser(principal: Principal) {
  if (principal.accountId !== null && !principal.isAdmin) throw forbidden();
}

/** A value matched literally by LIKE: its `%`, `_` and `\` escaped. */
export function escapeLike(value: string) {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The LIKE pattern of the paths of the principal's reseller and every reseller below it. */
export function subtreePattern(principal: Pick<Principal, 'resellerPath'>): string {
  return `${escapeLike(principal.resellerPath)}%`;
}

/**
 * Which reseller rows the principal sees, as a condition on the row's id and path columns (names as the query
 * knows them); undefined for the administrator, who sees all.
 */
export function resellerVisibility(principal: Principal, columns: { id: string; path: string }): RawBuilder<SqlBool> | undefined {
  if (principal.isAdmin) return undefined;
  return principal.accountId !== null
    ? sql<SqlBool>`${sql.ref(columns.id)} = ${principal.resellerId}`
    : sql<SqlBool>`${sql.ref(columns.path)} like ${subtreePattern(principal)}`;
}

/**
 * `q` narrowed to the plans the caller itself may give (the single change's and the bulk change's rule): those of its
 * subtree, and for an account user only the plan its account is on. `plan` and `owner` are the aliases `q` gives the
 * plan and its reseller.
 */
export function plansOfCaller<Q extends SelectQueryBuilder<Database & Record<string, object>, string, object>>(
  db: Kysely<Database>,
  principal: Principal,
  q: Q,
  plan: string,
  owner: string,
): Q {
  if (principal.isAdmin) return q;
  const narrowed =
    principal.accountId !== null
      ? q.where(sql.ref(`${plan}.id`), 'in', db.selectFrom('account').select('pricingPlanId').where('accountId', '=', principal.accountId))
      : q.where(sql.ref(`${owner}.path`), 'like', subtreePattern(principal));
  return narrowed as Q;
}
