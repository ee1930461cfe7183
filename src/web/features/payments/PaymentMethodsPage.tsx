/**
 * The payment methods screen: the balance and a way to add funds, saved cards, the limits and fees that apply, and
 * the payments made. The administrator sees every reseller's payments, sets the provider's default limits and
 * reaches the queue of bank wires to confirm.
 */
import { Card, H2, H4 } from '@blueprintjs/core';
import { FormattedMessage } from 'react-intl';
import { Link } from 'react-router-dom';
import { useCaller } from '@web/core/useCaller';
import { PaymentLimits } from '@web/ui/payments/PaymentLimits';
import { PaymentsTable } from '@web/ui/payments/PaymentsTable';
import { BalanceWidget } from './BalanceWidget';
import { SavedCards } from './SavedCards';
import './payments.css';

export default function PaymentMethodsPage() {
  const caller = useCaller();
  const admin = Boolean(caller?.isAdmin);
  return (
    <div className="portal-page portal-payments-page" data-testid="payment-methods-page">
      <header className="portal-page-header">
        <H2>
          <FormattedMessage id="payments.title" />
        </H2>
        {admin && (
          <Link to="/bank-wires" data-testid="bank-wires-link">
            <FormattedMessage id="payments.wires.title" />
          </Link>
        )}
      </header>
      {!admin && (
        <div className="portal-payments-top">
          <BalanceWidget />
          <SavedCards />
        </div>
      )}
      <Card>
        <H4>
          <FormattedMessage id={admin ? 'payments.limits.defaultsTitle' : 'payments.limits.title'} />
        </H4>
        <PaymentLimits editable={admin} provider={admin} />
      </Card>
      <Card>
        <H4>
          <FormattedMessage id={admin ? 'payments.history.all' : 'payments.history.title'} />
        </H4>
        <PaymentsTable resellerId={caller?.resellerId} includeSubResellers={admin} />
      </Card>
    </div>
  );
}
