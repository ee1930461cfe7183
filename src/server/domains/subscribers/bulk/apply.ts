/** Applying a checked action to one subscriber or to many at once, with audit entries and network requests. */
import { sql, type Kysely } from 'kysely';
import { mergeCustom } from '@shared/customFields';
import type { CoreNetwork } from '../../../adapters/core-network';
import { HttpError, notFound } from '../../../http/errors';
import type { Principal } from '../../../http/principal';
import type { JobRunner } from '../../../jobs/runner';
import { DETAIL_FIELDS } from '@shared/subscriberCsv';
import { QOS_BLOCK } from '../infoRoutes';
import { recordOperationRows, recordOperations } from '../network';
import { changeSubscribers } from '../operationRoutes';
import { auditSubscribers } from '../audit';
import type { Database } from '../../../db/types';
import type { Resolved } from './resolve';
import { loadTargets, type Target } from './targets';
import { reasonFor, refusal, UNCHANGED } from './reasons';
import { answerOutcome, settleStatus } from './settle';
import { groupBy } from './groupBy';
import { jsonRecords, slices } from '../../../db/jsonRecords';
import { columnName as snake } from '../../../db/columnName';

export interface ApplyContext {
  /** The database, for the network's answer, which arrives after the transaction. */
  db: Kysely<Database>;
  trx: Kysely<Database>;
  principal: Principal;
  core: CoreNetwork;
  /** Names the requests in the network event log, e.g. `job:12`. */
  subject: string;
  /** Holds network requests until the caller's transaction has committed; without it they go at once. */
  defer?: (send: () => void) => void;
  /** The job whose items the subscribers are (each keyed by its id): the network's answers settle them. */
  job?: { id: number; runner: Pick<JobRunner, 'settleIn' | 'answer'> };
  /**
   * Sends the HSS write of a roaming profile the portal already holds (a retry: the network may not hold it);
   * such a subscriber waits for the answer like a changed one, without a second audit entry.
   */
  resend?: boolean;
}

/** What applying an action did: refused (with the reason), changed, and which of those wait for the network's answer. */
export interface Applied {
  refused: Map<number, HttpError>;
  changed: number[];
  /** Subscribers whose request went to the core network: their outcome is its answer. */
  waiting: Set<number>;
}

/**
 * Applies a checked action to one subscriber (locked and re-checked here): the change and its audit entry in
 * the caller's transaction. Status changes go through the core network as a pending operation, applied when
 * the network confirms; a roaming profile is stored at once and its HSS write sent after. Answers whether it
 * changed (nothing is written when the subscriber already had it) and whether it waits for the network's answer;
 * throws the reason when it cannot take it.
 */
export async function applyAction(ctx: ApplyContext, r: Resolved, subscriberId: number): Promise<Omit<Applied, 'refused'>> {
  const { refused, ...applied } = await applyActionToMany(ctx, r, [subscriberId]);
  const error = refused.get(subscriberId);
  if (error) throw error;
  return applied;
}

/**
 * Applies a checked action to many subscribers at once (a job's chunk), each exactly as `applyAction` would:
 * the subscribers are locked and loaded in one query and each checked on its own; those that take it are
 * changed set-based, with an audit entry and an operation record each. Answers the refusal of each subscriber
 * that cannot take it, the ids that changed, and those whose outcome is the network's answer; the others already
 * had it.
 */
