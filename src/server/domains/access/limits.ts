import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { HttpError } from '../../http/errors';

/** How a route limits guessing: per client address, and per the user name or e-mail in its body. */
export interface AttemptLimit {
  /** Counters are kept per group: sign-in attempts do not use up join attempts. */
  group: string;
  /** Body property holding a user name or e-mail, limited on its own across all addresses. */
  nameField?: string;
  /** Count only refused attempts (sign-in), so someone who signs in often is never slowed down. */
  failuresOnly?: boolean;
  /**
   * The account a name stands for (sign-in: the id of the user a user name or e-mail resolves to), so that every
   * spelling of one account shares one counter; undefined for a name that stands for no account.
   */
  accountOf?: (name: string) => Promise<string | undefined>;
  /**
   * Past the per-address limit, answer later instead of refusing: many people behind one proxy share an address, and
   * one of them guessing must not keep the others out. The per-name (per-account) limit still refuses.
   */
  slowAddress?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    attempts?: AttemptLimit;
  }
}

export interface LimitSettings {
  windowMinutes?: number;
  /** Attempts per client address and group within the window. */
  perAddress?: number;
  /** Attempts per account (or user name or e-mail) and group within the window. */
  perName?: number;
  /** Shared counters in Redis; in the database otherwise. */
  redisUrl?: string;
  /** Prefix of the Redis keys, so two portals can share one Redis. */
  nameSpace?: string;
  /** Delay of the first attempt past the per-address limit of a slowed group; each further attempt doubles it. */
  slowdownMs?: number;
  /** The longest such delay. */
  maxSlowdownMs?: number;
}

export const tooManyAttempts = () => new HttpError(429, 'RATE_LIMITED', 'error.rateLimited');

/** One attempt counted: the counter's value with it, when its window ends, and how to take the attempt back. */
interface Taken {
  count: number;
  resetMs: number;
  giveBack(): Promise<void>;
}

/** Fixed-window counters; `take` adds one and answers the new count in a single atomic step. */
interface Counters {
  take(key: string, windowMs: number): Promise<Taken>;
}

/**
 * Counters in the database, shared by every server on it: one upsert takes an attempt, so parallel requests each see
 * a different count (the row is locked while it changes). Rows of past windows are swept now and then.
 */
export function databaseCounters(db: Kysely<Database>): Counters {
  let nextSweep = 0;
  return {
    async take(key, windowMs) {
      if (Date.now() >= nextSweep) {
        nextSweep = Date.now() + 60_000;
        await sql`delete from attempt_counter where window_ends < now()`.execute(db);
      }
      const { rows } = await sql<{ count: number; resetMs: number }>`
        insert into attempt_counter as c (key, count, window_ends) values (${key}, 1, now() + make_interval(secs => ${windowMs / 1000}::float8))
        on conflict (key) do update set
          count = case when c.window_ends <= now() then 1 else c.count + 1 end,
          window_ends = case when c.window_ends <= now() then excluded.window_ends else c.window_ends end
        returning count, ceil(extract(epoch from window_ends - now()) * 1000)::integer as reset_ms`.execute(db);
      return {
        count: rows[0].count,
        resetMs: rows[0].resetMs,
        giveBack: async () => {
          await sql`update attempt_counter set count = count - 1 where key = ${key} and count > 0 and window_ends > now()`.execute(db);
        },
      };
    },
  };
}

/** INCR, and the window's expiry set by the first attempt: atomic in Redis as one script. */
const TAKE = `local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}`;
/** DECR only within the window that counted the attempt, so no counter outlives its expiry. */
const GIVE_BACK = `if redis.call('PTTL', KEYS[1]) > 0 then return redis.call('DECR', KEYS[1]) end
return 0`;

/**
 * Counters in Redis, for servers that share one. Should Redis fail, the attempt is counted in the database
 * instead (atomic still, shared by the servers on that database), so an outage does not lift the limits.
 */
