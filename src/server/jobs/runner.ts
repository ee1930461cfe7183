/**
 * Runs durable jobs: work on many items (e.g. suspend 100,000 subscribers) that outlives a request and a server
 * restart. A domain registers a kind with the function that applies one item; a request enqueues a job with its
 * item keys and answers at once; the runner applies the items in chunks, each chunk one transaction that also
 * records each item's outcome. A server killed mid-chunk loses that chunk's transaction, so on restart the
 * chunk runs again: every item is applied exactly once. Several servers may share the database: a job is
 * leased to one runner at a time and taken over when the lease runs out.
 *
 * An item ends succeeded, failed or skipped (nothing to do), each but the first with its reason. An item handed to
 * the core network waits for the network's answer (`waiting`); the answer settles it (see outcomes.ts). A job whose
 * items are all applied but some still wait is `waiting`; it ends once the last answer has come, or fails the items
 * still waiting when no answer came for `answerTimeoutSeconds`. A job ends `done`, or `failed` when every item failed.
 *
 * A kind may also apply a whole chunk at once (set-based, far faster for large jobs): the runner then tries the
 * chunk in one savepoint and, should that throw, rolls it back and applies the chunk's items one by one, so a
 * bad item still fails alone.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/types';
import type { FastifyBaseLogger } from 'fastify';
import { conflict, englishText, fieldError, HttpError } from '../http/errors';
import type { Principal } from '../http/principal';
import { batcher } from './batcher';
import { endJobs, NO_ANSWER, outcomeOfError, settleJobItems, type ItemAnswer, type ItemOutcome } from './outcomes';

export { type ItemAnswer, type ItemOutcome } from './outcomes';

export type JobStatus = 'queued' | 'running' | 'waiting' | 'done' | 'failed' | 'cancelled';

export interface JobRecord {
  id: number;
  kind: string;
  userId: number | null;
  resellerId: number;
  params: Record<string, unknown>;
}

/** What a retry of a job's failed items is: the items still to try, and what the new job needs beside them. */
export interface RetryPlan {
  keys: string[];
  params?: Record<string, unknown>;
  /** Runs in the transaction that stores the new job (e.g. stores what its items need beside it). */
  prepare?: (trx: Kysely<Database>, jobId: number) => Promise<void>;
}

export interface JobKind {
  /**
   * Applies the job to one item inside the chunk's transaction and answers its outcome (nothing: succeeded).
   * Throwing fails this item alone (its changes are rolled back; an HttpError's message is its reason); a
   * `failed` outcome keeps what the item changed (e.g. the reason recorded on the subscriber). `afterCommit` holds
   * work (e.g. network requests) until the item's changes are committed; a thrown item's is dropped.
   */
  apply(trx: Kysely<Database>, key: string, job: JobRecord, afterCommit: (fn: () => void) => void): Promise<ItemOutcome | void>;
  /**
   * Applies the job to a whole chunk inside its transaction, with the same outcome per item as `apply`: answers
   * the outcome of each key that did not simply succeed. Throwing rolls the chunk's changes back and the runner
   * applies its items one by one instead. `afterCommit` holds work until the chunk's transaction has committed.
   */
  applyChunk?(trx: Kysely<Database>, keys: readonly string[], job: JobRecord, afterCommit: (fn: () => void) => void): Promise<Map<string, ItemOutcome>>;
  /**
   * A new job over the failed items: checks that the caller may still do what the job does (throws 403 or 400 as
   * the original call would) and keeps the items the caller may still see. Without it the kind cannot be retried.
   */
  retry?(db: Kysely<Database>, principal: Principal, job: JobRecord, failedKeys: string[]): Promise<RetryPlan>;
  /** Items whose network answer never came (now failed): lets the kind settle what it left pending for them. */
  expire?(trx: Kysely<Database>, job: JobRecord, keys: string[]): Promise<void>;
  /** Items per transaction for this kind (a set-based `applyChunk` takes more at once), unless the runner is given its own. */
  chunk?: number;
}

export interface NewJob {
  kind: string;
  userId: number;
  resellerId: number;
  params?: Record<string, unknown>;
  keys: readonly string[];
  /** The job whose failed items this one tries again. */
  retryOf?: number;
}

export interface RunnerOptions {
  /** Items per transaction, for every kind (otherwise the kind's own, or 500). */
  chunk?: number;
  /** How often an idle runner looks for work, in ms. */
  pollMs?: number;
  /** How long a runner holds a job without renewing, in seconds. */
  leaseSeconds?: number;
  /** How long a job waits for the next network answer before the items still waiting fail, in seconds. */
  answerTimeoutSeconds?: number;
}

