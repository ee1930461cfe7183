/** A reseller's payment limits and fees on its page; those above it may set its own. */
import { H3 } from '@blueprintjs/core';
import { FormattedMessage } from 'react-intl';
import { useCaller } from '@web/core/useCaller';
import { PaymentLimits } from '@web/ui/payments/PaymentLimits';

export function ResellerLimitsPanel({ id }: { id: number }) {
  const caller = useCaller();
  // Terms come from above: the administrator, or a reseller the row sits under (never the reseller itself).
  const setsTerms = Boolean(caller && (caller.isAdmin || (caller.accountId === null && caller.resellerId !== id)));
  return (
    <section className="portal-page" data-testid="reseller-limits">
      <H3>
        <FormattedMessage id="payments.limits.title" />
      </H3>
      <PaymentLimits resellerId={id} editable={setsTerms && id !== caller?.resellerId} provider={id === -1} />
    </section>
  );
}
