/**
 * Changes of many subscribers at once: the actions a bulk job, a range change, a move and a CSV upload share.
 * Each action is resolved once (its parameters checked against what the caller may use), then checked per
 * subscriber (a reason when it cannot or need not change) and applied per subscriber with its audit entry.
 * Applying is idempotent: a subscriber already in the target state is left alone and gets no second entry.
 */
import { sql, type Kysely } from 'kysely';
import type { FieldError } from '@shared/wire';
import type { CoreNetwork, CoreNetworkAnswer } from '../../adapters/core-network';
import { conflict, fieldError, forbidden, HttpError, invalid, notFound } from '../../http/errors';
import { isId } from '../../http/input';
import { can, loadPrincipal, type Principal } from '../../http/principal';
import { createValidator, type EntityValidator } from '../../engine/validator';
import { loadSchemas } from '../../engine/schemas';
import { batcher } from '../../jobs/batcher';
import { lockJobs, NO_ANSWER, outcomeOfError, type ItemAnswer, type ItemOutcome } from '../../jobs/outcomes';
import type { JobRunner } from '../../jobs/runner';
import { DETAIL_FIELDS } from '@shared/subscriberCsv';
import { scopeToCaller, type Body } from './context';
import { QOS_BLOCK, QOS_SPEED_LIMITS } from './infoRoutes';
import { recordOperations, type Actor } from './network';
import { changeSubscribers } from './operationRoutes';
import type { Database } from '../../db/types';
import { tableAs } from '../../db/dynamicTable';

