/**
 * Delivers the webhook outbox. Every server process runs one worker: it claims due deliveries with
 * `FOR UPDATE SKIP LOCKED` and moves their next attempt past the request's timeout in the same statement (a lease),
 * so two processes never post the same delivery at once; a process that dies mid-post leaves it to be tried again
 * once the lease has run out. Each attempt is logged; a failed one is tried again after `backoffSeconds × 2^n`
 * (capped at an hour), and after `maxAttempts` the delivery has failed. All of it lives in the database, so a
 * restart picks up where the last process left off.
 */
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { resolveTarget, TargetError, type Target } from './address';

export interface WebhookOptions {
  /** Lets URLs reach private and loopback addresses (and plain HTTP to loopback): WEBHOOK_ALLOW_PRIVATE. */
  allowPrivate?: boolean;
  /** How often an idle worker looks for due deliveries, in ms. */
  pollMs?: number;
  /** The first retry's delay in seconds; each further one doubles it. */
  backoffSeconds?: number;
  /** Attempts before a delivery has failed. */
  maxAttempts?: number;
  /** How long one attempt may take, in ms. */
  timeoutMs?: number;
}

const MAX_BACKOFF_SECONDS = 3600;
const BATCH = 10;

/** A new signing secret: 32 random bytes as hex, prefixed so it is recognisable. */
export const newSecret = () => `whsec_${randomBytes(32).toString('hex')}`;

