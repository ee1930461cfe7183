/**
 * The outcome of each item of a job, and how a job ends. An item succeeds, fails or is skipped (nothing to do) when
 * it is applied, or waits for the core network's answer(s), which settle it later in a transaction of their own.
 */
import { sql, type Kysely } from 'kysely';
import { englishText, HttpError } from '../http/errors';
import type { Database } from '../db/types';
import { jsonRecords } from '../db/jsonRecords';

export type ItemOutcome =
  | { status: 'done' }
  /** Handed to the network: `answers` (1 by default) settle it; any failed answer fails it. */
  | { status: 'waiting'; answers?: number }
  | { status: 'skipped'; messageId: string; detail?: string }
  | { status: 'failed'; messageId: string; detail?: string };

/** The reason of an item whose network answer never came. */
export const NO_ANSWER = 'subscriberOperation.failed.noAnswer';

/** The message id of a thrown error, as an item's reason. */
export function outcomeOfError(error: unknown): ItemOutcome {
  if (!(error instanceof HttpError)) return { status: 'failed', messageId: 'job.reason.unexpected' };
  const messageId =
    error.fields?.[0]?.messageId ??
    ({ 403: 'error.forbidden', 404: 'error.notFound', 409: 'error.conflict' } as Record<number, string>)[error.statusCode] ??
    'error.validation';
  return { status: 'failed', messageId };
}

/**
 * Ends the jobs among `ids` with no item left to apply: one still waiting for answers is `waiting` (its lease is
 * then the deadline of the next answer), the others `done`, or `failed` when every item failed. A cancelled job
 * stays cancelled.
 */
export async function endJobs(trx: Kysely<Database>, ids: readonly number[], answerTimeoutSeconds: number) {
  if (!ids.length) return;
  await sql`update job set
      status = case when status = 'cancelled' then status when waiting > 0 then 'waiting'
        when failed > 0 and succeeded = 0 and skipped = 0 then 'failed' else 'done' end,
      finished_at = case when waiting > 0 then finished_at else coalesce(finished_at, now()) end,
      lease_owner = null,
      lease_until = case when waiting > 0 then now() + make_interval(secs => ${answerTimeoutSeconds}) else null end
    where id in (${sql.join(ids)}) and not exists (select 1 from job_item i where i.job_id = job.id and i.status = 'pending' limit 1)`.execute(trx);
}

/** One network answer for an item of a job. */
export interface ItemAnswer {
  jobId: number;
  key: string;
  ok: boolean;
  /** Why it failed (a message id) and the network's own words. */
  messageId?: string;
  detail?: string;
}

/** Locks the jobs answers are about, in id order, before anything else they touch (so a chunk and answers never deadlock). */
export async function lockJobs(trx: Kysely<Database>, answers: readonly ItemAnswer[]) {
  const ids = [...new Set(answers.map((a) => a.jobId))].sort((a, b) => a - b);
  if (ids.length) await trx.selectFrom('job').select('id').where('id', 'in', ids).orderBy('id').forUpdate().execute();
}

/**
 * Applies network answers to the items waiting for them, in the caller's transaction (the one that applies the
 * answer's change): an item is done when its last expected answer succeeded, failed at its first failed answer
 * (with that reason, and then awaits nothing more); the jobs' counts follow, each answer pushes its job's deadline on, and a waiting job whose
 * last item is settled ends. An answer for an item no longer waiting (expired, or already failed) changes nothing.
 * Call `lockJobs` first when the transaction locks other rows too.
 */
export async function settleJobItems(trx: Kysely<Database>, answers: readonly ItemAnswer[], answerTimeoutSeconds: number) {
  if (!answers.length) return;
  await lockJobs(trx, answers);
  // Answers to the same item together: how many, and the first failure.
  const byItem = new Map<string, { jobId: number; key: string; count: number; failure?: ItemAnswer }>();
  for (const a of answers) {
    const id = `${a.jobId}:${a.key}`;
    const item = byItem.get(id) ?? { jobId: a.jobId, key: a.key, count: 0 };
    item.count += 1;
    if (!a.ok) item.failure ??= a;
    byItem.set(id, item);
  }
  const rows = [...byItem.values()].map((i) => ({
    job_id: i.jobId,
    key: i.key,
    count: i.count,
    failed: Boolean(i.failure),
    message_id: i.failure ? (i.failure.messageId ?? 'subscriberOperation.failed.network') : null,
    error: i.failure ? englishText(i.failure.messageId ?? 'subscriberOperation.failed.network') : null,
    detail: i.failure?.detail ?? null,
  }));
  const settled = await sql<{ jobId: number; status: string }>`update job_item i set
      answers = case when v.failed then 0 else greatest(i.answers - v.count, 0) end,
      status = case when v.failed then 'failed' when i.answers - v.count <= 0 then 'done' else 'waiting' end,
      message_id = case when v.failed then v.message_id else i.message_id end,
      error = case when v.failed then v.error else i.error end,
      detail = case when v.failed then v.detail else i.detail end
    from ${jsonRecords(rows, { job_id: 'integer', key: 'text', count: 'integer', failed: 'boolean', message_id: 'text', error: 'text', detail: 'text' })}
    where i.job_id = v.job_id and i.key = v.key and i.status = 'waiting'
    returning i.job_id as "jobId", i.status`.execute(trx);
  const counts = new Map<number, { done: number; failed: number }>();
  for (const { jobId, status } of settled.rows) {
    const c = counts.get(jobId) ?? { done: 0, failed: 0 };
    if (status === 'done') c.done += 1;
    if (status === 'failed') c.failed += 1;
    counts.set(jobId, c);
  }
  const touched = [...new Set(answers.map((a) => a.jobId))];
  for (const jobId of touched) {
    const { done, failed } = counts.get(jobId) ?? { done: 0, failed: 0 };
    // A job still applying its items keeps the runner's lease; one that only waits gets a new deadline.
    await sql`update job set succeeded = succeeded + ${done}, failed = failed + ${failed}, waiting = waiting - ${done + failed},
        lease_until = case when status in ('waiting', 'cancelled') then now() + make_interval(secs => ${answerTimeoutSeconds}) else lease_until end
      where id = ${jobId}`.execute(trx);
  }
  const ended = await trx
    .selectFrom('job')
    .select('id')
    .where('id', 'in', touched)
    .where('status', 'in', ['waiting', 'cancelled'])
    .where('waiting', '=', 0)
    .execute();
  await endJobs(
    trx,
    ended.map((j) => Number(j.id)),
    answerTimeoutSeconds,
  );
}