export const BULK_ACTIONS = ['suspend', 'reactivate', 'daily-limit', 'qos', 'pricing-plan', 'roaming-profile', 'move', 'group-name', 'details'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** The detail panel (SubscriberDetails sub-privilege) an action needs, as its single-subscriber call does. */
const ACTION_PANELS: Partial<Record<BulkAction, string>> = {
  suspend: 'Status', reactivate: 'Status', 'pricing-plan': 'Services', 'roaming-profile': 'RoamingProfile', 'group-name': 'GroupName',
};

let detailsValidator: EntityValidator | undefined;
/** Checks detail values by the subscriber schema's update rules (compiled on first use). */
const detailErrors = (values: Body) =>
  (detailsValidator ??= createValidator(loadSchemas().find((x) => x['x-entity'].name === 'subscriber')!)).validate('update', { subscriberId: 1, ...values });

/** A range change covers at most this many subscribers (specification). */
export const RANGE_MAX = 1000;
export const RANGE_TYPES = ['SUBSCRIBER_ID', 'ICCID', 'IMSI'] as const;
export type RangeType = (typeof RANGE_TYPES)[number];
export interface Range { type: RangeType; start: string; end: string }

const MAX_DAILY_LIMIT = 1e15;
const QOS_IDS: string[] = [QOS_BLOCK, ...QOS_SPEED_LIMITS.map((q) => q.id)];
/** Ids per `in (...)` list: well under PostgreSQL's 65535 parameters. */
const ID_BATCH = 5000;

/** What is not to change on a subscriber, with the reason. */
export const UNCHANGED = 'bulk.reason.unchanged';

/** One subscriber as the checks see it. */
export interface Target {
  subscriberId: number;
  status: 'active' | 'suspended';
  imsi: string;
  iccid: string;
  accountId: number;
  resellerId: number;
  resellerPath: string;
  dailyLimitBytes: number | null;
  qosThrottling: string | null;
  pricingPlanId: number | null;
  roamingProfileId: number | null;
  groupName: string | null;
  name: string | null;
  deviceType: string | null;
  device: string | null;
  imei: string | null;
  apn: string | null;
  multiImsi: boolean;
  /** Reseller paths of the subscriber's pricing plan and roaming profile (null without one). */
  planPath: string | null;
  profilePath: string | null;
}

/** An action with its parameters checked: what it sets and the rows it refers to. */
export interface Resolved {
  action: BulkAction;
  params: Body;
  plan?: { id: number; path: string };
  profile?: { id: number; path: string; slots: number };
  account?: { accountId: number; resellerId: number; path: string };
}

function targetsQuery(db: Kysely<Database>, principal: Principal) {
  const q = db.selectFrom('subscriber as s').innerJoin('reseller as r', 'r.id', 's.resellerId')
    .leftJoin('pricingPlan as pp', 'pp.id', 's.pricingPlanId').leftJoin('reseller as ppr', 'ppr.id', 'pp.resellerId')
    .leftJoin('roamingProfile as rp', 'rp.id', 's.roamingProfileId').leftJoin('reseller as rpr', 'rpr.id', 'rp.resellerId')
    .select([
      's.subscriberId', 's.status', 's.imsi', 's.iccid', 's.accountId', 's.resellerId', 'r.path as resellerPath', 's.dailyLimitBytes', 's.qosThrottling',
      's.pricingPlanId', 's.roamingProfileId', 's.groupName', ...DETAIL_FIELDS.map((f) => `s.${f}` as const), 'ppr.path as planPath', 'rpr.path as profilePath',
      sql<boolean>`exists (select 1 from sponsor_imsi i where i.subscriber_id = s.subscriber_id)`.as('multiImsi'),
    ]);
  return scopeToCaller(q, principal);
}

const toTarget = (r: Record<string, any>): Target => ({
  ...r, subscriberId: Number(r.subscriberId), dailyLimitBytes: r.dailyLimitBytes === null ? null : Number(r.dailyLimitBytes), multiImsi: Boolean(r.multiImsi),
} as Target);

/** The subscribers among `ids` the caller may see, by id; the others are simply absent. */
export async function loadTargets(db: Kysely<Database>, principal: Principal, ids: readonly number[], forUpdate = false): Promise<Map<number, Target>> {
  const found = new Map<number, Target>();
  for (let i = 0; i < ids.length; i += ID_BATCH) {
    let q = targetsQuery(db, principal).where('s.subscriberId', 'in', ids.slice(i, i + ID_BATCH));
    if (forUpdate) q = q.orderBy('s.subscriberId').forUpdate('s');
    for (const row of await q.execute()) found.set(Number(row.subscriberId), toTarget(row));
  }
  return found;
}

const positiveInt = (v: unknown) => isId(v);

/**
 * Checks an action's parameters against what the caller may use; 400 naming `params.<field>` and the rule,
 * 403 for a move without MoveSubscribers.
 */
export async function resolveAction(db: Kysely<Database>, principal: Principal, action: unknown, rawParams: unknown): Promise<Resolved> {
  if (typeof action !== 'string' || !(BULK_ACTIONS as readonly string[]).includes(action)) {
    throw invalid([fieldError('action', action === undefined ? 'required' : 'enum', 'validation.bulk.action')]);
  }
  const panel = ACTION_PANELS[action as BulkAction];
  if (panel && !principal.isAdmin && !can(principal, 'SubscriberDetails', panel)) throw forbidden();
  const params = (typeof rawParams === 'object' && rawParams !== null && !Array.isArray(rawParams) ? rawParams : {}) as Body;
  const errors: FieldError[] = [];
  const allowed: Record<BulkAction, string[]> = {
    suspend: [], reactivate: [], 'daily-limit': ['dailyLimitBytes', 'qosThrottling'], qos: ['qosThrottling'], 'pricing-plan': ['pricingPlanId'],
    'roaming-profile': ['roamingProfileId'], move: ['accountId'], 'group-name': ['groupName'], details: [...DETAIL_FIELDS],
  };
  for (const key of Object.keys(params)) if (!allowed[action as BulkAction].includes(key)) errors.push(fieldError(`params.${key}`, 'additionalProperties', 'validation.unknownField'));
  const resolved: Resolved = { action: action as BulkAction, params };
  if (action === 'daily-limit') {
    const limit = params.dailyLimitBytes;
    if (limit === undefined || limit === null) errors.push(fieldError('params.dailyLimitBytes', 'required', 'validation.dailyLimit.required'));
    // A bigint column: limits of several GB are usual, so not bounded as an id is.
    else if (!Number.isSafeInteger(limit) || (limit as number) < 1 || (limit as number) > MAX_DAILY_LIMIT) errors.push(fieldError('params.dailyLimitBytes', typeof limit === 'number' && limit <= 0 ? 'exclusiveMinimum' : 'type', 'validation.dailyLimit.positive'));
  }
  if ((action === 'daily-limit' && params.qosThrottling !== undefined) || action === 'qos') {
    if (!QOS_IDS.includes(params.qosThrottling as string)) errors.push(fieldError('params.qosThrottling', params.qosThrottling === undefined ? 'required' : 'enum', 'validation.qos.invalid'));
  }
  if (action === 'group-name' && params.groupName !== null && (typeof params.groupName !== 'string' || params.groupName.length > 50)) {
    errors.push(fieldError('params.groupName', typeof params.groupName === 'string' ? 'maxLength' : 'type', 'validation.max50'));
  }
  if (action === 'details') {
    // The subscriber page's own rules (lengths, IMEI and APN patterns), with its messages.
    const given = DETAIL_FIELDS.filter((f) => params[f] !== undefined);
    if (!given.length) errors.push(fieldError('params', 'required', 'validation.required'));
    const checked = detailErrors(Object.fromEntries(given.map((f) => [f, params[f]])));
    errors.push(...checked.map((e) => ({ ...e, field: `params.${e.field}` })));
  }
  const visibleResellerRow = (table: 'account' | 'pricingPlan' | 'roamingProfile', idColumn: string, id: number) => {
    let q = db.selectFrom(tableAs<Record<string, unknown>, 'x'>(table, 'x')).innerJoin('reseller as xr', 'xr.id', 'x.resellerId').select([`x.${idColumn} as id`, 'x.resellerId', 'xr.path']).where(`x.${idColumn}`, '=', id);
    // A plan or profile of the caller's subtree or above it (each subscriber is then checked against its own reseller); an account of the caller's subtree.
    if (!principal.isAdmin) {
      q = table === 'account'
        ? q.where('xr.path', 'like', sql<string>`${principal.resellerPath} || '%'`)
        : q.where((eb) => eb.or([eb('xr.path', 'like', sql<string>`${principal.resellerPath} || '%'`), eb(sql<string>`${principal.resellerPath}`, 'like', sql<string>`xr.path || '%'`)]));
    }
    return q;
  };
  if (action === 'pricing-plan') {
    if (!positiveInt(params.pricingPlanId)) errors.push(fieldError('params.pricingPlanId', params.pricingPlanId === undefined ? 'required' : 'type', 'validation.pricingPlan.required'));
    else {
      const plan = await visibleResellerRow('pricingPlan', 'id', params.pricingPlanId as number).executeTakeFirst();
      if (!plan) errors.push(fieldError('params.pricingPlanId', 'exists', 'validation.pricingPlan.unknown'));
      else resolved.plan = { id: Number(plan.id), path: plan.path };
    }
  }
  if (action === 'roaming-profile') {
    if (!positiveInt(params.roamingProfileId)) errors.push(fieldError('params.roamingProfileId', params.roamingProfileId === undefined ? 'required' : 'type', 'validation.roamingProfile.required'));
    else {
      const profile = await visibleResellerRow('roamingProfile', 'id', params.roamingProfileId as number).select(['x.slots', 'x.reviewState']).executeTakeFirst();
      if (!profile) errors.push(fieldError('params.roamingProfileId', 'exists', 'validation.roamingProfile.unknown'));
      else if (profile.reviewState !== 'approved') errors.push(fieldError('params.roamingProfileId', 'approved', 'validation.roamingProfile.notApproved'));
      else resolved.profile = { id: Number(profile.id), path: profile.path, slots: Number(profile.slots) };
    }
  }
  if (action === 'move') {
    if (!principal.isAdmin && !can(principal, 'MoveSubscribers')) throw forbidden();
    if (!positiveInt(params.accountId)) errors.push(fieldError('params.accountId', params.accountId === undefined ? 'required' : 'type', 'validation.move.account'));
    else {
      let q = visibleResellerRow('account', 'accountId', params.accountId as number);
      if (principal.accountId !== null) q = q.where('x.accountId', '=', principal.accountId);
      const account = await q.executeTakeFirst();
      if (!account) errors.push(fieldError('params.accountId', 'exists', 'validation.move.account'));
      else resolved.account = { accountId: Number(account.id), resellerId: Number(account.resellerId), path: account.path };
    }
  }
  if (errors.length) throw invalid(errors);
  return resolved;
}

/** Whether every detail a `details` change gives is what the subscriber already has. */
export const detailsUnchanged = (p: Body, t: Target) => DETAIL_FIELDS.every((f) => p[f] === undefined || p[f] === t[f]);

/** Why this subscriber cannot take the action (a message id), `UNCHANGED` when it already has it, null when it will change. */
export function reasonFor(r: Resolved, t: Target): string | null {
  const p = r.params;
  switch (r.action) {
    case 'suspend': return t.status === 'suspended' ? UNCHANGED : null;
    case 'reactivate': return t.status === 'active' ? UNCHANGED : null;
    case 'daily-limit': {
      const qos = (p.qosThrottling as string | undefined) ?? t.qosThrottling ?? QOS_BLOCK;
      return t.dailyLimitBytes === p.dailyLimitBytes && (t.qosThrottling ?? QOS_BLOCK) === qos ? UNCHANGED : null;
    }
    case 'qos':
      if (t.dailyLimitBytes === null) return 'bulk.reason.noDailyLimit';
      return (t.qosThrottling ?? QOS_BLOCK) === p.qosThrottling ? UNCHANGED : null;
    case 'pricing-plan':
      if (!t.resellerPath.startsWith(r.plan!.path)) return 'validation.pricingPlan.unknown';
      return t.pricingPlanId === r.plan!.id ? UNCHANGED : null;
    case 'roaming-profile':
      if (!t.resellerPath.startsWith(r.profile!.path)) return 'validation.roamingProfile.unknown';
      if (t.multiImsi && r.profile!.slots < 2) return 'validation.roamingProfile.singleImsi';
      return t.roamingProfileId === r.profile!.id ? UNCHANGED : null;
    case 'move': {
      if (t.accountId === r.account!.accountId) return UNCHANGED;
      const path = r.account!.path;
      // The plan and profile it keeps must be usable under the new account's reseller.
      if ((t.planPath && !path.startsWith(t.planPath)) || (t.profilePath && !path.startsWith(t.profilePath))) return 'bulk.reason.outsideReseller';
      return null;
    }
    case 'group-name': {
      const name = typeof p.groupName === 'string' && p.groupName.trim() ? p.groupName.trim() : null;
      return t.groupName === name ? UNCHANGED : null;
    }
    case 'details':
      return detailsUnchanged(p, t) ? UNCHANGED : null;
  }
}

/** A refusal of one subscriber as an error whose message is the reason (kept by the job runner). */
export const refusal = (messageId: string) => conflict([fieldError('subscriberId', messageId.split('.').at(-1)!, messageId)]);

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
 * Each subscriber's outcome as a job item: refused ones failed with their reason, those already so skipped, those
 * handed to the network waiting for its answer; the others (changed at once) are absent: they succeeded.
 */
export function outcomesOf(ids: readonly number[], { refused, changed, waiting }: Applied): Map<number, ItemOutcome> {
  const changedSet = new Set(changed);
  const outcomes = new Map<number, ItemOutcome>();
  for (const id of ids) {
    const error = refused.get(id);
    if (error) outcomes.set(id, outcomeOfError(error));
    else if (waiting.has(id)) outcomes.set(id, { status: 'waiting' });
    else if (!changedSet.has(id)) outcomes.set(id, { status: 'skipped', messageId: UNCHANGED });
  }
  return outcomes;
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
  const change = (values: Record<string, unknown>, which = changing) => changeSubscribers(trx, which.map((t) => t.subscriberId), actor, r.action, values);
  if (changing.length) {
    switch (r.action) {
      case 'suspend':
      case 'reactivate': {
        const target = r.action === 'suspend' ? 'suspended' : 'active';
        const pending = await trx.selectFrom('subscriberOperation').select('subscriberId').where('subscriberId', 'in', changing.map((t) => t.subscriberId)).where('status', '=', 'pending').execute();
        for (const { subscriberId } of pending) refused.set(Number(subscriberId), refusal('error.operation.pending'));
        changing = changing.filter((t) => !refused.has(t.subscriberId));
        if (!changing.length) break;
        const ops = await trx.insertInto('subscriberOperation').values(changing.map((t) => ({
          subscriberId: t.subscriberId, operation: r.action, status: 'pending', request: JSON.stringify({ bulk: ctx.subject }), userId: principal.userId, username: principal.username,
        }))).returning(['id', 'subscriberId']).execute();
        const opOf = new Map(ops.map((op) => [Number(op.subscriberId), Number(op.id)]));
        for (const t of changing) {
          const id = opOf.get(t.subscriberId)!;
          waiting.add(t.subscriberId);
          // The answer is applied in a transaction of its own once this one has committed (the database serialises them).
          send(ctx, () => core.dispatch(
            { operation: r.action === 'suspend' ? 'suspendSubscriber' : 'reactivateSubscriber', resellerId: t.resellerId, imsi: t.imsi, subscriberId: t.subscriberId, subject: `subscriber-operation:${id}` },
            (answer) => settleStatus(ctx.db, { id, subscriberId: t.subscriberId, target, iccid: t.iccid, actor, answer, job: ctx.job }),
          ));
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
        await trx.updateTable('simCard').set({ resellerId: r.account!.resellerId }).where('iccid', 'in', changing.map((t) => t.iccid)).execute();
        break;
      case 'group-name':
        await change({ groupName: typeof p.groupName === 'string' && p.groupName.trim() ? p.groupName.trim() : null });
        break;
      case 'details':
        await change(Object.fromEntries(DETAIL_FIELDS.filter((f) => p[f] !== undefined).map((f) => [f, p[f]])));
        break;
    }
    await recordOperations(trx, principal, changing.map((t) => t.subscriberId), r.action, { ...p, bulk: ctx.subject });
  }
  // The HSS takes the profile once it is stored; the job's item is its answer.
  if (r.action === 'roaming-profile') for (const t of [...changing, ...rewritten]) sendHssProfile(ctx, t, r.profile!.id, waiting);
  return { refused, changed: changing.map((t) => t.subscriberId), waiting };
}

/** Writes a subscriber's roaming profile to the HSS; within a job the answer settles the subscriber's item. */
function sendHssProfile(ctx: ApplyContext, t: Target, roamingProfileId: number, waiting: Set<number>) {
  const { job } = ctx;
  if (job) waiting.add(t.subscriberId);
  send(ctx, () => ctx.core.dispatch(
    { operation: 'updateHssProfile', resellerId: t.resellerId, imsi: t.imsi, subscriberId: t.subscriberId, subject: ctx.subject, payload: { roamingProfileId } },
    async (answer) => {
      if (job) await job.runner.answer({ jobId: job.id, key: String(t.subscriberId), ...answerOutcome(answer) });
    },
  ));
}

/** A network answer as a job item's: its failure reason is the network's refusal, with the network's own words. */
const answerOutcome = (answer: CoreNetworkAnswer) => ({ ok: answer.ok, ...(answer.ok ? {} : { messageId: 'subscriberOperation.failed.network', detail: answer.detail }) });

/**
 * The bulk operations of a job still pending for subscribers whose answer never came: failed, so they no longer
 * block the next operation on those subscribers.
 */
export async function expireOperations(trx: Kysely<Database>, jobId: number, keys: readonly string[]) {
  await trx.updateTable('subscriberOperation').set({ status: 'failed', messageId: NO_ANSWER, finishedAt: sql`now()` })
    .where('subscriberId', 'in', keys.map(Number)).where('status', '=', 'pending').where(sql`request->>'bulk'`, '=', `job:${jobId}`).execute();
}

const send = (ctx: ApplyContext, fn: () => void) => (ctx.defer ? ctx.defer(fn) : fn());

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** The caller of a job, as of now (a changed role applies); a job of a deleted or disabled user applies nothing. */
export async function jobPrincipal(trx: Kysely<Database>, userId: number | null): Promise<Principal> {
  const principal = userId === null ? undefined : await loadPrincipal(trx, userId);
  if (!principal || principal.disabled) throw forbidden();
  return principal;
}

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
function settleStatus(db: Kysely<Database>, answer: StatusAnswer): Promise<void> {
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
  const itemAnswer = (a: StatusAnswer): ItemAnswer | undefined => (a.job ? { jobId: a.job.id, key: String(a.subscriberId), ...answerOutcome(a.answer) } : undefined);
  await db.transaction().execute(async (t) => {
    // The jobs first, as a job chunk takes them (before its subscribers), so the two never wait for each other.
    await lockJobs(t, answers.flatMap((a) => itemAnswer(a) ?? []));
    // A job chunk still open holds these locks: waiting for it makes its operation rows visible (or gone, when rolled back).
    await t.selectFrom('subscriber').select('subscriberId').where('subscriberId', 'in', answers.map((a) => a.subscriberId)).orderBy('subscriberId').forUpdate().execute();
    const open = await t.selectFrom('subscriberOperation').select('id').where('id', 'in', answers.map((a) => a.id)).where('status', '=', 'pending').forUpdate().execute();
    const pending = new Set(open.map((op) => Number(op.id)));
    const live = answers.filter((a) => pending.has(a.id));
    if (!live.length) return;
    const groups = groupBy(live.filter((a) => a.answer.ok), (a) => JSON.stringify([a.target, a.actor.userId, a.actor.username]));
    for (const group of groups.values()) {
      const { target, actor } = group[0];
      await changeSubscribers(t, group.map((a) => a.subscriberId), actor, target === 'suspended' ? 'suspend' : 'reactivate', { status: target });
      await t.updateTable('simCard').set({ status: target, statusDate: sql`now()` }).where('iccid', 'in', group.map((a) => a.iccid)).execute();
    }
    const settled = live.map(({ id, answer }) => ({
      id, status: answer.ok ? 'success' : 'failed', message_id: answer.ok ? null : 'subscriberOperation.failed.network', detail: answer.detail ?? null, request_id: answer.requestId,
    }));
    await sql`update subscriber_operation o set status = v.status, message_id = v.message_id, detail = v.detail, network_request_id = v.request_id, finished_at = now()
      from jsonb_to_recordset(${JSON.stringify(settled)}::jsonb) as v(id bigint, status text, message_id text, detail text, request_id text)
      where o.id = v.id`.execute(t);
    // The jobs' items: the answer is each one's outcome.
    const runner = live.find((a) => a.job)?.job?.runner;
    if (runner) await runner.settleIn(t, live.flatMap((a) => itemAnswer(a) ?? []));
  });
}

/** The ids of the caller's subscribers in a range, in order, at most `limit` (to tell "more than the maximum"). */
export function rangeIds(db: Kysely<Database>, principal: Principal, range: Range, limit: number, sourceRoamingProfileId?: number) {
  let q = db.selectFrom('subscriber as s').innerJoin('reseller as r', 'r.id', 's.resellerId').select('s.subscriberId');
  q = scopeToCaller(q, principal);
  if (range.type === 'SUBSCRIBER_ID') q = q.where('s.subscriberId', '>=', Number(range.start)).where('s.subscriberId', '<=', Number(range.end));
  else {
    const column = range.type === 'ICCID' ? 's.iccid' : 's.imsi';
    q = q.where(column, '>=', range.start).where(column, '<=', range.end).where(sql`length(${sql.ref(column)})`, '=', range.start.length);
  }
  if (sourceRoamingProfileId !== undefined) q = q.where('s.roamingProfileId', '=', sourceRoamingProfileId);
  return q.orderBy('s.subscriberId').limit(limit).execute().then((rows) => rows.map((row) => Number(row.subscriberId)));
}

/** Checks `{ rangeStart, rangeEnd }` and the range type: numbers or digit strings of the type's length, start not after end. */
export function checkRange(range: unknown, rangeType: unknown, errors: FieldError[], prefix = 'range.'): Range | undefined {
  const type = (rangeType ?? 'SUBSCRIBER_ID') as RangeType;
  if (!RANGE_TYPES.includes(type)) {
    errors.push(fieldError('rangeType', 'enum', 'validation.rangeType.invalid'));
    return undefined;
  }
  const body = (typeof range === 'object' && range !== null ? range : {}) as Body;
  const text = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? String(v) : typeof v === 'string' ? v.trim() : '');
  const start = text(body.rangeStart);
  const end = text(body.rangeEnd);
  const pattern = type === 'SUBSCRIBER_ID' ? /^[1-9]\d{0,8}$/ : type === 'ICCID' ? /^\d{18,22}$/ : /^\d{15}$/;
  const messageId = type === 'SUBSCRIBER_ID' ? 'validation.subscriberId.required' : type === 'ICCID' ? 'validation.iccid.invalid' : 'validation.imsi.invalid';
  let ok = true;
  for (const [name, value, raw] of [['rangeStart', start, body.rangeStart], ['rangeEnd', end, body.rangeEnd]] as const) {
    if (raw === undefined || raw === null || raw === '') errors.push(fieldError(`${prefix}${name}`, 'required', 'validation.range.required'));
    else if (!pattern.test(value)) errors.push(fieldError(`${prefix}${name}`, 'pattern', messageId));
    else continue;
    ok = false;
  }
  if (!ok) return undefined;
  const after = type === 'SUBSCRIBER_ID' ? Number(start) > Number(end) : start.length !== end.length || start > end;
  if (after) {
    errors.push(fieldError(`${prefix}rangeEnd`, 'order', 'validation.range.order'));
    return undefined;
  }
  return { type, start, end };
}

/** Counts per reason and the first rows that will not change: the answer of every preview. */
export function previewOf(r: Resolved, requested: readonly number[], targets: Map<number, Target>, firstRows = 50) {
  const reasons = new Map<string, number>();
  const rows: { subscriberId: number; messageId: string }[] = [];
  let willChange = 0;
  for (const id of requested) {
    const t = targets.get(id);
    const reason = t ? reasonFor(r, t) : 'error.notFound';
    if (!reason) { willChange += 1; continue; }
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    if (rows.length < firstRows) rows.push({ subscriberId: id, messageId: reason });
  }
  const text = (messageId: string) => fieldError('', '', messageId).message;
  return {
    action: r.action,
    total: requested.length,
    willChange,
    reasons: [...reasons].map(([messageId, count]) => ({ messageId, message: text(messageId), count })),
    rows: rows.map((row) => ({ ...row, message: text(row.messageId) })),
  };
}