function redisCounters(redis: Redis, nameSpace: string, fallback: Counters, log: FastifyBaseLogger): Counters {
  return {
    async take(key, windowMs) {
      const redisKey = nameSpace + key;
      try {
        const [count, resetMs] = (await redis.eval(TAKE, 1, redisKey, windowMs)) as [number, number];
        return {
          count,
          resetMs,
          giveBack: async () => {
            await redis.eval(GIVE_BACK, 1, redisKey).catch(() => undefined);
          },
        };
      } catch (err) {
        log.warn({ err }, 'attempt counters in Redis unavailable; counting in the database meanwhile');
        return fallback.take(key, windowMs);
      }
    },
  };
}

/** Requests whose attempts are given back when they succeed. */
const pending = new WeakMap<FastifyRequest, Taken[]>();

function nameOf(request: FastifyRequest, field: string | undefined): string | undefined {
  const value = field ? (request.body as Record<string, unknown> | undefined)?.[field] : undefined;
  return typeof value === 'string' && value.trim() ? value.trim().toLowerCase().slice(0, 254) : undefined;
}

/** Counter keys hold a digest, not what was typed: a name field sometimes receives a password. */
const digest = (value: string) => createHash('sha256').update(value).digest('base64url').slice(0, 32);

/**
 * One hook applies each route's `config.attempts`, after the body is parsed (so the body's name can be a key) and
 * before the handler. Every attempt is counted before the handler runs, atomically, so parallel requests cannot
 * all pass a limit that each checked before any was counted; groups that count only failures give a successful
 * attempt back afterwards. Must be registered before the routes it limits.
 */
export async function registerAttemptLimits(app: FastifyInstance, db: Kysely<Database>, settings: LimitSettings = {}) {
  const windowMs = (settings.windowMinutes ?? 15) * 60_000;
  const perAddress = settings.perAddress ?? 20;
  const perName = settings.perName ?? 5;
  const slowdownMs = settings.slowdownMs ?? 250;
  const maxSlowdownMs = settings.maxSlowdownMs ?? 4000;
  let counters = databaseCounters(db);
  if (settings.redisUrl) {
    // Fail fast rather than queue: a Redis outage must not hang sign-in.
    const redis = new Redis(settings.redisUrl, { connectTimeout: 500, maxRetriesPerRequest: 1 });
    redis.on('error', (err) => app.log.warn({ err }, 'attempt counter store unavailable'));
    app.addHook('onClose', async () => {
      await redis.quit();
    });
    counters = redisCounters(redis, settings.nameSpace ?? 'portal-attempts-', counters, app.log);
  }

  app.addHook('preHandler', async (request, reply) => {
    const limit = request.routeOptions.config?.attempts;
    if (!limit) return;
    const name = nameOf(request, limit.nameField);
    const account = name !== undefined && limit.accountOf ? await limit.accountOf(name) : undefined;
    const limits = [{ key: `${limit.group}:address:${digest(normalizeIP(request.ip))}`, max: perAddress, slows: !!limit.slowAddress }];
    if (name !== undefined) {
      limits.push({
        key: account !== undefined ? `${limit.group}:account:${digest(account)}` : `${limit.group}:name:${digest(name)}`,
        max: perName,
        slows: false,
      });
    }
    const taken = await Promise.all(limits.map((l) => counters.take(l.key, windowMs)));
    const refused = taken.filter((t, i) => t.count > limits[i].max && !limits[i].slows);
    if (refused.length) {
      reply.header('retry-after', Math.max(1, ...refused.map((t) => Math.ceil(t.resetMs / 1000))));
      throw tooManyAttempts();
    }
    if (limit.failuresOnly) pending.set(request, taken);
    const over = taken[0].count - perAddress;
    if (limits[0].slows && over > 0) await sleep(Math.min(maxSlowdownMs, slowdownMs * 2 ** (over - 1)));
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const taken = pending.get(request);
    if (taken && reply.statusCode < 400) await Promise.all(taken.map((t) => t.giveBack()));
    return payload;
  });
}
