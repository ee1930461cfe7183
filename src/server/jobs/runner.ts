/**
 * Runs durable jobs: work on many items (e.g. suspend 100,000 subscribers) that outlives a request and a server
 * restart. A domain registers a kind with the function that applies one item; a request enqueues a job with its
 * item keys and answers at once; the runner applies the items in chunks, each chunk one transaction that also
 * marks its items done or failed. A server killed mid-chunk loses that chunk's transaction, so on restart the
 * chunk runs again: every item is applied exactly once. Several servers may share the database: a job is
 * leased to one runner at a time and taken over when the lease runs out.
 *
 * A kind may also apply a whole chunk at once (set-based, far faster for large jobs): the runner then tries the
 * chunk in one savepoint and, should that throw, rolls it back and applies the chunk's items one by one, so a
 * bad item still fails alone.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/types';
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../http/errors';

export type JobStatus = 'queued' | 'running' | 'done' | 'cancelled';

export interface JobRecord {
  id: number;
  kind: string;
  userId: number | null;
  resellerId: number;
  params: Record<string, unknown>;
}

export interface JobKind {
  /**
   * Applies the job to one item inside the chunk's transaction. Throwing fails this item alone (its changes
   * are rolled back); an HttpError's message is kept as the item's reason.
   */
  apply(trx: Kysely<any>, key: string, job: JobRecord): Promise<void>;
  /**
   * Applies the job to a whole chunk inside its transaction, with the same outcome per item as `apply`: answers
   * the keys that failed with their reason (the message of the HttpError `apply` would throw); the others are
   * done. Throwing rolls the chunk's changes back and the runner applies its items one by one instead.
   * `afterCommit` holds work (e.g. network requests) until the chunk's transaction has committed.
   */
  applyChunk?(trx: Kysely<any>, keys: readonly string[], job: JobRecord, afterCommit: (fn: () => void) => void): Promise<Map<string, string>>;
}

export interface NewJob {
  kind: string;
  userId: number;
  resellerId: number;
  params?: Record<string, unknown>;
  keys: readonly string[];
}

export interface RunnerOptions {
  /** Items per transaction. */
  chunk?: number;
  /** How often an idle runner looks for work, in ms. */
  pollMs?: number;
  /** How long a runner holds a job without renewing, in seconds. */
  leaseSeconds?: number;
}

const INSERT_BATCH = 1000;

export class JobRunner {
  private readonly kinds = new Map<string, JobKind>();
  private readonly owner = randomUUID();
  private readonly chunk: number;
  private readonly pollMs: number;
  private readonly leaseSeconds: number;
  private loop: Promise<void> | undefined;
  private stopping = false;
  private wake: (() => void) | undefined;

  constructor(private readonly db: Kysely<Database>, private readonly log: FastifyBaseLogger, opts: RunnerOptions = {}) {
    this.chunk = opts.chunk ?? 500;
    this.pollMs = opts.pollMs ?? 1000;
    this.leaseSeconds = opts.leaseSeconds ?? 30;
  }

  register(kind: string, handler: JobKind) {
    if (this.kinds.has(kind)) throw new Error(`job kind ${kind} registered twice`);
    this.kinds.set(kind, handler);
  }

  /**
   * Stores a job and its items in one transaction (the caller's when given), so no runner takes it before all
   * its items are there, and wakes the runner.
   */
  async enqueue(job: NewJob, db?: Kysely<Database>): Promise<number> {
    if (!this.kinds.has(job.kind)) throw new Error(`unknown job kind ${job.kind}`);
    const id = db ? await this.store(job, db) : await this.db.transaction().execute((trx) => this.store(job, trx));
    this.wake?.();
    return id;
  }

  private async store(job: NewJob, db: Kysely<Database>): Promise<number> {
    const { id } = await db
      .insertInto('job')
      .values({ kind: job.kind, userId: job.userId, resellerId: job.resellerId, params: JSON.stringify(job.params ?? {}), total: job.keys.length })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (let i = 0; i < job.keys.length; i += INSERT_BATCH) {
      const rows = job.keys.slice(i, i + INSERT_BATCH).map((key, j) => ({ jobId: id, seq: i + j, key }));
      await db.insertInto('jobItem').values(rows).execute();
    }
    if (job.keys.length === 0) await db.updateTable('job').set({ status: 'done', finishedAt: sql`now()` }).where('id', '=', id).execute();
    return Number(id);
  }

  start() {
    this.stopping = false;
    this.loop ??= this.run();
  }

  async stop() {
    this.stopping = true;
    this.wake?.();
    await this.loop;
    this.loop = undefined;
  }

