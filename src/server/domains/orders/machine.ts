/**
 * The life of a SIM order, in one place: which action moves an order from which state to which, whether the
 * action ends the order's credit hold (release or charge), and the record of every step. An action the order's
 * state does not allow answers 409 naming the current state; nothing is written.
 */
import type { Kysely } from 'kysely';
import type { OrderStatus } from '@shared/orders';
import type { Database } from '../../db/types';
import { HttpError, fieldError } from '../../http/errors';
import type { Principal } from '../../http/principal';
import { chargeHold, releaseHold } from '../ledger/holds';

export type OrderAction = 'submit' | 'approveFinancial' | 'denyFinancial' | 'approveTechnical' | 'denyTechnical' | 'allocate' | 'place' | 'deliver' | 'cancel';

interface Transition {
  from: readonly OrderStatus[];
  to: OrderStatus;
  /** What becomes of the order's credit hold. */
  hold?: 'release' | 'charge';
}

export const TRANSITIONS: Record<OrderAction, Transition> = {
  submit: { from: ['draft'], to: 'submitted' },
  approveFinancial: { from: ['submitted'], to: 'financially_approved' },
  denyFinancial: { from: ['submitted'], to: 'financially_denied', hold: 'release' },
  approveTechnical: { from: ['financially_approved'], to: 'technically_approved' },
  denyTechnical: { from: ['financially_approved'], to: 'technically_denied', hold: 'release' },
  allocate: { from: ['technically_approved'], to: 'resources_allocated' },
  place: { from: ['resources_allocated'], to: 'placed' },
  deliver: { from: ['placed'], to: 'delivered', hold: 'charge' },
  cancel: { from: ['draft', 'submitted', 'financially_approved', 'technically_approved', 'resources_allocated'], to: 'cancelled', hold: 'release' },
};

/** States an order never leaves. */
export const FINAL_STATES: readonly OrderStatus[] = ['financially_denied', 'technically_denied', 'delivered', 'cancelled'];

/** States in which the order's price may still change (a discount) and its hold is open. */
export const OPEN_STATES: readonly OrderStatus[] = ['submitted', 'financially_approved', 'technically_approved', 'resources_allocated'];

/** 409: the action is not allowed in the order's current state (named in the message and the field error). */
export class IllegalTransition extends HttpError {
  constructor(
    public readonly action: string,
    public readonly current: string,
  ) {
    super(409, 'ILLEGAL_TRANSITION', 'order.illegalTransition', [fieldError('status', 'transition', 'order.illegalTransition')]);
    this.message = `The order is ${current}: ${action} is not allowed`;
  }
  override toJSON() {
    return { ...super.toJSON(), currentStatus: this.current, action: this.action } as ReturnType<HttpError['toJSON']>;
  }
}

/** Refuses an action the state does not allow. */
export function assertAllowed(action: OrderAction | string, status: string, allowed: readonly string[]) {
  if (!allowed.includes(status)) throw new IllegalTransition(action, status);
}

/** Records one step of the order's timeline (a transition or another action such as a discount or a key download). */
export async function recordEvent(
  trx: Kysely<Database>,
  orderId: number,
  actor: Pick<Principal, 'userId' | 'username'> | null,
  action: string,
  change: { from?: string | null; to?: string | null; reason?: string | null } = {},
) {
  await trx
    .insertInto('simOrderEvent')
    .values({
      orderId,
      action,
      fromStatus: change.from ?? null,
      toStatus: change.to ?? null,
      userId: actor?.userId ?? null,
      username: actor?.username ?? null,
      reason: change.reason ?? null,
    })
    .execute();
}

/**
 * Moves the order by `action` inside the caller's transaction: locks its row, checks the state, writes the new
 * state (and `more` columns), ends the credit hold when the transition says so, and records the step.
 */
export async function transition(
  trx: Kysely<Database>,
  orderId: number,
  action: OrderAction,
  actor: Pick<Principal, 'userId' | 'username'>,
  options: { reason?: string | null; set?: Partial<Record<string, unknown>> } = {},
) {
  const order = await trx.selectFrom('simOrder').select(['id', 'status', 'holdId']).where('id', '=', orderId).forUpdate().executeTakeFirstOrThrow();
  const t = TRANSITIONS[action];
  assertAllowed(action, order.status, t.from);
  await trx
    .updateTable('simOrder')
    .set({ ...(options.set ?? {}), status: t.to })
    .where('id', '=', orderId)
    .execute();
  if (order.holdId !== null && t.hold === 'release') await releaseHold(trx, order.holdId);
  if (order.holdId !== null && t.hold === 'charge') await chargeHold(trx, order.holdId, actor.userId);
  await recordEvent(trx, orderId, actor, action, { from: order.status, to: t.to, reason: options.reason });
  return { from: order.status as OrderStatus, to: t.to };
}
