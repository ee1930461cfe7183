/** The core network's answers to bulk status changes, applied a few hundred per transaction. */
import { sql, type Kysely } from 'kysely';
import type { CoreNetworkAnswer } from '../../../adapters/core-network';
import { batcher } from '../../../jobs/batcher';
import { lockJobs, type ItemAnswer } from '../../../jobs/outcomes';
import type { Actor } from '../network';
import { changeSubscribers } from '../operationRoutes';
import type { Database } from '../../../db/types';
import type { ApplyContext } from './apply';
import { groupBy } from './groupBy';
import { jsonRecords } from '../../../db/jsonRecords';

/** A network answer as a job item's: its failure reason is the network's refusal, with the network's own words. */
export const answerOutcome = (answer: CoreNetworkAnswer) => ({
  ok: answer.ok,
  ...(answer.ok ? {} : { messageId: 'subscriberOperation.failed.network', detail: answer.detail }),
});

/** The network's answer to a bulk status change, waiting to be applied. */
interface StatusAnswer {
  /** The operation record. */
  id: number;
  subscriberId: number;
  target: 'suspended' | 'active';
  iccid: string;
  actor: Actor;
  answer: CoreNetworkAnswer;
  /** The job whose item the subscriber is. */
  job?: ApplyContext['job'];
}

/** Answers are applied a few hundred per transaction; one settler per database. */
const settlers = new WeakMap<Kysely<Database>, (answer: StatusAnswer) => Promise<void>>();

/** Applies the network's answer to a bulk status change (resolves once it is), batched with the answers arriving beside it. */
export function settleStatus(db: Kysely<Database>, answer: StatusAnswer): Promise<void> {
  let settle = settlers.get(db);
  if (!settle) {
    settle = batcher<StatusAnswer>((answers) => finishStatuses(db, answers), STATUS_BATCH);
    settlers.set(db, settle);
  }
  return settle(answer);
}

const STATUS_BATCH = 500;

/**
 * Network answers to bulk status changes, as a single operation applies its own: a success changes the status
 * (with its audit entry) and the SIM card's; a failure leaves the subscriber as it was; either settles the
 * operation record. An answer whose record is gone (its job chunk rolled back) or settled is skipped.
 */
async function finishStatuses(db: Kysely<Database>, answers: readonly StatusAnswer[]) {
  const itemAnswer = (a: StatusAnswer): ItemAnswer | undefined =>
    a.job ? { jobId: a.job.id, key: String(a.subscriberId), ...answerOutcome(a.answer) } : undefined;
  await db.transaction().execute(async (t) => {
    // The jobs first, as a job chunk takes them (before its subscribers), so the two never wait for each other.
    await lockJobs(
      t,
      answers.flatMap((a) => itemAnswer(a) ?? []),
    );
    // A job chunk still open holds these locks: waiting for it makes its operation rows visible (or gone, when rolled back).
    await t
      .selectFrom('subscriber')
      .select('subscriberId')
      .where(
        'subscriberId',
        'in',
        answers.map((a) => a.subscriberId),
      )
      .orderBy('subscriberId')
      .forUpdate()
      .execute();
    const open = await t
      .selectFrom('subscriberOperation')
      .select('id')
      .where(
        'id',
        'in',
        answers.map((a) => a.id),
      )
      .where('status', '=', 'pending')
      .forUpdate()
      .execute();
    const pending = new Set(open.map((op) => Number(op.id)));
    const live = answers.filter((a) => pending.has(a.id));
    if (!live.length) return;
    const groups = groupBy(
      live.filter((a) => a.answer.ok),
      (a) => JSON.stringify([a.target, a.actor.userId, a.actor.username]),
    );
    for (const group of groups.values()) {
      const { target, actor } = group[0];
      await changeSubscribers(
        t,
        group.map((a) => a.subscriberId),
        actor,
        target === 'suspended' ? 'suspend' : 'reactivate',
        { status: target },
      );
      await t
        .updateTable('simCard')
        .set({ status: target, statusDate: sql`now()` })
        .where(
          'iccid',
          'in',
          group.map((a) => a.iccid),
        )
        .execute();
    }
    const settled = live.map(({ id, answer }) => ({
      id,
      status: answer.ok ? 'success' : 'failed',
      message_id: answer.ok ? null : 'subscriberOperation.failed.network',
      detail: answer.detail ?? null,
      request_id: answer.requestId,
    }));
    await sql`update subscriber_operation o set status = v.status, message_id = v.message_id, detail = v.detail, network_request_id = v.request_id, finished_at = now()
      from ${jsonRecords(settled, { id: 'bigint', status: 'text', message_id: 'text', detail: 'text', request_id: 'text' })}
      where o.id = v.id`.execute(t);
    // The jobs' items: the answer is each one's outcome.
    const runner = live.find((a) => a.job)?.job?.runner;
    if (runner)
      await runner.settleIn(
        t,
        live.flatMap((a) => itemAnswer(a) ?? []),
      );
  });
}
