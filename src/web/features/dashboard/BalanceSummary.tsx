/**
 * The reseller's money beside its balance: what it has paid in, what its open invoices owe, its latest invoices
 * (each a link to the reseller's invoices) and its latest movements.
 */
import { Card, Classes, H3, H4, HTMLTable, Tag, Intent } from '@blueprintjs/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { useGetLedgerSummaryQuery } from './dashboardApi';
import { useFigures } from './format';

export function BalanceSummary() {
  const intl = useIntl();
  const q = useGetLedgerSummaryQuery(undefined);
  const figures = useFigures(q.data?.currency);
  const data = q.data;
  const skeleton = !data ? Classes.SKELETON : undefined;
  return (
    <Card className="portal-balance-summary" data-testid="dashboard-balance-summary">
      <H3>
        <FormattedMessage id="dashboard.balance.summary" />
      </H3>
      <dl className={['portal-balance-figures', skeleton].filter(Boolean).join(' ')}>
        <dt>
          <FormattedMessage id="dashboard.balance.totalDeposit" />
        </dt>
        <dd data-testid="dashboard-total-deposit">{data ? figures.money(data.totalDeposit) : '—'}</dd>
        <dt>
          <FormattedMessage id="dashboard.balance.openBalance" />
        </dt>
        <dd className={data && data.openBalance > 0 ? 'portal-negative' : undefined} data-testid="dashboard-open-balance">
          {data ? figures.money(data.openBalance) : '—'}
        </dd>
      </dl>
      {data?.invoices && (
        <>
          <H4>
            <FormattedMessage id="dashboard.balance.invoices" />
          </H4>
          {data.invoices.length === 0 ? (
            <p className={Classes.TEXT_MUTED}>
              <FormattedMessage id="dashboard.balance.noInvoices" />
            </p>
          ) : (
            <HTMLTable compact className="portal-balance-table" data-testid="dashboard-invoices">
              <tbody>
                {data.invoices.map((i) => (
                  <tr key={i.id}>
                    <td>
                      <Link to={`/reseller/${data.resellerId}?tab=invoices`}>
                        <FormattedMessage
                          id="dashboard.balance.invoice"
                          values={{ number: i.number, month: intl.formatDate(`${i.month}-01T00:00:00Z`, { month: 'long', year: 'numeric', timeZone: 'UTC' }) }}
                        />
                      </Link>
                    </td>
                    <td>{figures.money(i.closingBalance)}</td>
                    <td>
                      <Tag minimal intent={i.status === 'open' ? Intent.WARNING : Intent.SUCCESS}>
                        <FormattedMessage id={`invoices.status.${i.status === 'open' ? 'open' : 'paid'}`} />
                      </Tag>
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          )}
        </>
      )}
      <H4>
        <FormattedMessage id="dashboard.balance.transactions" />
      </H4>
      {data && data.transactions.length === 0 ? (
        <p className={Classes.TEXT_MUTED}>
          <FormattedMessage id="dashboard.balance.noTransactions" />
        </p>
      ) : (
        <HTMLTable compact className={['portal-balance-table', skeleton].filter(Boolean).join(' ')} data-testid="dashboard-transactions">
          <tbody>
            {(data?.transactions ?? []).map((t) => (
              <tr key={t.id}>
                <td>{figures.date(t.createdAt)}</td>
                <td>
                  <FormattedMessage id={`finance.kind.${t.kind}`} defaultMessage={t.kind} />
                </td>
                <td className={t.amount < 0 ? 'portal-negative' : undefined}>{figures.money(t.amount)}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </Card>
  );
}
