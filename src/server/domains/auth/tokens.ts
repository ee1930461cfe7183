import { SignJWT, jwtVerify } from 'jose';
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
  return {
    issue: (userId) =>
      new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(String(userId)).setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + opts.expirySeconds).sign(key),
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        const id = Number(payload.sub);
        return Number.isInteger(id) ? id : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
