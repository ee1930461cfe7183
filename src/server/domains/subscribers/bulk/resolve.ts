/** The bulk actions, and each one's parameters checked against what the caller may use. */
import type { Kysely } from 'kysely';
import type { FieldError } from '@shared/wire';
import { fieldError, forbidden, invalid } from '../../../http/errors';
import { isId } from '../../../http/input';
import { can, type Principal } from '../../../http/principal';
import { createValidator, type EntityValidator } from '../../../engine/validator';
import { customFieldsOf } from '../../../engine/customFields';
import { loadSchemas } from '../../../engine/schemas';
import { DETAIL_FIELDS } from '@shared/subscriberCsv';
import type { Body } from '../context';
import { isQosAllowed } from '../../service-classes';
import type { Database } from '../../../db/types';
import { tableAs } from '../../../db/dynamicTable';
import { plansOfCaller, subtreePattern } from '../../../http/tenancy';

export const BULK_ACTIONS = [
  'suspend',
  'reactivate',
  'daily-limit',
  'qos',
  'pricing-plan',
  'roaming-profile',
  'move',
  'group-name',
  'details',
  'custom',
] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** The detail panel (SubscriberDetails sub-privilege) an action needs, as its single-subscriber call does. */
const ACTION_PANELS: Partial<Record<BulkAction, string>> = {
  suspend: 'Status',
  reactivate: 'Status',
  'pricing-plan': 'Services',
  'roaming-profile': 'RoamingProfile',
  'group-name': 'GroupName',
};

let detailsValidator: EntityValidator | undefined;
/** Checks detail values by the subscriber schema's update rules (compiled on first use). */
const detailErrors = (values: Body) =>
  (detailsValidator ??= createValidator(loadSchemas().find((x) => x['x-entity'].name === 'subscriber')!)).validate('update', { subscriberId: 1, ...values });

const MAX_DAILY_LIMIT = 1e15;

/** An action with its parameters checked: what it sets and the rows it refers to. */
export interface Resolved {
  action: BulkAction;
  params: Body;
  plan?: { id: number; path: string };
  profile?: { id: number; path: string; slots: number };
  account?: { accountId: number; resellerId: number; path: string };
}

const positiveInt = (v: unknown) => isId(v);

/**
 * What the checks of many actions look up in the database (a QoS code, a plan, a profile, an account, the custom
 * fields), each distinct value once: the check of an uploaded file, whose lines differ in values the database need
 * not see (a name, a group), asks the database once per distinct code or id rather than once per line.
 */
export class Lookups {
  private readonly found = new Map<string, Promise<unknown>>();

  once<T>(key: string, look: () => Promise<T>): Promise<T> {
    let known = this.found.get(key) as Promise<T> | undefined;
    if (!known) {
      known = look();
      this.found.set(key, known);
    }
    return known;
  }
}

/**
 * Checks an action's parameters against what the caller may use; 400 naming `params.<field>` and the rule,
 * 403 for a move without MoveSubscribers.
 */
