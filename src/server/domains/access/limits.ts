import fastifyRateLimit, { normalizeIP, type CreateRateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { HttpError } from '../../http/errors';

/** How a public route limits guessing: per client address, and per the user name or e-mail in its body. */
export interface AttemptLimit {
  /** Counters are kept per group: sign-in attempts do not use up join attempts. */
  group: string;
  /** Body property holding a user name or e-mail, limited on its own across all addresses. */
  nameField?: string;
  /** Count only refused attempts (sign-in), so someone who signs in often is never slowed down. */
  failuresOnly?: boolean;
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
  /** Attempts per user name or e-mail and group within the window. */
  perName?: number;
  /** Shared counters for several servers; in memory otherwise. */
  redisUrl?: string;
  /** Prefix of the Redis keys, so two portals can share one Redis. */
  nameSpace?: string;
}

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;
type Outcome = Awaited<ReturnType<Limiter>>;

export const tooManyAttempts = () => new HttpError(429, 'RATE_LIMITED', 'error.rateLimited');

/** Requests whose failure still has to be counted, with the limiters to count it in. */
const pending = new WeakMap<FastifyRequest, Limiter[]>();

function nameOf(request: FastifyRequest, field: string | undefined): string | undefined {
  const value = field ? (request.body as Record<string, unknown> | undefined)?.[field] : undefined;
  return typeof value === 'string' && value.trim() ? value.trim().toLowerCase().slice(0, 254) : undefined;
}

/**
 * Registers @fastify/rate-limit as a counter store (Redis or memory) and one hook that applies each route's
 * `config.attempts`. It runs before the handler, after the body is parsed, so the body's name can be a key.
 * Must be registered before the routes it limits.
 */
export async function registerAttemptLimits(app: FastifyInstance, settings: LimitSettings = {}) {
  const timeWindow = (settings.windowMinutes ?? 15) * 60_000;
  let redis: Redis | undefined;
  if (settings.redisUrl) {
    // Fail fast rather than queue: a Redis outage must not hang sign-in.
    redis = new Redis(settings.redisUrl, { connectTimeout: 500, maxRetriesPerRequest: 1 });
    redis.on('error', (err) => app.log.warn({ err }, 'rate-limit store unavailable; attempts are not limited meanwhile'));
    app.addHook('onClose', async () => { await redis!.quit(); });
  }
  // skipOnError: when the store fails, the portal stays usable (unlimited) instead of refusing every sign-in.
  await app.register(fastifyRateLimit, { global: false, redis, nameSpace: settings.nameSpace ?? 'portal-attempts-', skipOnError: true });

  const limiters = new Map<string, { address: Limiter; name: Limiter }>();
  function limitersOf(limit: AttemptLimit) {
    let pair = limiters.get(limit.group);
    if (!pair) {
      const options = (max: number, key: (r: FastifyRequest) => string): CreateRateLimitOptions => {
        const o = { max, timeWindow, keyGenerator: key, cache: 20_000 }; // cache: keys kept in memory, above the default 5000
        return o;
      };
      pair = {
        address: app.createRateLimit(options(settings.perAddress ?? 20, (r) => `${limit.group}:address:${normalizeIP(r.ip)}`)),
        name: app.createRateLimit(options(settings.perName ?? 5, (r) => `${limit.group}:name:${nameOf(r, r.routeOptions.config.attempts?.nameField)}`)),
      };
      limiters.set(limit.group, pair);
    }
    return pair;
  }

  const refuse = (outcome: Outcome, failuresOnly: boolean) =>
    !outcome.isAllowed && (failuresOnly ? outcome.remaining <= 0 : outcome.isExceeded);

  app.addHook('preHandler', async (request, reply) => {
    const limit = request.routeOptions.config?.attempts;
    if (!limit) return;
    const { address, name } = limitersOf(limit);
    const applicable = nameOf(request, limit.nameField) ? [address, name] : [address];
    // Failures-only limits peek now and count in onSend once the answer is known.
    const outcomes = await Promise.all(applicable.map((l) => l(request, { increment: !limit.failuresOnly })));
    const refused = outcomes.find((o) => refuse(o, !!limit.failuresOnly));
    if (refused && !refused.isAllowed) {
      reply.header('retry-after', Math.max(1, refused.ttlInSeconds));
      throw tooManyAttempts();
    }
    if (limit.failuresOnly) pending.set(request, applicable);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const applicable = pending.get(request);
    if (applicable && reply.statusCode >= 400 && reply.statusCode < 500) await Promise.all(applicable.map((l) => l(request)));
    return payload;
  });
}
