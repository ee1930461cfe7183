/** The caller's balance with a way to add funds: the dashboard's widget and the head of the payments screen. */
import { Button, Card, H3, Intent } from '@blueprintjs/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useGetLedgerBalanceQuery } from '@web/core/packagesApi';
import { Loading } from '@web/ui/Loading';
import { TopUpDialog } from './TopUpDialog';
import './payments.css';

export function BalanceWidget({ canTopUp = true }: { canTopUp?: boolean }) {
  const intl = useIntl();
  const { data } = useGetLedgerBalanceQuery(undefined);
  const [open, setOpen] = useState(false);
  const money = (value: number) => intl.formatNumber(value, { style: 'currency', currency: data?.currency ?? 'USD' });
  return (
    <Card className="portal-balance-widget" data-testid="balance-widget">
      <H3>
        <FormattedMessage id="payments.balance.title" />
      </H3>
      {!data ? (
        <Loading />
      ) : (
        <dl className="portal-balance-figures">
          <dt>
            <FormattedMessage id="payments.balance.balance" />
          </dt>
          <dd className={data.balance < 0 ? 'portal-negative' : undefined} data-testid="balance-widget-balance">
            {money(data.balance)}
          </dd>
          {(data.held ?? 0) > 0 && (
            <>
              <dt>
                <FormattedMessage id="payments.balance.held" />
              </dt>
              <dd data-testid="balance-widget-held">{money(data.held ?? 0)}</dd>
            </>
          )}
          {data.availableCredit !== undefined && (
            <>
              <dt>
                <FormattedMessage id="payments.balance.available" />
              </dt>
              <dd data-testid="balance-widget-available">{money(data.availableCredit)}</dd>
            </>
          )}
        </dl>
      )}
      {canTopUp && (
        <Button intent={Intent.PRIMARY} icon="plus" onClick={() => setOpen(true)} data-testid="balance-top-up">
          <FormattedMessage id="payments.topUp.open" />
        </Button>
      )}
      <TopUpDialog isOpen={open} onClose={() => setOpen(false)} />
    </Card>
  );
}
