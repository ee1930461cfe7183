import { sql, type Kysely } from 'kysely';
import { normalisePrivileges, type PrivilegeItem } from '@shared/privileges';
import { fieldError, invalid } from '../../http/errors';
import type { Principal } from '../../http/principal';
import type { EntityHooks } from '../../engine/routes';
import { hashPassword } from '../auth/password';
import { grantable } from '../roles/hooks';

type Row = Record<string, unknown>;

const inSubtree = (path: string) => sql<string>`${path} || '%'`;

/** The role must be one the caller sees, and grant nothing the caller lacks: no one hands out more than they hold. */
async function checkRole(trx: Kysely<any>, principal: Principal, roleId: number) {
  const role = await trx.selectFrom('role as ro').innerJoin('reseller as r', 'r.id', 'ro.resellerId')
    .select(['ro.privileges']).where('ro.id', '=', roleId).where('r.path', 'like', inSubtree(principal.resellerPath)).executeTakeFirst();
  if (!role) throw invalid([fieldError('roleId', 'scope', 'validation.role.notAllowed')]);
  const stored = typeof role.privileges === 'string' ? JSON.parse(role.privileges) : role.privileges;
  const privileges = normalisePrivileges(stored as PrivilegeItem[]);
  if (JSON.stringify(grantable(principal, privileges)) !== JSON.stringify(privileges)) {
    throw invalid([fieldError('roleId', 'privileges', 'validation.role.tooPowerful')]);
  }
}

/** The account must be visible to the caller and belong to the user's reseller subtree. */
async function checkAccount(trx: Kysely<any>, principal: Principal, accountId: number, resellerId: number) {
  const account = await trx.selectFrom('account as a').innerJoin('reseller as r', 'r.id', 'a.resellerId')
    .innerJoin('reseller as owner', (j) => j.on('owner.id', '=', resellerId))
    .select('a.accountId').where('a.accountId', '=', accountId)
    .where('r.path', 'like', inSubtree(principal.resellerPath)).where('r.path', 'like', sql<string>`owner.path || '%'`)
    .executeTakeFirst();
  if (!account) throw invalid([fieldError('accountId', 'scope', 'validation.account.notAllowed')]);
}

export const userHooks: EntityHooks = {
  async beforeWrite({ values, existing, principal, trx }) {
    const stored: Row = { ...values };
    // An account user manages the users of its own account only.
    if (principal.accountId !== null) stored.accountId = principal.accountId;
    const merged = { ...existing, ...stored };
    if (stored.roleId !== undefined && stored.roleId !== (existing?.roleId ?? null)) await checkRole(trx, principal, Number(stored.roleId));
    if (merged.accountId !== undefined && merged.accountId !== null) await checkAccount(trx, principal, Number(merged.accountId), Number(merged.resellerId));
    if (typeof stored.password === 'string') stored.passwordHash = await hashPassword(stored.password);
    delete stored.password;
    return stored;
  },
  async beforeDelete({ existing, principal }) {
    if (existing.userId === principal.userId) throw invalid([fieldError('userId', 'self', 'validation.user.deleteSelf')]);
  },
};