  private async run() {
    while (!this.stopping) {
      let job: JobRecord | undefined;
      try {
        job = await this.claim();
        if (job) await this.process(job);
      } catch (error) {
        this.log.error({ err: error, job: job?.id }, 'job runner: a chunk failed; it will be retried');
      }
      if (!job && !this.stopping) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.pollMs);
          this.wake = () => { clearTimeout(timer); resolve(); };
        });
        this.wake = undefined;
      }
    }
  }

  /** Leases the oldest open job of a kind this runner knows whose lease is free or ran out. */
  private async claim(): Promise<JobRecord | undefined> {
    if (this.kinds.size === 0) return undefined;
    const row = await this.db
      .updateTable('job')
      .set({ status: 'running', leaseOwner: this.owner, leaseUntil: sql`now() + make_interval(secs => ${this.leaseSeconds})`, startedAt: sql`coalesce(started_at, now())` })
      .where('id', '=', (eb) =>
        eb.selectFrom('job').select('id')
          .where('status', 'in', ['queued', 'running'])
          .where('kind', 'in', [...this.kinds.keys()])
          .where((w) => w.or([w('leaseUntil', 'is', null), w('leaseUntil', '<', sql<Date>`now()`), w('leaseOwner', '=', this.owner)]))
          .orderBy('id').limit(1).forUpdate().skipLocked())
      .returning(['id', 'kind', 'userId', 'resellerId', 'params'])
      .executeTakeFirst();
    if (!row) return undefined;
    return { ...row, params: typeof row.params === 'string' ? JSON.parse(row.params) : row.params } as JobRecord;
  }

  private async process(job: JobRecord) {
    const handler = this.kinds.get(job.kind)!;
    while (!this.stopping) {
      let committed: (() => void)[] = [];
      const more = await this.db.transaction().execute(async (trx) => {
        // Still ours and still wanted? A cancelled job or a lost lease stops here, before changing anything.
        const current = await trx.selectFrom('job').select(['status', 'leaseOwner']).where('id', '=', job.id).forUpdate().executeTakeFirst();
        if (!current || current.status !== 'running' || current.leaseOwner !== this.owner) return false;
        const items = await trx.selectFrom('jobItem').select(['seq', 'key']).where('jobId', '=', job.id).where('status', '=', 'pending').orderBy('seq').limit(this.chunk).execute();
        if (items.length === 0) {
          await trx.updateTable('job').set({ status: 'done', finishedAt: sql`now()`, leaseOwner: null, leaseUntil: null }).where('id', '=', job.id).execute();
          return false;
        }
        let outcome = handler.applyChunk ? await this.applyChunk(trx, handler, items, job, committed) : undefined;
        if (!outcome) {
          committed = [];
          outcome = await this.applyEach(trx, handler, items, job);
        }
        const { done, failed } = outcome;
        if (done.length) await trx.updateTable('jobItem').set({ status: 'done' }).where('jobId', '=', job.id).where('seq', 'in', done).execute();
        const byError = new Map<string, number[]>();
        for (const f of failed) byError.set(f.error, [...(byError.get(f.error) ?? []), f.seq]);
        for (const [error, seqs] of byError) await trx.updateTable('jobItem').set({ status: 'failed', error }).where('jobId', '=', job.id).where('seq', 'in', seqs).execute();
        await trx.updateTable('job')
          .set({ done: sql`done + ${done.length}`, failed: sql`failed + ${failed.length}`, leaseUntil: sql`now() + make_interval(secs => ${this.leaseSeconds})` })
          .where('id', '=', job.id).execute();
        return true;
      });
      for (const fn of committed) fn();
      if (!more) return;
      // Let requests in: on the embedded database every statement runs on this thread and ends in a microtask,
      // so without this turn of the event loop a long job would hold the server until its last chunk.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** The chunk in one go, in a savepoint; undefined (rolled back) when the kind threw. */
  private async applyChunk(trx: Kysely<any>, handler: JobKind, items: Item[], job: JobRecord, committed: (() => void)[]): Promise<Outcome | undefined> {
    await sql`savepoint job_chunk`.execute(trx);
    try {
      const failures = await handler.applyChunk!(trx, items.map((item) => item.key), job, (fn) => committed.push(fn));
      await sql`release savepoint job_chunk`.execute(trx);
      const outcome: Outcome = { done: [], failed: [] };
      for (const item of items) {
        const error = failures.get(item.key);
        if (error === undefined) outcome.done.push(item.seq);
        else outcome.failed.push({ seq: item.seq, error });
      }
      return outcome;
    } catch (error) {
      await sql`rollback to savepoint job_chunk`.execute(trx);
      if (!(error instanceof HttpError)) this.log.warn({ err: error, job: job.id }, 'job chunk failed; applying its items one by one');
      return undefined;
    }
  }

  /** Each item in a savepoint of its own: a failing item is rolled back alone. */
  private async applyEach(trx: Kysely<any>, handler: JobKind, items: Item[], job: JobRecord): Promise<Outcome> {
    const outcome: Outcome = { done: [], failed: [] };
    for (const item of items) {
      await sql`savepoint job_item`.execute(trx);
      try {
        await handler.apply(trx, item.key, job);
        await sql`release savepoint job_item`.execute(trx);
        outcome.done.push(item.seq);
      } catch (error) {
        await sql`rollback to savepoint job_item`.execute(trx);
        if (!(error instanceof HttpError)) this.log.warn({ err: error, job: job.id, key: item.key }, 'job item failed');
        outcome.failed.push({ seq: item.seq, error: error instanceof HttpError ? error.message : 'Unexpected error' });
      }
    }
    return outcome;
  }
}

interface Item { seq: number; key: string }
interface Outcome { done: number[]; failed: { seq: number; error: string }[] }