export async function resolveAction(
  db: Kysely<Database>,
  principal: Principal,
  action: unknown,
  rawParams: unknown,
  /** Lookups shared by the checks of one request (the same caller, the same moment). */
  lookups?: Lookups,
): Promise<Resolved> {
  const once = <T>(key: string, look: () => Promise<T>) => (lookups ? lookups.once(key, look) : look());
  if (typeof action !== 'string' || !(BULK_ACTIONS as readonly string[]).includes(action)) {
    throw invalid([fieldError('action', action === undefined ? 'required' : 'enum', 'validation.bulk.action')]);
  }
  const panel = ACTION_PANELS[action as BulkAction];
  if (panel && !principal.isAdmin && !can(principal, 'SubscriberDetails', panel)) throw forbidden();
  const params = (typeof rawParams === 'object' && rawParams !== null && !Array.isArray(rawParams) ? rawParams : {}) as Body;
  const errors: FieldError[] = [];
  const allowed: Record<BulkAction, string[]> = {
    suspend: [],
    reactivate: [],
    'daily-limit': ['dailyLimitBytes', 'qosThrottling'],
    qos: ['qosThrottling'],
    'pricing-plan': ['pricingPlanId'],
    'roaming-profile': ['roamingProfileId'],
    move: ['accountId'],
    'group-name': ['groupName'],
    details: [...DETAIL_FIELDS],
    custom: ['custom'],
  };
  for (const key of Object.keys(params))
    if (!allowed[action as BulkAction].includes(key)) errors.push(fieldError(`params.${key}`, 'additionalProperties', 'validation.unknownField'));
  const resolved: Resolved = { action: action as BulkAction, params };
  if (action === 'daily-limit') {
    const limit = params.dailyLimitBytes;
    if (limit === undefined || limit === null) errors.push(fieldError('params.dailyLimitBytes', 'required', 'validation.dailyLimit.required'));
    // A bigint column: limits of several GB are usual, so not bounded as an id is.
    else if (!Number.isSafeInteger(limit) || (limit as number) < 1 || (limit as number) > MAX_DAILY_LIMIT)
      errors.push(
        fieldError('params.dailyLimitBytes', typeof limit === 'number' && limit <= 0 ? 'exclusiveMinimum' : 'type', 'validation.dailyLimit.positive'),
      );
  }
  if ((action === 'daily-limit' && params.qosThrottling !== undefined) || action === 'qos') {
    if (!(await once(`qos:${JSON.stringify(params.qosThrottling)}`, () => isQosAllowed(db, principal, params.qosThrottling))))
      errors.push(fieldError('params.qosThrottling', params.qosThrottling === undefined ? 'required' : 'enum', 'validation.qos.invalid'));
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
  if (action === 'custom') {
    // The caller's custom fields, which apply to every subscriber of its subtree; a required one is never cleared.
    const defs = await once('custom', () => customFieldsOf(db).forPath('subscriber', principal.resellerPath));
    const sent = params.custom;
    if (typeof sent !== 'object' || sent === null || Array.isArray(sent) || !Object.keys(sent).length)
      errors.push(fieldError('params.custom', 'required', 'validation.required'));
    else {
      const { errors: problems } = customFieldsOf(db).resolve(defs, sent, {}, 'update');
      errors.push(...problems.map((e) => ({ ...e, field: `params.${e.field}` })));
    }
  }
  const visibleResellerRow = (table: 'account' | 'pricingPlan' | 'roamingProfile', idColumn: string, id: number) => {
    const q = db
      .selectFrom(tableAs<Record<string, unknown>, 'x'>(table, 'x'))
      .innerJoin('reseller as xr', 'xr.id', 'x.resellerId')
      .select([`x.${idColumn} as id`, 'x.resellerId', 'xr.path'])
      .where(`x.${idColumn}`, '=', id);
    // A row the caller may use, as the single subscriber's calls allow it: an account, plan or profile of the caller's
    // subtree (each subscriber is then checked against its own reseller), and for an account user only the plan its
    // account is on.
    if (table === 'pricingPlan') return plansOfCaller(db, principal, q, 'x', 'xr');
    return principal.isAdmin ? q : q.where('xr.path', 'like', subtreePattern(principal));
  };
  if (action === 'pricing-plan') {
    if (!positiveInt(params.pricingPlanId))
      errors.push(fieldError('params.pricingPlanId', params.pricingPlanId === undefined ? 'required' : 'type', 'validation.pricingPlan.required'));
    else {
      const id = params.pricingPlanId as number;
      const plan = await once(`plan:${id}`, () => visibleResellerRow('pricingPlan', 'id', id).executeTakeFirst());
      if (!plan) errors.push(fieldError('params.pricingPlanId', 'exists', 'validation.pricingPlan.unknown'));
      else resolved.plan = { id: Number(plan.id), path: plan.path };
    }
  }
  if (action === 'roaming-profile') {
    if (!positiveInt(params.roamingProfileId))
      errors.push(fieldError('params.roamingProfileId', params.roamingProfileId === undefined ? 'required' : 'type', 'validation.roamingProfile.required'));
    else {
      const id = params.roamingProfileId as number;
      const profile = await once(`profile:${id}`, () => visibleResellerRow('roamingProfile', 'id', id).select(['x.slots', 'x.reviewState']).executeTakeFirst());
      if (!profile) errors.push(fieldError('params.roamingProfileId', 'exists', 'validation.roamingProfile.unknown'));
      else if (profile.reviewState !== 'approved') errors.push(fieldError('params.roamingProfileId', 'approved', 'validation.roamingProfile.notApproved'));
      else resolved.profile = { id: Number(profile.id), path: profile.path, slots: Number(profile.slots) };
    }
  }
  if (action === 'move') {
    if (!principal.isAdmin && !can(principal, 'MoveSubscribers')) throw forbidden();
    if (!positiveInt(params.accountId))
      errors.push(fieldError('params.accountId', params.accountId === undefined ? 'required' : 'type', 'validation.move.account'));
    else {
      const id = params.accountId as number;
      const account = await once(`account:${id}`, () => {
        let q = visibleResellerRow('account', 'accountId', id);
        if (principal.accountId !== null) q = q.where('x.accountId', '=', principal.accountId);
        return q.executeTakeFirst();
      });
      if (!account) errors.push(fieldError('params.accountId', 'exists', 'validation.move.account'));
      else resolved.account = { accountId: Number(account.id), resellerId: Number(account.resellerId), path: account.path };
    }
  }
  if (errors.length) throw invalid(errors);
  return resolved;
}
