/** Who is calling: the user behind the bearer token, and which resellers that user may see. */
import { isAdministrator } from '@shared/privileges';
import type { MockDatabase, MockUser } from './data';
import { tokenSubject, tokenVersion } from './token';

function tokenExpired(token: string): boolean {
  try {
    const exp: unknown = JSON.parse(atob((token.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/'))).exp;
    return typeof exp === 'number' && exp * 1000 < Date.now();
  } catch {
    return true;
  }
}

export function callerOf(db: MockDatabase, request: Request): MockUser | null {
  const header = request.headers.get('authorization') ?? '';
  const token = header.startsWith('Bearer ') ? header.slice(7) : '';
  if (!token || tokenExpired(token)) return null;
  const username = tokenSubject(token);
  const user = db.users.find((u) => u.username === username);
  // As on the server, a password change ends every token issued before it.
  return user && tokenVersion(token) === (user.sessionVersion ?? 0) ? user : null;
}

/** As on the server: a user of the provider whose role holds the Administrator privilege. */
export function isAdmin(user: MockUser): boolean {
  return isAdministrator(user.resellerId, user.privileges);
}

/** The caller's reseller and every reseller below it (an account user: its own reseller only); everything for the admin. */
export function visibleResellerIds(db: MockDatabase, user: MockUser): Set<number> {
  if (isAdmin(user)) return new Set(db.resellers.map((r) => r.id));
  const visible = new Set([user.resellerId]);
  if (user.accountId !== null && user.accountId !== undefined) return visible;
  let grew = true;
  while (grew) {
    grew = false;
    for (const r of db.resellers) {
      if (r.parentId !== null && visible.has(r.parentId) && !visible.has(r.id)) {
        visible.add(r.id);
        grew = true;
      }
    }
  }
  return visible;
}

/** The resellers above `resellerId` and itself: a plan of any of them may price its subscribers. */
export function resellerAndAncestors(db: MockDatabase, resellerId: number): Set<number> {
  const found = new Set<number>();
  for (let id: number | null | undefined = resellerId; id !== null && id !== undefined && !found.has(id); id = db.resellers.find((r) => r.id === id)?.parentId)
    found.add(id);
  return found;
}
