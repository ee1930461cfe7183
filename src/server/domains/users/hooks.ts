import type { Kysely } from 'kysely';
import { fieldError, invalid } from '../../http/errors';
import type { Principal } from '../../http/principal';
import type { EntityHooks } from '../../engine/routes';
import { hashPassword } from '../auth/password';
import { grantable, keepAnAdministrator, mayActOn, morePowerful, storedPrivileges } from '../roles/hooks';
import type { Database } from '../../db/types';

type Row = Record<string, unknown>;

async function privilegesOfRole(trx: Kysely<Database>, roleId: unknown) {
  if (roleId === undefined || roleId === null) return [];
  const role = await trx.selectFrom('role').select('privileges').where('id', '=', Number(roleId)).executeTakeFirst();
  return storedPrivileges(role?.privileges);
}

/**
 * The role given to a user: one of the user's own reseller (never the provider's Administrator role for a reseller's
 * user, nor another tenant's), granting nothing the caller lacks. That the caller may see it at all is the engine's
 * reference check.
 */
async function checkRole(trx: Kysely<Database>, principal: Principal, roleId: number, resellerId: number) {
  const role = await trx.selectFrom('role').select(['privileges', 'resellerId']).where('id', '=', roleId).executeTakeFirst();
  if (!role || Number(role.resellerId) !== resellerId) throw invalid([fieldError('roleId', 'scope', 'validation.role.notAllowed')]);
  const privileges = storedPrivileges(role.privileges);
  if (JSON.stringify(grantable(principal, privileges)) !== JSON.stringify(privileges)) {
    throw invalid([fieldError('roleId', 'privileges', 'validation.role.tooPowerful')]);
  }
}

/** A user's account is one of the user's own reseller. */
async function checkAccount(trx: Kysely<Database>, accountId: number, resellerId: number) {
  const account = await trx.selectFrom('account').select('resellerId').where('accountId', '=', accountId).executeTakeFirst();
  if (!account || Number(account.resellerId) !== resellerId) throw invalid([fieldError('accountId', 'scope', 'validation.account.notAllowed')]);
}

/**
 * Users: the caller acts only on users holding no more than it does (the administrator on anyone), and gives only
 * roles of the user's own reseller that grant no more than it holds. A user never disables or deletes itself.
 */
export const userHooks: EntityHooks = {
  async beforeWrite({ values, existing, principal, trx }) {
    if (existing && !mayActOn(principal, await privilegesOfRole(trx, existing.roleId))) throw morePowerful('userId');
    const stored: Row = { ...values };
    // An account user manages the users of its own account only.
    if (principal.accountId !== null) stored.accountId = principal.accountId;
    const merged = { ...existing, ...stored };
    const resellerId = Number(merged.resellerId);
    const moved = existing !== undefined && stored.resellerId !== undefined && Number(stored.resellerId) !== Number(existing.resellerId);
    if (stored.roleId !== undefined && (moved || stored.roleId !== (existing?.roleId ?? null))) {
      if (stored.roleId === null) throw invalid([fieldError('roleId', 'required', 'validation.select.required')]);
      await checkRole(trx, principal, Number(stored.roleId), resellerId);
    } else if (moved) {
      // A user moved to another reseller cannot keep a role of the one it leaves.
      throw invalid([fieldError('roleId', 'scope', 'validation.role.notAllowed')]);
    }
    if (merged.accountId !== undefined && merged.accountId !== null) await checkAccount(trx, Number(merged.accountId), resellerId);
    if (existing && Number(existing.userId) === principal.userId && stored.disabled === true) {
      throw invalid([fieldError('disabled', 'self', 'validation.user.disableSelf')]);
    }
    if (typeof stored.password === 'string') stored.passwordHash = await hashPassword(stored.password);
    delete stored.password;
    return stored;
  },
  async afterWrite({ mode, trx }) {
    if (mode === 'update') await keepAnAdministrator(trx, 'roleId');
  },
  async beforeDelete({ existing, principal, trx }) {
    if (existing.userId === principal.userId) throw invalid([fieldError('userId', 'self', 'validation.user.deleteSelf')]);
    if (!mayActOn(principal, await privilegesOfRole(trx, existing.roleId))) throw morePowerful('userId');
  },
};
