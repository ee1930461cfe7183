import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { fieldError, forbidden, invalid, notFound } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { INT_MAX } from '../../http/input';
import { can, type Principal } from '../../http/principal';
import type { Database } from '../../db/types';
import { subtreePattern } from '../../http/tenancy';

/** The subscriber columns the operations read and change. */
export const SUBSCRIBER_COLUMNS = [
  's.subscriberId',
  's.name',
  's.status',
  's.imsi',
  's.iccid',
  's.msisdn',
  's.apn',
  's.balance',
  's.accountId',
  's.resellerId',
  's.country',
  's.network',
  's.lastLocationAt',
  's.dailyLimitBytes',
  's.qosThrottling',
  's.usageTodayBytes',
  's.pricingPlanId',
  's.roamingProfileId',
  's.migrationStatus',
  'r.path as resellerPath',
] as const;

export interface Subscriber {
  subscriberId: number;
  name: string | null;
  status: 'active' | 'suspended';
  imsi: string;
  iccid: string;
  msisdn: string | null;
  apn: string | null;
  balance: string;
  accountId: number;
  resellerId: number;
  country: string | null;
  network: string | null;
  lastLocationAt: Date | string | null;
  dailyLimitBytes: string | number | null;
  qosThrottling: string | null;
  usageTodayBytes: string | number;
  pricingPlanId: number | null;
  roamingProfileId: number | null;
  migrationStatus: 'pending' | 'success' | 'error' | null;
  resellerPath: string;
}

/** Rows of resellers under the caller's, and of the caller's account when it has one. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any query builder with a `where`, whatever its tables
export function scopeToCaller<Q extends { where: (...args: any[]) => Q }>(q: Q, principal: Principal, alias = 's'): Q {
  if (principal.isAdmin) return q;
  let scoped = q.where('r.path', 'like', subtreePattern(principal));
  if (principal.accountId !== null) scoped = scoped.where(`${alias}.accountId`, '=', principal.accountId);
  return scoped;
}

/** The subscriber if the caller may see it (their reseller subtree, their account), else 404. */
export async function visibleSubscriber(db: Kysely<Database>, principal: Principal, id: number, forUpdate = false): Promise<Subscriber> {
  let q = db
    .selectFrom('subscriber as s')
    .innerJoin('reseller as r', 'r.id', 's.resellerId')
    .select([...SUBSCRIBER_COLUMNS])
    .where('s.subscriberId', '=', id);
  q = scopeToCaller(q, principal);
  if (forUpdate) q = q.forUpdate('s');
  const row = await q.executeTakeFirst();
  if (!row) throw notFound();
  return row as Subscriber;
}

/** The id in the path (`id` unless named otherwise), checked by the route's params schema. */
export { pathId } from '../../http/input';

/** Subscribers, and the detail panel's SubscriberDetails sub-privilege (403 without it); the administrator holds all. */
export function requirePanel(request: FastifyRequest, panel?: string): Principal {
  const principal = principalOf(request);
  if (panel && !principal.isAdmin && !can(principal, 'SubscriberDetails', panel)) throw forbidden();
  return principal;
}

export type Body = Record<string, unknown>;

export function bodyOf(request: FastifyRequest): Body {
  const body = request.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Body) : {};
}

/** Page and size of a list request (`{ page: { page, size } }`), size capped at `max`. */
export function pageOf(body: Body, max = 500, fallback = 50): { page: number; size: number } {
  const info = (typeof body.page === 'object' && body.page !== null ? body.page : {}) as Record<string, unknown>;
  const page = info.page ?? 0;
  const size = info.size ?? fallback;
  const errors = [];
  if (!Number.isInteger(page) || (page as number) < 0 || (page as number) > INT_MAX) errors.push(fieldError('page.page', 'range', 'validation.page.invalid'));
  if (!Number.isInteger(size) || (size as number) < 1 || (size as number) > max) errors.push(fieldError('page.size', 'range', 'validation.pageSize.invalid'));
  if (errors.length) throw invalid(errors);
  return { page: page as number, size: size as number };
}

/** Decimal text from a numeric column as a JSON number: "12.50" is 12.5; at most 14 digits, so exact. */
export const money = (value: unknown) => (value === null || value === undefined ? null : Number(value));

export const toIso = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string).toISOString());

export const pgCode = (error: unknown) => (typeof error === 'object' && error !== null ? (error as { code?: string }).code : undefined);
