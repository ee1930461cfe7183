/**
 * Unsigned JWT-shaped tokens for the mocks: the web app reads only `exp`, the mock server only `sub`.
 */
function base64url(text: string): string {
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function mockToken(username: string, lifetimeSeconds = 3600, nowMs = Date.now()): string {
  const header = base64url(JSON.stringify({ alg: 'none', typ: 'JWT' }));
  const payload = base64url(JSON.stringify({ sub: username, exp: Math.floor(nowMs / 1000) + lifetimeSeconds }));
  return `${header}.${payload}.mock`;
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