export async function applyActionToMany(ctx: ApplyContext, r: Resolved, subscriberIds: readonly number[]): Promise<Applied> {
  const { trx, principal, core } = ctx;
  const targets = await loadTargets(trx, principal, subscriberIds, true);
  const refused = new Map<number, HttpError>();
  const waiting = new Set<number>();
  let changing: Target[] = [];
  /** Already on the profile, written to the HSS again (a retry). */
  const rewritten: Target[] = [];
  for (const id of subscriberIds) {
    const t = targets.get(id);
    const reason = t ? reasonFor(r, t) : 'error.notFound';
    if (reason === null) changing.push(t!);
    else if (reason === UNCHANGED) {
      if (ctx.resend && r.action === 'roaming-profile') rewritten.push(t!);
    } else refused.set(id, t ? refusal(reason) : notFound());
  }
  const actor = { userId: principal.userId, username: principal.username };
  const p = r.params;
  const change = (values: Record<string, unknown>, which = changing) =>
    changeSubscribers(
      trx,
      which.map((t) => t.subscriberId),
      actor,
      r.action,
      values,
    );
  if (changing.length) {
    switch (r.action) {
      case 'suspend':
      case 'reactivate': {
        const target = r.action === 'suspend' ? 'suspended' : 'active';
        const pending = await trx
          .selectFrom('subscriberOperation')
          .select('subscriberId')
          .where(
            'subscriberId',
            'in',
            changing.map((t) => t.subscriberId),
          )
          .where('status', '=', 'pending')
          .execute();
        for (const { subscriberId } of pending) refused.set(Number(subscriberId), refusal('error.operation.pending'));
        changing = changing.filter((t) => !refused.has(t.subscriberId));
        if (!changing.length) break;
        const ops = await trx
          .insertInto('subscriberOperation')
          .values(
            changing.map((t) => ({
              subscriberId: t.subscriberId,
              operation: r.action,
              status: 'pending',
              request: JSON.stringify({ bulk: ctx.subject }),
              userId: principal.userId,
              username: principal.username,
            })),
          )
          .returning(['id', 'subscriberId'])
          .execute();
        const opOf = new Map(ops.map((op) => [Number(op.subscriberId), Number(op.id)]));
        for (const t of changing) {
          const id = opOf.get(t.subscriberId)!;
          waiting.add(t.subscriberId);
          // The answer is applied in a transaction of its own once this one has committed (the database serialises them).
          send(ctx, () =>
            core.dispatch(
              {
                operation: r.action === 'suspend' ? 'suspendSubscriber' : 'reactivateSubscriber',
                resellerId: t.resellerId,
                imsi: t.imsi,
                subscriberId: t.subscriberId,
                subject: `subscriber-operation:${id}`,
              },
              (answer) => settleStatus(ctx.db, { id, subscriberId: t.subscriberId, target, iccid: t.iccid, actor, answer, job: ctx.job }),
            ),
          );
        }
        return { refused, changed: changing.map((t) => t.subscriberId), waiting };
      }
      case 'daily-limit': {
        // The throttling kept is each subscriber's own unless given: one update per resulting value.
        const byQos = groupBy(changing, (t) => (p.qosThrottling as string | undefined) ?? t.qosThrottling ?? QOS_BLOCK);
        for (const [qos, which] of byQos) await change({ dailyLimitBytes: p.dailyLimitBytes, qosThrottling: qos }, which);
        break;
      }
      case 'qos':
        await change({ qosThrottling: p.qosThrottling });
        break;
      case 'pricing-plan':
        await change({ pricingPlanId: r.plan!.id });
        break;
      case 'roaming-profile':
        await change({ roamingProfileId: r.profile!.id });
        break;
      case 'move':
        await change({ accountId: r.account!.accountId, resellerId: r.account!.resellerId });
        await trx
          .updateTable('simCard')
          .set({ resellerId: r.account!.resellerId })
          .where(
            'iccid',
            'in',
            changing.map((t) => t.iccid),
          )
          .execute();
        break;
      case 'group-name':
        await change({ groupName: typeof p.groupName === 'string' && p.groupName.trim() ? p.groupName.trim() : null });
        break;
      case 'details':
        await change(Object.fromEntries(DETAIL_FIELDS.filter((f) => p[f] !== undefined).map((f) => [f, p[f]])));
        break;
      case 'custom':
        await changeCustomValues(trx, changing, actor, p.custom as Record<string, unknown>);
        break;
    }
    await recordOperations(
      trx,
      principal,
      changing.map((t) => t.subscriberId),
      r.action,
      { ...p, bulk: ctx.subject },
    );
  }
  // The HSS takes the profile once it is stored; the job's item is its answer.
  if (r.action === 'roaming-profile') for (const t of [...changing, ...rewritten]) sendHssProfile(ctx, t, r.profile!.id, waiting);
  return { refused, changed: changing.map((t) => t.subscriberId), waiting };
}

/** Writes a subscriber's roaming profile to the HSS; within a job the answer settles the subscriber's item. */
function sendHssProfile(ctx: ApplyContext, t: Target, roamingProfileId: number, waiting: Set<number>) {
  const { job } = ctx;
  if (job) waiting.add(t.subscriberId);
  send(ctx, () =>
    ctx.core.dispatch(
      {
        operation: 'updateHssProfile',
        resellerId: t.resellerId,
        imsi: t.imsi,
        subscriberId: t.subscriberId,
        subject: ctx.subject,
        payload: { roamingProfileId },
      },
      async (answer) => {
        if (job) await job.runner.answer({ jobId: job.id, key: String(t.subscriberId), ...answerOutcome(answer) });
      },
    ),
  );
}

const send = (ctx: ApplyContext, fn: () => void) => (ctx.defer ? ctx.defer(fn) : fn());

/**
 * Sets custom values on many subscribers in one statement, the values they do not name kept (null or '' removes
 * one); each subscriber's audit holds its values before and after.
 */
