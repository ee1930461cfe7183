/** Why a subscriber cannot or need not take an action, and the preview that counts those reasons. */
import { conflict, fieldError } from '../../../http/errors';
import { DETAIL_FIELDS } from '@shared/subscriberCsv';
import type { Body } from '../context';
import { QOS_BLOCK } from '../infoRoutes';
import type { Resolved } from './resolve';
import type { Target } from './targets';

/** What is not to change on a subscriber, with the reason. */
export const UNCHANGED = 'bulk.reason.unchanged';

/** Whether every detail a `details` change gives is what the subscriber already has. */
export const detailsUnchanged = (p: Body, t: Target) => DETAIL_FIELDS.every((f) => p[f] === undefined || p[f] === t[f]);

/** Whether every custom value a `custom` change gives is what the subscriber already has (null or '' as none). */
export const customUnchanged = (p: Body, t: Target) =>
  Object.entries(p.custom as Body).every(([k, v]) => (v === null || v === '' ? t.custom[k] === undefined : t.custom[k] === v));

/** Why this subscriber cannot take the action (a message id), `UNCHANGED` when it already has it, null when it will change. */
export function reasonFor(r: Resolved, t: Target): string | null {
  const p = r.params;
  switch (r.action) {
    case 'suspend':
      return t.status === 'suspended' ? UNCHANGED : null;
    case 'reactivate':
      return t.status === 'active' ? UNCHANGED : null;
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
    case 'custom':
      return customUnchanged(p, t) ? UNCHANGED : null;
  }
}

/** A refusal of one subscriber as an error whose message is the reason (kept by the job runner). */
export const refusal = (messageId: string) => conflict([fieldError('subscriberId', messageId.split('.').at(-1)!, messageId)]);

/** Counts per reason and the first rows that will not change: the answer of every preview. */
export function previewOf(r: Resolved, requested: readonly number[], targets: Map<number, Target>, firstRows = 50) {
  const reasons = new Map<string, number>();
  const rows: { subscriberId: number; messageId: string }[] = [];
  let willChange = 0;
  for (const id of requested) {
    const t = targets.get(id);
    const reason = t ? reasonFor(r, t) : 'error.notFound';
    if (!reason) {
      willChange += 1;
      continue;
    }
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
