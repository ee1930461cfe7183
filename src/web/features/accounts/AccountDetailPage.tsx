/** `/account/{id}`: the account's form (schemas/account.json) and, below it, the payments made for the account. */
import { H3 } from '@blueprintjs/core';
import { FormattedMessage } from 'react-intl';
import { useParams } from 'react-router-dom';
import EntityDetailPage from '@web/engine/EntityDetailPage';
import { findSchema, NEW_ID } from '@web/core/schemas';
import { PaymentsTable } from '@web/ui/payments/PaymentsTable';

const accountSchema = findSchema('account')!;

export default function AccountDetailPage() {
  const { id = NEW_ID } = useParams();
  const known = id !== NEW_ID && /^\d+$/.test(id);
  return (
    <>
      <EntityDetailPage schema={accountSchema} />
      {known && (
        <section className="portal-page" data-testid="account-payments">
          <H3>
            <FormattedMessage id="payments.history.title" />
          </H3>
          <PaymentsTable accountId={Number(id)} testId="account-payments-table" />
        </section>
      )}
    </>
  );
}
