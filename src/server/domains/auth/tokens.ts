import { SignJWT, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { serverKey } from './secrets';

export interface Tokens {
  issue(userId: number): Promise<string>;
  verify(token: string): Promise<number | undefined>;
}

/**
 * HS256 tokens. The key comes from JWT_SECRET, or is generated once and kept in the database, so that
 * sessions survive a restart and several servers on one PostgreSQL accept each other's tokens.
 */
export async function createTokens(db: Kysely<Database>, opts: { secret?: string; expirySeconds: number }): Promise<Tokens> {
  const key = new TextEncoder().encode(await serverKey(db, 'jwt_secret', opts.secret));
  // A token that verified once verifies the same way until it expires: its user and expiry are kept, so a signed-in
  // user's every call does not compute the signature again. Who the user is now (role, reseller) is still read per call.
  const verified = new LRUCache<string, { userId: number; expiresAt: number }>({ max: 10_000 });
  return {
    issue: (userId) =>
      new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(String(userId)).setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + opts.expirySeconds).sign(key),
    async verify(token) {
      const known = verified.get(token);
      if (known) return known.expiresAt > Date.now() ? known.userId : undefined;
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        const id = Number(payload.sub);
        if (!Number.isInteger(id)) return undefined;
        if (payload.exp !== undefined) verified.set(token, { userId: id, expiresAt: payload.exp * 1000 });
        return id;
      } catch {
        return undefined;
      }
    },
  };
}