/** `v1=<hex HMAC-SHA256 of "<timestamp>.<body>">`: what X-Portal-Signature carries. */
export const signature = (secret: string, timestamp: number, body: string) => `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

/** The secret of a reseller, created when it has none yet. */
export async function secretOf(db: Kysely<Database>, resellerId: number): Promise<string> {
  await db
    .insertInto('webhookSecret')
    .values({ resellerId, secret: newSecret() })
    .onConflict((oc) => oc.column('resellerId').doNothing())
    .execute();
  return (await db.selectFrom('webhookSecret').select('secret').where('resellerId', '=', resellerId).executeTakeFirstOrThrow()).secret;
}

interface Claimed {
  id: number;
  eventId: string;
  resellerId: number;
  eventType: string;
  url: string;
  data: unknown;
  attempts: number;
  createdAt: Date | string;
}

interface Outcome {
  statusCode?: number;
  error?: string;
  latencyMs: number;
}

/** Posts `body` to the checked address of `target` (TLS still checks the certificate against the URL's host). */
function post(target: Target, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<number> {
  const pinned: LookupFunction = (_host, options, callback) => {
    if (options.all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      target.url,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: pinned, signal },
      (response) => {
        response.on('data', () => undefined);
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

export class WebhookWorker {
  private readonly allowPrivate: boolean;
  private readonly pollMs: number;
  private readonly backoffSeconds: number;
  readonly maxAttempts: number;
  private readonly timeoutMs: number;
  private loop: Promise<void> | undefined;
  private stopping = false;
  private wake: (() => void) | undefined;
  private abort = new AbortController();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
    opts: WebhookOptions = {},
  ) {
    this.allowPrivate = opts.allowPrivate ?? false;
    this.pollMs = opts.pollMs ?? 1000;
    this.backoffSeconds = opts.backoffSeconds ?? 30;
    this.maxAttempts = opts.maxAttempts ?? 8;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
  }

  get privateAllowed() {
    return this.allowPrivate;
  }

  start() {
    this.stopping = false;
    if (this.abort.signal.aborted) this.abort = new AbortController();
    this.loop ??= this.run();
  }

  /** Stops after the attempts in flight are cut short (they are logged and retried by the next process). */
  async stop() {
    this.stopping = true;
    this.abort.abort();
    this.wake?.();
    await this.loop;
    this.loop = undefined;
  }

  /** Looks for due deliveries now (after an enqueue in this process). */
  poke() {
    this.wake?.();
  }

  private async run() {
    while (!this.stopping) {
      let claimed: Claimed[] = [];
      try {
        claimed = await this.claim();
        await Promise.all(claimed.map((d) => this.deliver(d)));
      } catch (error) {
        if (!this.stopping) this.log.error({ err: error }, 'webhook worker: a round failed; it will be retried');
      }
      if (!claimed.length && !this.stopping) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.pollMs);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = undefined;
      }
    }
  }

  /** Takes due deliveries, leasing each past the time an attempt may take. */
  private async claim(): Promise<Claimed[]> {
    const leaseSeconds = Math.ceil(this.timeoutMs / 1000) + 30;
    const rows = await this.db
      .updateTable('webhookDelivery')
      .set({ nextAttemptAt: sql`now() + make_interval(secs => ${leaseSeconds})` })
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('webhookDelivery')
          .select('id')
          .where('status', '=', 'pending')
          .where('nextAttemptAt', '<=', sql<Date>`now()`)
          .orderBy('nextAttemptAt')
          .limit(BATCH)
          .forUpdate()
          .skipLocked(),
      )
      .returning(['id', 'eventId', 'resellerId', 'eventType', 'url', 'data', 'attempts', 'createdAt'])
      .execute();
    return rows;
  }

  private async attempt(d: Claimed): Promise<Outcome> {
    const started = Date.now();
    try {
      const target = await resolveTarget(d.url, this.allowPrivate);
      const timestamp = Math.floor(Date.now() / 1000);
      const data = typeof d.data === 'string' ? JSON.parse(d.data) : d.data;
      const body = JSON.stringify({ id: d.eventId, type: d.eventType, createdAt: new Date(d.createdAt).toISOString(), resellerId: d.resellerId, data });
      const secret = await secretOf(this.db, d.resellerId);
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'connectivity-portal-webhooks/1',
        'x-portal-event-id': d.eventId,
        'x-portal-timestamp': String(timestamp),
        'x-portal-signature': signature(secret, timestamp, body),
      };
      const signal = AbortSignal.any([AbortSignal.timeout(this.timeoutMs), this.abort.signal]);
      const statusCode = await post(target, headers, body, signal);
      return { statusCode, latencyMs: Date.now() - started, ...(statusCode >= 200 && statusCode < 300 ? {} : { error: `HTTP ${statusCode}` }) };
    } catch (e) {
      const error =
        e instanceof TargetError
          ? e.message
          : e instanceof Error
            ? e.name === 'AbortError' || e.name === 'TimeoutError'
              ? 'timed out'
              : e.message
            : String(e);
      return { error: error.slice(0, 500), latencyMs: Date.now() - started };
    }
  }

  private async deliver(d: Claimed) {
    const outcome = await this.attempt(d);
    if (this.stopping && this.abort.signal.aborted && outcome.statusCode === undefined) {
      // Cut short by the stop: not an attempt; the next process takes it at once.
      await this.db
        .updateTable('webhookDelivery')
        .set({ nextAttemptAt: sql`now()` })
        .where('id', '=', d.id)
        .execute();
      return;
    }
    const attempts = d.attempts + 1;
    const ok = outcome.error === undefined;
    const done = ok || attempts >= this.maxAttempts;
    const delay = Math.min(this.backoffSeconds * 2 ** (attempts - 1), MAX_BACKOFF_SECONDS);
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('webhookAttempt')
        .values({ deliveryId: d.id, statusCode: outcome.statusCode ?? null, error: outcome.error ?? null, latencyMs: outcome.latencyMs })
        .execute();
      await trx
        .updateTable('webhookDelivery')
        .set({
          attempts,
          status: ok ? 'delivered' : done ? 'failed' : 'pending',
          nextAttemptAt: done ? sql`now()` : sql`now() + make_interval(secs => ${delay})`,
          lastStatusCode: outcome.statusCode ?? null,
          lastError: outcome.error ?? null,
          lastLatencyMs: outcome.latencyMs,
          finishedAt: done ? sql`now()` : null,
        })
        .where('id', '=', d.id)
        .execute();
    });
  }
}
