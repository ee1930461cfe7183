import type { Kysely } from 'kysely';
import { ADMIN_RESELLER_ID, hasPrivilege, normalisePrivileges, type PrivilegeItem } from '@shared/privileges';
import type { Database } from '../db/types';

/** Who is calling: loaded from the database on every request, so a changed role applies at once. */
export interface Principal {
  userId: number;
  username: string;
  resellerId: number;
  /** Materialised path of the user's reseller: the user sees rows of resellers under it. */
  resellerPath: string;
  accountId: number | null;
  isAdmin: boolean;
  privileges: PrivilegeItem[];
}

export async function loadPrincipal(db: Kysely<Database>, userId: number): Promise<Principal | undefined> {
  const row = await db
    .selectFrom('appUser as u')
    .innerJoin('reseller as r', 'r.id', 'u.resellerId')
    .leftJoin('role as ro', 'ro.id', 'u.roleId')
    .select(['u.id', 'u.username', 'u.resellerId', 'u.accountId', 'r.path', 'ro.privileges'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  if (!row) return undefined;
  const stored = typeof row.privileges === 'string' ? JSON.parse(row.privileges) : row.privileges;
  return {
    userId: row.id,
    username: row.username,
    resellerId: row.resellerId,
    resellerPath: row.path,
    accountId: row.accountId,
    isAdmin: row.resellerId === ADMIN_RESELLER_ID,
    privileges: normalisePrivileges(Array.isArray(stored) ? stored : []),
  };
}

export function can(principal: Principal, privilege: string, sub?: string) {
  return hasPrivilege(principal.privileges, privilege, sub);
}
