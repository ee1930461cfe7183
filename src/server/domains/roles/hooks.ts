import { normalisePrivileges, type PrivilegeItem } from '@shared/privileges';
import type { Principal } from '../../http/principal';
import type { EntityHooks } from '../../engine/routes';

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

export const roleHooks: EntityHooks = {
  async beforeWrite({ values, principal }) {
    if (values.privileges === undefined || values.privileges === null) return { ...values, privileges: values.privileges === null ? [] : undefined };
    return { ...values, privileges: grantable(principal, values.privileges as PrivilegeItem[]) };
  },
};
