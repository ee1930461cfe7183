import { SignJWT, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { serverKey } from './secrets';

/** What a token stands for: the user, and the user's session version when it was issued (claim `sv`). */
export interface Session {
  userId: number;
  /** The guard refuses a token whose version is no longer the user's (password, role or disabled flag changed). */
  sessionVersion: number;
}

export interface Tokens {
  issue(session: Session): Promise<string>;
  verify(token: string): Promise<Session | undefined>;
}

/**
 * HS256 tokens. The key comes from JWT_SECRET, or is generated once and kept in the database, so that
 * sessions survive a restart and several servers on one PostgreSQL accept each other's tokens.
 */
export async function createTokens(db: Kysely<Database>, opts: { secret?: string; expirySeconds: number }): Promise<Tokens> {
  const key = new TextEncoder().encode(await serverKey(db, 'jwt_secret', opts.secret));
  // A token that verified once verifies the same way until it expires: what it stands for is kept, so a signed-in
  // user's every call does not compute the signature again. Whether it still stands (the user's session version,
  // role, reseller) is read per call by the guard, so keeping it delays no revocation.
  const verified = new LRUCache<string, Session & { expiresAt: number }>({ max: 10_000 });
  return {
    issue: ({ userId, sessionVersion }) =>
      new SignJWT({ sv: sessionVersion })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(userId))
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + opts.expirySeconds)
        .sign(key),
    async verify(token) {
      const known = verified.get(token);
      if (known) return known.expiresAt > Date.now() ? { userId: known.userId, sessionVersion: known.sessionVersion } : undefined;
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        const userId = Number(payload.sub);
        // Tokens without a version (issued before versions existed) are refused: their user signs in again once.
        if (!Number.isInteger(userId) || !Number.isInteger(payload.sv)) return undefined;
        const session = { userId, sessionVersion: payload.sv as number };
        if (payload.exp !== undefined) verified.set(token, { ...session, expiresAt: payload.exp * 1000 });
        return session;
      } catch {
        return undefined;
      }
    },
  };
}
