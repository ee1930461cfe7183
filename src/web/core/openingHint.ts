/**
 * What the last page load learnt about the signed-in user that decides how a screen opens: the privileges, whether
 * the user is the administrator, and the preferences (where a list's saved sort is). Kept beside the token, in the
 * same storage, and only for the user the token was issued to, so that a page load can ask for a list's first page
 * while the fresh profile and privileges are still on their way. The web app draws nothing from it: the screen waits
 * for the fresh answers, and the server decides every call on its own; a stale hint costs at most one request the
 * screen does not use.
 */
import type { PrivilegeItem } from '@shared/privileges';
import { tokenSubject } from './jwt';
import { readKept, writeKept } from './tokenStorage';

const KEY = 'portal.opening';

export interface OpeningHint {
  privileges: PrivilegeItem[];
  isAdmin: boolean;
  preferences: string | null;
}

const isPrivileges = (v: unknown): v is PrivilegeItem[] =>
  Array.isArray(v) &&
  v.every(
    (p) =>
      p !== null &&
      typeof p === 'object' &&
      typeof (p as PrivilegeItem).privilege === 'string' &&
      Array.isArray((p as PrivilegeItem).subPrivileges) &&
      (p as PrivilegeItem).subPrivileges.every((s) => typeof s === 'string'),
  );

/** The hint kept for the user of `token`, if any and well formed. */
export function readOpeningHint(token: string): OpeningHint | undefined {
  const user = tokenSubject(token);
  const { text } = readKept(KEY);
  if (!user || !text) return undefined;
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    if (v.user !== user || !isPrivileges(v.privileges) || typeof v.isAdmin !== 'boolean') return undefined;
    if (v.preferences !== null && typeof v.preferences !== 'string') return undefined;
    return { privileges: v.privileges, isAdmin: v.isAdmin, preferences: v.preferences };
  } catch {
    return undefined;
  }
}

/** Keeps the hint for the user of `token` where the token is kept; without a hint (signed out), removes it. */
export function writeOpeningHint(token: string | null, remember: boolean, hint?: OpeningHint): void {
  const user = token && tokenSubject(token);
  writeKept(KEY, user && hint ? JSON.stringify({ user, ...hint }) : null, remember);
}
