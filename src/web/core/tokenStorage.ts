/**
 * Where the token lives between page loads: local storage when "remember me" was ticked (it survives the
 * browser closing), session storage otherwise (it dies with the tab).
 */
const KEY = 'portal.token';

export interface StoredToken {
  token: string | null;
  remember: boolean;
}

function safe<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    // Storage can be switched off by the browser's privacy settings; the app then keeps the token in memory.
    return fallback;
  }
}

export function readStoredToken(): StoredToken {
  const remembered = safe(() => localStorage.getItem(KEY), null);
  if (remembered) return { token: remembered, remember: true };
  return { token: safe(() => sessionStorage.getItem(KEY), null), remember: false };
}

export function writeStoredToken({ token, remember }: StoredToken): void {
  safe(() => {
    localStorage.removeItem(KEY);
    sessionStorage.removeItem(KEY);
    if (token) (remember ? localStorage : sessionStorage).setItem(KEY, token);
  }, undefined);
}
