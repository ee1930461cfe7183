import type { EntityHooks } from '../../engine/routes';
import { fieldError, HttpError } from '../../http/errors';
import { auditSubscriber } from './audit';

/**
 * Every edit of a subscriber's details lands in its audit log, in the same transaction as the edit. An account user
 * leaves a subscriber's service class as it is: the class is a commercial term its account is given from above.
 */
export const subscriberHooks: EntityHooks = {
  async beforeWrite({ mode, values, existing, principal, trx }) {
    const before = existing?.serviceClassId ?? null;
    if (principal.accountId !== null && !principal.isAdmin && 'serviceClassId' in values && (values.serviceClassId ?? null) !== before)
      throw new HttpError(403, 'FORBIDDEN', 'validation.field.protected', [fieldError('serviceClassId', 'protected', 'validation.field.protected')]);
    if (mode === 'update' && existing) await auditSubscriber(trx, principal, Number(existing.subscriberId), 'update', existing, values);
    return values;
  },
};
