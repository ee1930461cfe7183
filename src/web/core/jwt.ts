/**
 * Reads the expiry of a JWT without verifying it: the server verifies; the client only needs to know when to
 * renew.
 */
import { RENEW_BEFORE_EXPIRY_S } from './config';

function payloadOf(jwt: string): Record<string, unknown> | null {
  const payload = jwt.split('.')[1];
  if (!payload) return null;
  try {
    const json: unknown = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/')));
    return json !== null && typeof json === 'object' ? (json as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function tokenExpiry(jwt: string): number | null {
  const exp = payloadOf(jwt)?.exp;
  return typeof exp === 'number' && Number.isFinite(exp) ? exp : null;
}

/** The user a token was issued to (its `sub`), or null. */
export function tokenSubject(jwt: string): string | null {
  const sub = payloadOf(jwt)?.sub;
  return typeof sub === 'string' && sub !== '' ? sub : null;
}

/** setTimeout holds 32-bit delays; a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Milliseconds until the token should be renewed: 0 when 900 s or less remain, else 900 s before expiry.
 * Null when the token carries no expiry, so nothing is scheduled.
 */
export function renewDelayMs(jwt: string, nowMs: number): number | null {
  const exp = tokenExpiry(jwt);
  if (exp === null) return null;
  const delay = (exp - RENEW_BEFORE_EXPIRY_S) * 1000 - nowMs;
  return Math.min(Math.max(0, delay), MAX_TIMER_MS);
}
