/**
 * Unsigned JWT-shaped tokens for the mocks: the web app reads `exp` and `sub`, the mock server `sub`.
 */
function base64url(text: string): string {
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function mockToken(username: string, lifetimeSeconds = 3600, nowMs = Date.now(), sessionVersion = 0): string {
  const header = base64url(JSON.stringify({ alg: 'none', typ: 'JWT' }));
  const payload = base64url(JSON.stringify({ sub: username, exp: Math.floor(nowMs / 1000) + lifetimeSeconds, sv: sessionVersion }));
  return `${header}.${payload}.mock`;
}

/** The session version a token was issued for, as the server's tokens carry it (0 when absent). */
export function tokenVersion(token: string): number {
  try {
    const sv: unknown = JSON.parse(atob((token.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/'))).sv;
    return typeof sv === 'number' ? sv : 0;
  } catch {
    return 0;
  }
}

export function tokenSubject(token: string): string | null {
  try {
    const payload = token.split('.')[1] ?? '';
    const sub: unknown = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))).sub;
    return typeof sub === 'string' ? sub : null;
  } catch {
    return null;
  }
}
