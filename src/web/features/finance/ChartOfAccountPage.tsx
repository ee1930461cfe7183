/**
 * The chart of accounts with its trial balance over a chosen period (or to date): each account's debits, credits
 * and balance, the totals and their difference (0.00, green, when the books balance), each account opening its
 * journal, and the drift check of the reseller balances against the ledger and the standings.
 */
import { Button, Callout, FormGroup, H2, H3, HTMLTable, InputGroup, NonIdealState, Tag } from '@blueprintjs/core';
import { CrossIcon, ListColumnsIcon, RefreshIcon, ShopIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import { usePageTitle } from '@web/engine/pageTitle';
import { Loading } from '@web/ui/Loading';
import { Pager } from '@web/ui/Pager';
import { When } from '@web/ui/AdminTablePage';
import {
  useGetFinanceAccountsByCodeLinesQuery,
  useGetFinanceLedgerCheckQuery,
  useGetFinanceTrialBalanceQuery,
  type DriftItem,
  type TrialAccount,
} from './financeApi';
import './finance.css';

const LINES_PAGE_SIZE = 25;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Money with two decimals in the user's locale (the ledger keeps one currency). */
function useMoney() {
  const intl = useIntl();
  return (value: number) => intl.formatNumber(value, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

interface Period {
  from?: string;
  to?: string;
}

/** One account's journal lines in the period, newest first, paged on the server. */
/** A table's head: one column header per message id, amounts (`number`) aligned as numbers. */
function HeaderRow({ columns }: { columns: (string | { id: string; number: true })[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column) => {
          const { id, number } = typeof column === 'string' ? { id: column, number: false } : column;
          return (
            <th key={id} scope="col" className={number ? 'portal-finance-number' : undefined}>
              <FormattedMessage id={id} />
            </th>
          );
        })}
      </tr>
    </thead>
  );
}

function Journal({ account, period, onClose }: { account: TrialAccount; period: Period; onClose: () => void }) {
  const intl = useIntl();
  const money = useMoney();
  const [page, setPage] = useState(0);
  const { data, isLoading, isError } = useGetFinanceAccountsByCodeLinesQuery({ code: account.code, ...period, page, size: LINES_PAGE_SIZE });
  return (
    <section className="portal-finance-journal" data-testid="finance-journal" aria-labelledby="finance-journal-title">
      <header className="portal-page-header">
        <H3 id="finance-journal-title">
          <FormattedMessage id="finance.journal.title" values={{ code: account.code, name: account.name }} />
        </H3>
        <Button variant="minimal" icon={<CrossIcon />} aria-label={intl.formatMessage({ id: 'finance.journal.close' })} onClick={onClose} />
      </header>
      {isError && (
        <Callout intent="danger">
          <FormattedMessage id="list.loadError" />
        </Callout>
      )}
      {isLoading && <Loading />}
      {data && data.items.length === 0 && <NonIdealState description={<FormattedMessage id="finance.journal.empty" />} />}
      {data && data.items.length > 0 && (
        <>
          <HTMLTable className="portal-finance-table" striped compact>
            <HeaderRow
              columns={[
                'finance.journal.date',
                'finance.journal.entry',
                'finance.journal.reseller',
                'finance.journal.kind',
                'finance.journal.reference',
                { id: 'finance.debit', number: true },
                { id: 'finance.credit', number: true },
              ]}
            />
            <tbody>
              {data.items.map((line) => (
                <tr key={line.id} data-testid="finance-line">
                  <td>
                    <When at={line.createdAt} />
                  </td>
                  <td>{line.entryId}</td>
                  <td>{line.resellerName}</td>
                  <td>
                    <FormattedMessage id={`finance.kind.${line.kind}`} />
                    {line.method && (
                      <Tag minimal className="portal-finance-method">
                        <FormattedMessage id={`finance.method.${line.method}`} />
                      </Tag>
                    )}
                  </td>
                  <td>{line.reference}</td>
                  <td className="portal-finance-number">{line.debit ? money(line.debit) : ''}</td>
                  <td className="portal-finance-number">{line.credit ? money(line.credit) : ''}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          <Pager page={data.currentPage + 1} pages={Math.max(1, data.totalPageCount)} total={data.totalItemsCount} onPage={(p) => setPage(p - 1)} />
        </>
      )}
    </section>
  );
}

/** The drift check: "No drift", or each reseller and account whose figures disagree. */
function DriftCheck() {
  const money = useMoney();
  const { data, isFetching, isError, refetch } = useGetFinanceLedgerCheckQuery(undefined, { refetchOnMountOrArgChange: true });
  const intl = useIntl();
  const describe = (d: DriftItem) =>
    d.kind === 'reseller'
      ? intl.formatMessage(
          { id: 'finance.drift.reseller' },
          { name: d.resellerName, standing: money(d.standingBalance ?? 0), last: money(d.lastBalanceAfter ?? 0), sum: money(d.sumOfAmounts ?? 0) },
        )
      : intl.formatMessage(
          { id: 'finance.drift.account' },
          { code: d.accountCode, balance: money(d.accountBalance ?? 0), total: money(d.resellersTotal ?? 0) },
        );
  return (
    <section className="portal-finance-check" data-testid="finance-drift" aria-busy={isFetching}>
      <header className="portal-page-header">
        <H3>
          <FormattedMessage id="finance.drift.title" />
        </H3>
        <Button icon={<RefreshIcon />} loading={isFetching} onClick={() => refetch()} text={intl.formatMessage({ id: 'finance.drift.run' })} />
      </header>
      {isError && (
        <Callout intent="danger">
          <FormattedMessage id="list.loadError" />
        </Callout>
      )}
      {data && data.drift.length === 0 && (
        <Callout intent="success" data-testid="finance-no-drift">
          <FormattedMessage id="finance.drift.none" values={{ count: data.resellersChecked }} />
        </Callout>
      )}
      {data && data.drift.length > 0 && (
        <Callout intent="danger" title={intl.formatMessage({ id: 'finance.drift.found' }, { count: data.drift.length })}>
          <ul data-testid="finance-drift-list">
            {data.drift.map((d) => (
              <li key={`${d.kind}-${d.resellerId ?? d.accountCode}`}>{describe(d)}</li>
            ))}
          </ul>
        </Callout>
      )}
    </section>
  );
}

export default function ChartOfAccountPage() {
  const intl = useIntl();
  const navigate = useNavigate();
  const money = useMoney();
  usePageTitle(intl.formatMessage({ id: 'finance.chart.title' }));
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [selected, setSelected] = useState<string | null>(null);
  const badOrder = DATE.test(from) && DATE.test(to) && from > to;
  const period: Period = badOrder ? {} : { ...(DATE.test(from) ? { from } : {}), ...(DATE.test(to) ? { to } : {}) };
  const { data, isLoading, isFetching, isError, refetch } = useGetFinanceTrialBalanceQuery(period, { refetchOnMountOrArgChange: true });
  const chosen = data?.accounts.find((a) => a.code === selected);
  const balanced = data?.totals.difference === 0;
  const open = (code: string) => setSelected(code === selected ? null : code);

  return (
    <div className="portal-page portal-finance" data-testid="chart-of-account">
      <header className="portal-page-header">
        <H2>
          <FormattedMessage id="finance.chart.title" />
        </H2>
        <div className="portal-page-actions">
          <Button icon={<ListColumnsIcon />} onClick={() => navigate('/ledger-accounts')} text={intl.formatMessage({ id: 'finance.chart.manage' })} />
          <Button icon={<ShopIcon />} onClick={() => navigate('/product-billing')} text={intl.formatMessage({ id: 'topbar.settings.productBilling' })} />
          <Button icon={<RefreshIcon />} loading={isFetching} onClick={() => refetch()} text={intl.formatMessage({ id: 'list.refresh' })} />
        </div>
      </header>
      <p className="portal-page-intro">
        <FormattedMessage id="finance.chart.intro" />
      </p>
      <form className="portal-finance-period" onSubmit={(e) => e.preventDefault()} aria-label={intl.formatMessage({ id: 'finance.period' })}>
        <FormGroup label={intl.formatMessage({ id: 'finance.period.from' })} labelFor="finance-from">
          <InputGroup id="finance-from" type="date" value={from} max={to || undefined} onValueChange={setFrom} data-testid="finance-from" />
        </FormGroup>
        <FormGroup
          label={intl.formatMessage({ id: 'finance.period.to' })}
          labelFor="finance-to"
          intent={badOrder ? 'danger' : 'none'}
          helperText={badOrder ? intl.formatMessage({ id: 'validation.endDate.afterStart' }) : undefined}
        >
          <InputGroup
            id="finance-to"
            type="date"
            value={to}
            min={from || undefined}
            intent={badOrder ? 'danger' : 'none'}
            onValueChange={setTo}
            data-testid="finance-to"
          />
        </FormGroup>
        <Button
          variant="minimal"
          disabled={!from && !to}
          onClick={() => {
            setFrom('');
            setTo('');
          }}
          text={intl.formatMessage({ id: 'finance.period.all' })}
        />
      </form>
      {isError && (
        <Callout intent="danger">
          <FormattedMessage id="list.loadError" />
        </Callout>
      )}
      {isLoading && <Loading />}
      {data && (
        <HTMLTable className="portal-finance-table" interactive striped compact data-testid="trial-balance">
          <caption className="portal-finance-caption">
            {period.from || period.to ? (
              <FormattedMessage id="finance.period.range" values={{ from: period.from ?? '…', to: period.to ?? '…' }} />
            ) : (
              <FormattedMessage id="finance.period.toDate" />
            )}
          </caption>
          <HeaderRow
            columns={[
              'finance.account.code',
              'finance.account.name',
              'finance.account.type',
              { id: 'finance.debit', number: true },
              { id: 'finance.credit', number: true },
              { id: 'finance.balance', number: true },
            ]}
          />
          <tbody>
            {data.accounts.map((account) => (
              <tr
                key={account.code}
                data-testid="trial-balance-row"
                aria-selected={account.code === selected}
                tabIndex={0}
                onClick={() => open(account.code)}
                onKeyDown={(e) => e.key === 'Enter' && open(account.code)}
              >
                <td>{account.code}</td>
                <td>{account.name}</td>
                <td>
                  <FormattedMessage id={`enum.${account.type}`} />
                </td>
                <td className="portal-finance-number">{money(account.debit)}</td>
                <td className="portal-finance-number">{money(account.credit)}</td>
                <td className="portal-finance-number">{money(account.balance)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="portal-finance-totals" data-testid="trial-balance-totals">
              <th scope="row" colSpan={3}>
                <FormattedMessage id="finance.totals" />
              </th>
              <td className="portal-finance-number">{money(data.totals.debit)}</td>
              <td className="portal-finance-number">{money(data.totals.credit)}</td>
              <td className="portal-finance-number">
                <Tag
                  large
                  intent={balanced ? 'success' : 'danger'}
                  data-testid="trial-balance-difference"
                  data-balanced={balanced}
                  title={intl.formatMessage({ id: balanced ? 'finance.difference.balanced' : 'finance.difference.unbalanced' })}
                >
                  <FormattedMessage id="finance.difference" values={{ amount: money(data.totals.difference) }} />
                </Tag>
              </td>
            </tr>
          </tfoot>
        </HTMLTable>
      )}
      {chosen && <Journal key={`${chosen.code}-${period.from}-${period.to}`} account={chosen} period={period} onClose={() => setSelected(null)} />}
      <DriftCheck />
    </div>
  );
}