/** Items stored per statement. */
const INSERT_BATCH = 10000;
const DEFAULT_CHUNK = 500;
/** A network operation left without an answer this long has failed (as a single subscriber operation does). */
export const ANSWER_TIMEOUT_SECONDS = 300;

export class JobRunner {
  private readonly kinds = new Map<string, JobKind>();
  private readonly owner = randomUUID();
  private readonly chunk: number | undefined;
  private readonly pollMs: number;
  private readonly leaseSeconds: number;
  readonly answerTimeoutSeconds: number;
  private loop: Promise<void> | undefined;
  private stopping = false;
  private wake: (() => void) | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
    opts: RunnerOptions = {},
  ) {
    this.chunk = opts.chunk;
    this.pollMs = opts.pollMs ?? 1000;
    this.leaseSeconds = opts.leaseSeconds ?? 30;
    this.answerTimeoutSeconds = opts.answerTimeoutSeconds ?? ANSWER_TIMEOUT_SECONDS;
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

  /**
   * Stores a job the caller applies itself, in its own transaction (a range changed all at once), so it is followed,
   * listed and retried like any other; `applied` then records each item's outcome in the same transaction.
   */
  begin(job: NewJob, db: Kysely<Database>): Promise<number> {
    if (!this.kinds.has(job.kind)) throw new Error(`unknown job kind ${job.kind}`);
    return this.store(job, db, sql<Date>`now()`);
  }

  /** The outcome of every item of a job `begin` stored (absent: succeeded); it then waits for the network's answers, or has ended. */
  async applied(db: Kysely<Database>, jobId: number, keys: readonly string[], outcomes: ReadonlyMap<string, ItemOutcome>) {
    await this.recordOutcomes(
      db,
      jobId,
      keys.map((key, seq) => ({ seq, outcome: outcomes.get(key) ?? { status: 'done' } })),
    );
    await endJobs(db, [jobId], this.answerTimeoutSeconds);
  }

  private async store(job: NewJob, db: Kysely<Database>, startedAt?: RawBuilder<Date>): Promise<number> {
    const { id } = await db
      .insertInto('job')
      .values({
        kind: job.kind,
        userId: job.userId,
        resellerId: job.resellerId,
        params: JSON.stringify(job.params ?? {}),
        total: job.keys.length,
        retryOf: job.retryOf ?? null,
        ...(startedAt ? { status: 'running', startedAt } : {}),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // The keys go as one JSON value per statement rather than three parameters per item.
    for (let i = 0; i < job.keys.length; i += INSERT_BATCH)
      await sql`insert into job_item (job_id, seq, key)
        select ${id}::integer, ${i}::integer + k.n::integer - 1, k.key
        from jsonb_array_elements_text(${JSON.stringify(job.keys.slice(i, i + INSERT_BATCH))}::jsonb) with ordinality as k(key, n)`.execute(db);
    if (job.keys.length === 0)
      await db
        .updateTable('job')
        .set({ status: 'done', finishedAt: sql`now()` })
        .where('id', '=', id)
        .execute();
    return Number(id);
  }

  /**
   * A new job of the same kind over a finished job's failed items, started by `principal` under the kind's own
   * checks (the items the caller can no longer see are left out). 409 while the job runs, without failed items,
   * or when none of them is left to try.
   */
  async retry(job: JobRecord & { status: string; failed: number }, principal: Principal): Promise<{ jobId: number; total: number; leftOut: number }> {
    const kind = this.kinds.get(job.kind);
    if (!kind?.retry) throw conflict([fieldError('id', 'retry', 'job.retry.unsupported')]);
    if (!['done', 'failed', 'cancelled'].includes(job.status)) throw conflict([fieldError('id', 'ended', 'job.retry.running')]);
    const failed = (await this.db.selectFrom('jobItem').select('key').where('jobId', '=', job.id).where('status', '=', 'failed').orderBy('seq').execute()).map(
      (r) => r.key,
    );
    if (!failed.length) throw conflict([fieldError('id', 'failed', 'job.retry.nothing')]);
    const plan = await kind.retry(this.db, principal, job, failed);
    if (!plan.keys.length) throw conflict([fieldError('id', 'visible', 'job.retry.noneVisible')]);
    const jobId = await this.db.transaction().execute(async (trx) => {
      const id = await this.store(
        { kind: job.kind, userId: principal.userId, resellerId: principal.resellerId, params: plan.params ?? job.params, keys: plan.keys, retryOf: job.id },
        trx,
      );
      await plan.prepare?.(trx, id);
      return id;
    });
    this.wake?.();
    return { jobId, total: plan.keys.length, leftOut: failed.length - plan.keys.length };
  }

  /** Network answers for waiting items, in the caller's transaction (the one that applies what they change). */
  settleIn(trx: Kysely<Database>, answers: readonly ItemAnswer[]) {
    return settleJobItems(trx, answers, this.answerTimeoutSeconds);
  }

  /** A network answer for a waiting item that changes nothing else, settled with the answers arriving beside it. */
  readonly answer = batcher<ItemAnswer>((answers) => this.db.transaction().execute((trx) => this.settleIn(trx, answers)));

  /**
   * Stops a queued or running job before its next chunk; items already applied stay applied, and those waiting
   * for the network are still settled by its answers (or fail when none comes in time).
   */
  async cancel(id: number) {
    await this.db
      .updateTable('job')
      .set({
        status: 'cancelled',
        finishedAt: sql`now()`,
        leaseOwner: null,
        leaseUntil: sql`case when waiting > 0 then now() + make_interval(secs => ${this.answerTimeoutSeconds}) else null end`,
      })
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'running'])
      .execute();
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
      let job: (JobRecord & { status: string }) | undefined;
      try {
        job = await this.claim();
        if (job?.status === 'running') await this.process(job);
        else if (job) await this.expire(job);
      } catch (error) {
        this.log.error({ err: error, job: job?.id }, 'job runner: a chunk failed; it will be retried');
      }
      if (!job && !this.stopping) {
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

  /**
   * Leases the oldest open job of a kind this runner knows whose lease is free or ran out; or else a job whose
   * network answers are overdue (its lease, while it waits, is the answers' deadline), to fail what still waits.
   */
  private async claim(): Promise<(JobRecord & { status: string }) | undefined> {
    if (this.kinds.size === 0) return undefined;
    const kinds = [...this.kinds.keys()];
    const row = await this.db
      .updateTable('job')
      .set({
        status: sql`case when status in ('queued', 'running') then 'running' else status end`,
        leaseOwner: this.owner,
        leaseUntil: sql`now() + make_interval(secs => ${this.leaseSeconds})`,
        startedAt: sql`coalesce(started_at, now())`,
      })
      .where('id', '=', (eb) =>
        eb
          .selectFrom('job')
          .select('id')
          .where('kind', 'in', kinds)
          .where((w) =>
            w.or([
              w.and([
                w('status', 'in', ['queued', 'running']),
                w.or([w('leaseUntil', 'is', null), w('leaseUntil', '<', sql<Date>`now()`), w('leaseOwner', '=', this.owner)]),
              ]),
              w.and([w('waiting', '>', 0), w('status', 'in', ['waiting', 'cancelled']), w('leaseUntil', '<', sql<Date>`now()`)]),
            ]),
          )
          .orderBy('id')
          .limit(1)
          .forUpdate()
          .skipLocked(),
      )
      .returning(['id', 'kind', 'userId', 'resellerId', 'params', 'status'])
      .executeTakeFirst();
    if (!row) return undefined;
    return { ...row, params: typeof row.params === 'string' ? JSON.parse(row.params) : row.params } as JobRecord & { status: string };
  }

  private async process(job: JobRecord) {
    const handler = this.kinds.get(job.kind)!;
    while (!this.stopping) {
      let committed: (() => void)[] = [];
      const more = await this.db.transaction().execute(async (trx) => {
        // Still ours and still wanted? A cancelled job or a lost lease stops here, before changing anything.
        const current = await trx.selectFrom('job').select(['status', 'leaseOwner']).where('id', '=', job.id).forUpdate().executeTakeFirst();
        if (!current || current.status !== 'running' || current.leaseOwner !== this.owner) return false;
        const items = await trx
          .selectFrom('jobItem')
          .select(['seq', 'key'])
          .where('jobId', '=', job.id)
          .where('status', '=', 'pending')
          .orderBy('seq')
          .limit(this.chunk ?? handler.chunk ?? DEFAULT_CHUNK)
          .execute();
        if (items.length === 0) {
          await endJobs(trx, [job.id], this.answerTimeoutSeconds);
          return false;
        }
        let outcomes = handler.applyChunk ? await this.applyChunk(trx, handler, items, job, committed) : undefined;
        if (!outcomes) {
          committed = [];
          outcomes = await this.applyEach(trx, handler, items, job, committed);
        }
        await this.recordOutcomes(trx, job.id, outcomes);
        await trx
          .updateTable('job')
          .set({ leaseUntil: sql`now() + make_interval(secs => ${this.leaseSeconds})` })
          .where('id', '=', job.id)
          .execute();
        return true;
      });
      for (const fn of committed) fn();
      if (!more) return;
      // Let requests in: on the embedded database every statement runs on this thread and ends in a microtask,
      // so without this turn of the event loop a long job would hold the server until its last chunk.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Writes the items' outcomes (one statement per kind of outcome and reason) and adds them to the job's counts. */
  private async recordOutcomes(trx: Kysely<Database>, jobId: number, items: readonly { seq: number; outcome: ItemOutcome }[]) {
    const groups = new Map<string, { set: Record<string, unknown>; seqs: number[] }>();
    const counts = { done: 0, failed: 0, skipped: 0, waiting: 0 };
    for (const { seq, outcome } of items) {
      counts[outcome.status] += 1;
      const set =
        outcome.status === 'waiting'
          ? { status: 'waiting', answers: outcome.answers ?? 1 }
          : outcome.status === 'done'
            ? { status: 'done' }
            : { status: outcome.status, messageId: outcome.messageId, error: englishText(outcome.messageId), detail: outcome.detail ?? null };
      const key = JSON.stringify(set);
      const group = groups.get(key);
      if (group) group.seqs.push(seq);
      else groups.set(key, { set, seqs: [seq] });
    }
    for (const { set, seqs } of groups.values()) await trx.updateTable('jobItem').set(set).where('jobId', '=', jobId).where('seq', 'in', seqs).execute();
    await trx
      .updateTable('job')
      .set({
        succeeded: sql`succeeded + ${counts.done}`,
        failed: sql`failed + ${counts.failed}`,
        skipped: sql`skipped + ${counts.skipped}`,
        waiting: sql`waiting + ${counts.waiting}`,
      })
      .where('id', '=', jobId)
      .execute();
  }

  /** The items of a job whose network answers did not come in time fail, and the job ends. */
  private async expire(job: JobRecord) {
    const handler = this.kinds.get(job.kind)!;
    await this.db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('job').select(['leaseOwner']).where('id', '=', job.id).forUpdate().executeTakeFirst();
      if (current?.leaseOwner !== this.owner) return;
      const left = await trx
        .updateTable('jobItem')
        .set({ status: 'failed', answers: 0, messageId: NO_ANSWER, error: englishText(NO_ANSWER) })
        .where('jobId', '=', job.id)
        .where('status', '=', 'waiting')
        .returning('key')
        .execute();
      if (left.length)
        await handler.expire?.(
          trx,
          job,
          left.map((r) => r.key),
        );
      await trx
        .updateTable('job')
        .set({ failed: sql`failed + ${left.length}`, waiting: 0, leaseOwner: null })
        .where('id', '=', job.id)
        .execute();
      await endJobs(trx, [job.id], this.answerTimeoutSeconds);
    });
  }

  /** The chunk in one go, in a savepoint; undefined (rolled back) when the kind threw. */
  private async applyChunk(trx: Kysely<Database>, handler: JobKind, items: Item[], job: JobRecord, committed: (() => void)[]): Promise<Outcome[] | undefined> {
    await sql`savepoint job_chunk`.execute(trx);
    try {
      const outcomes = await handler.applyChunk!(
        trx,
        items.map((item) => item.key),
        job,
        (fn) => committed.push(fn),
      );
      await sql`release savepoint job_chunk`.execute(trx);
      return items.map((item) => ({ seq: item.seq, outcome: outcomes.get(item.key) ?? { status: 'done' } }));
    } catch (error) {
      await sql`rollback to savepoint job_chunk`.execute(trx);
      if (!(error instanceof HttpError)) this.log.warn({ err: error, job: job.id }, 'job chunk failed; applying its items one by one');
      return undefined;
    }
  }

  /** Each item in a savepoint of its own: a failing item is rolled back alone, with the work it held back. */
  private async applyEach(trx: Kysely<Database>, handler: JobKind, items: Item[], job: JobRecord, committed: (() => void)[]): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    for (const item of items) {
      const held: (() => void)[] = [];
      await sql`savepoint job_item`.execute(trx);
      try {
        const outcome = await handler.apply(trx, item.key, job, (fn) => held.push(fn));
        await sql`release savepoint job_item`.execute(trx);
        committed.push(...held);
        outcomes.push({ seq: item.seq, outcome: outcome ?? { status: 'done' } });
      } catch (error) {
        await sql`rollback to savepoint job_item`.execute(trx);
        if (!(error instanceof HttpError)) this.log.warn({ err: error, job: job.id, key: item.key }, 'job item failed');
        outcomes.push({ seq: item.seq, outcome: outcomeOfError(error) });
      }
    }
    return outcomes;
  }
}

interface Item {
  seq: number;
  key: string;
}
interface Outcome {
  seq: number;
  outcome: ItemOutcome;
}
