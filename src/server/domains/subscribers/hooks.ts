import type { EntityHooks } from '../../engine/routes';
import { auditSubscriber } from './audit';

/** Every edit of a subscriber's details lands in its audit log, in the same transaction as the edit. */
export const subscriberHooks: EntityHooks = {
  async beforeWrite({ mode, values, existing, principal, trx }) {
    if (mode === 'update' && existing) await auditSubscriber(trx, principal, Number(existing.subscriberId), 'update', existing, values);
    return values;
  },
};