async function changeCustomValues(
  trx: Kysely<Database>,
  targets: readonly Target[],
  actor: Pick<Principal, 'userId' | 'username'>,
  sent: Record<string, unknown>,
) {
  const set = Object.fromEntries(Object.entries(sent).filter(([, v]) => v !== null && v !== ''));
  const removed = Object.keys(sent).filter((k) => !(k in set));
  await trx
    .updateTable('subscriber')
    .set({ custom: sql`(custom || ${JSON.stringify(set)}::jsonb) - ${removed}::text[]` })
    .where(
      'subscriberId',
      'in',
      targets.map((t) => t.subscriberId),
    )
    .execute();
  await auditSubscribers(
    trx,
    actor,
    'custom',
    targets.map((t) => ({ subscriberId: t.subscriberId, before: { custom: t.custom }, after: { custom: mergeCustom(t.custom, sent) } })),
  );
}

/** Actions whose values differ from subscriber to subscriber in an upload: applied with one statement per set of columns. */
export const PER_ROW_ACTIONS = new Set(['details', 'group-name']);

/** Subscribers per UPDATE: the values go as one JSON parameter. */
const VALUES_BATCH = 10000;

/**
 * Applies `details` and `group-name` changes whose values differ per subscriber (an upload's lines, a subscriber
 * possibly with one of each), each checked as `applyActionToMany` checks it. Each subscriber's changes are written
 * together: one UPDATE … FROM per set of columns changed (so a row is rewritten once, and its indexes once), then
 * the audit entries and operation records (its own values) of every change, each kind in one statement. Answers
 * as `applyActionToMany`.
 */
export async function applyValuesToMany(ctx: ApplyContext, items: readonly { subscriberId: number; resolved: Resolved }[]): Promise<Applied> {
  const { trx, principal } = ctx;
  const targets = await loadTargets(trx, principal, [...new Set(items.map((i) => i.subscriberId))], true);
  const refused = new Map<number, HttpError>();
  const changing: { t: Target; r: Resolved; values: Record<string, unknown> }[] = [];
  for (const { subscriberId, resolved: r } of items) {
    const t = targets.get(subscriberId);
    const reason = t ? reasonFor(r, t) : 'error.notFound';
    if (reason === UNCHANGED) continue;
    if (reason !== null) {
      refused.set(subscriberId, t ? refusal(reason) : notFound());
      continue;
    }
    const p = r.params;
    const values =
      r.action === 'group-name'
        ? { groupName: typeof p.groupName === 'string' && p.groupName.trim() ? p.groupName.trim() : null }
        : Object.fromEntries(DETAIL_FIELDS.filter((f) => p[f] !== undefined).map((f) => [f, p[f]]));
    changing.push({ t: t!, r, values });
  }
  // Each subscriber's new values, all its changes together.
  const merged = new Map<number, Record<string, unknown>>();
  for (const c of changing) merged.set(c.t.subscriberId, { ...merged.get(c.t.subscriberId), ...c.values });
  const byColumns = groupBy([...merged], ([, values]) => Object.keys(values).sort().join(','));
  for (const group of byColumns.values()) {
    const columns = Object.keys(group[0][1]).sort();
    for (const slice of slices(group, VALUES_BATCH)) {
      const rows = slice.map(([subscriberId, values]) => ({ subscriber_id: subscriberId, ...Object.fromEntries(columns.map((k) => [snake(k), values[k]])) }));
      await sql`update subscriber as s set ${sql.join(
        columns.map((k) => sql`${sql.id(snake(k))} = v.${sql.id(snake(k))}`),
        sql`, `,
      )} from ${jsonRecords(rows, { subscriber_id: 'bigint', ...Object.fromEntries(columns.map((k) => [snake(k), 'text'])) })} where s.subscriber_id = v.subscriber_id`.execute(
        trx,
      );
    }
  }
  const actor = { userId: principal.userId, username: principal.username };
  for (const [action, group] of groupBy(changing, (c) => c.r.action))
    await auditSubscribers(
      trx,
      actor,
      action,
      group.map((c) => ({
        subscriberId: c.t.subscriberId,
        before: Object.fromEntries(Object.keys(c.values).map((k) => [k, c.t[k as keyof Target]])),
        after: c.values,
      })),
    );
  await recordOperationRows(
    trx,
    actor,
    changing.map((c) => ({ subscriberId: c.t.subscriberId, operation: c.r.action, request: { ...c.r.params, bulk: ctx.subject } })),
  );
  return { refused, changed: [...merged.keys()], waiting: new Set() };
}
