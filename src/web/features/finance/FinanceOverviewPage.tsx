/**
 * `/finance`, the administrator's view of the money: what resellers hold and owe, open invoices, debt in review and
 * payments awaiting confirmation, each leading to where it is handled, and the resellers owing most.
 */
import { Card, H2, H4, HTMLTable, Intent, Tag } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { Loading } from '@web/ui/Loading';
import { useGetFinanceOverviewQuery } from './financeApi';
import './finance.css';

function Figure({ label, value, detail, to, testId }: { label: string; value: string; detail?: ReactNode; to?: string; testId: string }) {
  return (
    <Card className="portal-finance-figure" data-testid={testId}>
      <H4>
        <FormattedMessage id={label} />
      </H4>
      <p className="portal-finance-value">{value}</p>
      {detail && <p className="portal-finance-detail">{detail}</p>}
      {to && (
        <Link to={to}>
          <FormattedMessage id="finance.overview.open" />
        </Link>
      )}
    </Card>
  );
}

export default function FinanceOverviewPage() {
  const intl = useIntl();
  // The figures move with every payment and purchase: read afresh each time the page opens.
  const { data } = useGetFinanceOverviewQuery(undefined, { refetchOnMountOrArgChange: true });
  if (!data) return <Loading />;
  const money = (v: number) => intl.formatNumber(v, { style: 'currency', currency: data.currency });
  const { resellers, invoices, disputed, pending } = data;
  return (
    <div className="portal-page portal-finance-overview" data-testid="finance-overview">
      <header className="portal-page-header">
        <H2>
          <FormattedMessage id="finance.overview.title" />
        </H2>
      </header>
      <div className="portal-finance-figures">
        <Figure
          testId="finance-balances"
          label="finance.overview.balances"
          value={money(resellers.balance)}
          detail={<FormattedMessage id="finance.overview.balancesDetail" values={{ count: resellers.count, available: money(resellers.availableCredit) }} />}
          to="/resellers?sortBy=balance&sortDir=asc"
        />
        <Figure
          testId="finance-debt"
          label="finance.overview.debt"
          value={money(resellers.debt)}
          detail={<FormattedMessage id="finance.overview.debtDetail" values={{ count: resellers.inDebt }} />}
        />
        <Figure
          testId="finance-invoices"
          label="finance.overview.openInvoices"
          value={money(invoices.openAmount)}
          detail={<FormattedMessage id="finance.overview.openInvoicesDetail" values={{ count: invoices.open }} />}
        />
        <Figure
          testId="finance-disputed"
          label="finance.overview.disputed"
          value={money(disputed.amount)}
          detail={<FormattedMessage id="finance.overview.disputedDetail" values={{ count: disputed.count }} />}
        />
        <Figure
          testId="finance-pending"
          label="finance.overview.pending"
          value={money(pending.bankWireAmount + pending.cryptoAmount)}
          detail={<FormattedMessage id="finance.overview.pendingDetail" values={{ wires: pending.bankWires, crypto: pending.crypto }} />}
          to="/bank-wires"
        />
      </div>
      <Card>
        <H4>
          <FormattedMessage id="finance.overview.debtors" />
        </H4>
        {data.debtors.length === 0 ? (
          <p data-testid="finance-debtors-empty">
            <FormattedMessage id="finance.overview.noDebtors" />
          </p>
        ) : (
          // The few resellers owing most, answered whole by the server, each linking to its page: no paging, sorting or search to offer.
          <HTMLTable compact striped className="portal-finance-debtors" data-testid="finance-debtors">
            <thead>
              <tr>
                <th>
                  <FormattedMessage id="payments.column.reseller" />
                </th>
                <th className="portal-cell-number">
                  <FormattedMessage id="entity.reseller.field.balance" />
                </th>
                <th className="portal-cell-number">
                  <FormattedMessage id="entity.reseller.field.creditLimit" />
                </th>
                <th className="portal-cell-number">
                  <FormattedMessage id="entity.reseller.field.availableCredit" />
                </th>
                <th className="portal-cell-number">
                  <FormattedMessage id="entity.reseller.field.disputedAmount" />
                </th>
                <th>
                  <FormattedMessage id="finance.overview.openInvoices" />
                </th>
              </tr>
            </thead>
            <tbody>
              {data.debtors.map((d) => (
                <tr key={d.resellerId}>
                  <td>
                    <Link to={`/reseller/${d.resellerId}?tab=payments`}>{d.name}</Link>
                  </td>
                  <td className="portal-cell-number">{money(d.balance)}</td>
                  <td className="portal-cell-number">{money(d.creditLimit)}</td>
                  <td className="portal-cell-number">
                    {d.availableCredit < 0 ? (
                      <Tag minimal intent={Intent.DANGER}>
                        {money(d.availableCredit)}
                      </Tag>
                    ) : (
                      money(d.availableCredit)
                    )}
                  </td>
                  <td className="portal-cell-number">{money(d.disputedAmount)}</td>
                  <td>{d.openInvoices}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </Card>
    </div>
  );
}
