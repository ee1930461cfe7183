/** Who is calling: the user behind the bearer token, and which resellers that user may see. */
import { ADMIN_RESELLER_ID } from '@shared/privileges';
import type { MockDatabase, MockUser } from './data';
import { tokenSubject } from './token';

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
  return db.users.find((u) => u.username === username) ?? null;
}

export function isAdmin(user: MockUser): boolean {
  return user.resellerId === ADMIN_RESELLER_ID;
}

/** The caller's reseller and every reseller below it; everything for the admin. */
export function visibleResellerIds(db: MockDatabase, user: MockUser): Set<number> {
  if (isAdmin(user)) return new Set(db.resellers.map((r) => r.id));
  const visible = new Set([user.resellerId]);
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
