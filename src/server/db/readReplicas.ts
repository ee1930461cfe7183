import { PostgresDialect, type PostgresPool } from 'kysely';
import pg from 'pg';

/**
 * One pool over the read replicas of DATABASE_READ_URL: each connection it hands out comes from the next replica's
 * own pool in turn, so lists spread over every replica.
 */
export function replicaDialect(urls: string[], size: number): PostgresDialect {
  const pools = urls.map((connectionString) => new pg.Pool({ connectionString, max: size }));
  let next = 0;
  const pool: PostgresPool = {
    connect: () => pools[next++ % pools.length].connect(),
    end: async () => {
      await Promise.all(pools.map((p) => p.end()));
    },
  };
  return new PostgresDialect({ pool });
}
