import { sql, type Kysely } from 'kysely';
import { ADMIN_ONLY, ADMIN_RESELLER_ID, normalisePrivileges, privilegesWithin, type PrivilegeItem } from '@shared/privileges';
import type { Principal } from '../../http/principal';
import type { EntityHooks } from '../../engine/routes';
import { conflict, fieldError, HttpError } from '../../http/errors';
import type { Database } from '../../db/types';

/**
 * What an editor may grant: only privileges (and sub-privileges) the editor holds. Saving a role drops the
 * rest, which is what the role editor warns about; the admin holds the whole catalogue.
 */
export function grantable(principal: Principal, requested: PrivilegeItem[]): PrivilegeItem[] {
  const known = normalisePrivileges(requested);
  if (principal.isAdmin) return known;
  return known.flatMap((item) => {
    const held = principal.privileges.find((p) => p.privilege === item.privilege);
    return held ? [{ privilege: item.privilege, subPrivileges: item.subPrivileges.filter((s) => held.subPrivileges.includes(s)) }] : [];
  });
}

/** A role's stored privileges, whatever the driver hands back (jsonb parsed or as text). */
export function storedPrivileges(value: unknown): PrivilegeItem[] {
  const parsed = typeof value === 'string' ? JSON.parse(value) : value;
  return normalisePrivileges(Array.isArray(parsed) ? (parsed as PrivilegeItem[]) : []);
}

/** Whether the caller holds at least what `privileges` grant: nobody acts on a more powerful role or user. */
export function mayActOn(principal: Principal, privileges: PrivilegeItem[]): boolean {
  return principal.isAdmin || privilegesWithin(privileges, principal.privileges);
}

/** 403 naming the field: the target holds privileges the caller lacks. */
export const morePowerful = (field: string) =>
  new HttpError(403, 'FORBIDDEN', 'validation.target.morePowerful', [fieldError(field, 'privileges', 'validation.target.morePowerful')]);

/**
 * The portal always keeps an administrator who can sign in: a change that would leave no user of the provider
 * holding the Administrator privilege is refused (checked inside the writing transaction, after the change).
 */
export async function keepAnAdministrator(trx: Kysely<Database>, field: string): Promise<void> {
  const left = await trx
    .selectFrom('appUser as u')
    .innerJoin('role as ro', 'ro.id', 'u.roleId')
    .select('u.id')
    .where('u.resellerId', '=', ADMIN_RESELLER_ID)
    .where(sql<boolean>`ro.privileges @> ${JSON.stringify([{ privilege: ADMIN_ONLY }])}::jsonb`)
    .where(sql<boolean>`not coalesce(u.disabled, false)`)
    .limit(1)
    .executeTakeFirst();
  if (!left) throw conflict([fieldError(field, 'lastAdministrator', 'validation.role.lastAdministrator')]);
}

const holdsAdministrator = (privileges: PrivilegeItem[]) => privileges.some((p) => p.privilege === ADMIN_ONLY);

/**
 * Roles: an editor grants only what it holds, never edits or deletes a role holding more than it does, and the
 * Administrator privilege belongs to roles of the provider alone.
 */
export const roleHooks: EntityHooks = {
  async beforeWrite({ values, existing, principal }) {
    if (existing && !mayActOn(principal, storedPrivileges(existing.privileges))) throw morePowerful('privileges');
    if (values.privileges === undefined || values.privileges === null) return { ...values, privileges: values.privileges === null ? [] : undefined };
    const privileges = grantable(principal, values.privileges as PrivilegeItem[]);
    const owner = Number(values.resellerId ?? existing?.resellerId);
    if (holdsAdministrator(privileges) && owner !== ADMIN_RESELLER_ID) {
      throw new HttpError(400, 'VALIDATION_FAILED', 'validation.role.administratorProvider', [
        fieldError('privileges', 'administrator', 'validation.role.administratorProvider'),
      ]);
    }
    return { ...values, privileges };
  },
  async afterWrite({ mode, trx }) {
    if (mode === 'update') await keepAnAdministrator(trx, 'privileges');
  },
  async beforeDelete({ existing, principal }) {
    if (!mayActOn(principal, storedPrivileges(existing.privileges))) throw morePowerful('privileges');
  },
  /** The roles a user form offers: those the caller may give, granting nothing it lacks. */
  async afterList(rows, principal, db) {
    if (principal.isAdmin || !rows.length) return rows;
    const stored = await db
      .selectFrom('role')
      .select(['id', 'privileges'])
      .where(
        'id',
        'in',
        rows.map((r) => Number(r.id)),
      )
      .execute();
    const grantableIds = new Set(stored.filter((r) => mayActOn(principal, storedPrivileges(r.privileges))).map((r) => Number(r.id)));
    return rows.filter((r) => grantableIds.has(Number(r.id)));
  },
};
