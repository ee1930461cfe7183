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

/** The text kept under `key`: local storage's (remembered), else session storage's. */
export function readKept(key: string): { text: string | null; remember: boolean } {
  const remembered = safe(() => localStorage.getItem(key), null);
  if (remembered) return { text: remembered, remember: true };
  return { text: safe(() => sessionStorage.getItem(key), null), remember: false };
}

/** Keeps `text` under `key` in local storage (remembered) or session storage, and removes it from the other; null removes it. */
export function writeKept(key: string, text: string | null, remember: boolean): void {
  safe(() => {
    localStorage.removeItem(key);
    sessionStorage.removeItem(key);
    if (text) (remember ? localStorage : sessionStorage).setItem(key, text);
  }, undefined);
}

export function readStoredToken(): StoredToken {
  const { text, remember } = readKept(KEY);
  return { token: text, remember };
}

export function writeStoredToken({ token, remember }: StoredToken): void {
  writeKept(KEY, token, remember);
}
