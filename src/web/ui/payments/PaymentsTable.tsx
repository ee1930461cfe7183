/**
 * A reseller's (or an account's) payments, newest first: paged, sorted and filtered by method and status on the
 * server. The administrator may pick confirmed payments to reset them.
 */
import { Button, Checkbox, HTMLSelect, HTMLTable, Intent, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { apiErrorOf } from '@web/core/apiErrors';
import { usePostAccountsByIdPaymentsPagedQuery, usePostPaymentsPagedQuery, type Payment } from '@web/core/paymentsApi';
import type { PostPaymentsPagedApiArg } from '@web/core/paymentsApi.gen';
import { Loading } from '../Loading';
import { Pager } from '../Pager';
import './paymentsTable.css';

const PAGE_SIZE = 10;
const METHODS = ['CREDIT_CARD', 'BIT_PAY', 'BANK_WIRE', 'STRIPE', 'MANUAL'] as const;
const STATUSES = ['pending', 'confirmed', 'declined', 'failed', 'reset'] as const;
type SortBy = 'date' | 'amount' | 'creditedAmount' | 'fee' | 'method' | 'status';

const STATUS_INTENTS: Record<string, Intent> = { confirmed: Intent.SUCCESS, pending: Intent.WARNING, declined: Intent.DANGER, failed: Intent.DANGER };

export function PaymentStatus({ status }: { status: string }) {
  return (
    <Tag minimal intent={STATUS_INTENTS[status] ?? Intent.NONE} data-status={status}>
      <FormattedMessage id={`payments.status.${status}`} />
    </Tag>
  );
}

export interface PaymentsTableProps {
  /** The reseller whose payments to show (the caller's own when left out)… */
  resellerId?: number;
  /** With the payments of the resellers below it. */
  includeSubResellers?: boolean;
  /** …or one account's. */
  accountId?: number;
  /** Offers a choice of confirmed payments and hands the chosen ones to this action (the administrator's reset). */
  onReset?: (ids: number[]) => Promise<void>;
  testId?: string;
}

export function PaymentsTable({ resellerId, includeSubResellers, accountId, onReset, testId = 'payments-table' }: PaymentsTableProps) {
  const intl = useIntl();
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<{ by: SortBy; dir: 'asc' | 'desc' }>({ by: 'date', dir: 'desc' });
  const [method, setMethod] = useState<PostPaymentsPagedApiArg['method']>();
  const [status, setStatus] = useState<PostPaymentsPagedApiArg['status']>();
  const [chosen, setChosen] = useState<number[]>([]);
  const [resetting, setResetting] = useState(false);
  const body = { method, status, sortBy: sort.by, sortDir: sort.dir, page: { page: page - 1, size: PAGE_SIZE } };
  const forReseller = usePostPaymentsPagedQuery({ ...body, resellerId, includeSubResellers }, { skip: accountId !== undefined });
  const forAccount = usePostAccountsByIdPaymentsPagedQuery({ id: accountId ?? 0, body }, { skip: accountId === undefined });
  const { data, error } = accountId === undefined ? forReseller : forAccount;
  const money = (value: number | null | undefined, currency = 'USD') =>
    value === null || value === undefined ? '' : intl.formatNumber(value, { style: 'currency', currency });

  const sortBy = (by: SortBy) => {
    setSort((s) => ({ by, dir: s.by === by && s.dir === 'desc' ? 'asc' : 'desc' }));
    setPage(1);
  };
  const header = (by: SortBy, id: string, numeric = false) => (
    <th className={numeric ? 'portal-cell-number' : undefined} aria-sort={sort.by === by ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}>
      <Button
        variant="minimal"
        size="small"
        onClick={() => sortBy(by)}
        data-testid={`${testId}-sort-${by}`}
        endIcon={sort.by === by ? (sort.dir === 'asc' ? 'chevron-up' : 'chevron-down') : undefined}
      >
        <FormattedMessage id={id} />
      </Button>
    </th>
  );
  const filter = <T extends string>(id: string, value: T | undefined, values: readonly T[], prefix: string, set: (v: T | undefined) => void) => (
    <HTMLSelect
      aria-label={intl.formatMessage({ id })}
      data-testid={`${testId}-${id.split('.').pop()}`}
      value={value ?? ''}
      onChange={(e) => {
        set((e.currentTarget.value || undefined) as T | undefined);
        setPage(1);
      }}
      options={[{ value: '', label: intl.formatMessage({ id }) }, ...values.map((v) => ({ value: v, label: intl.formatMessage({ id: `${prefix}.${v}` }) }))]}
    />
  );
  const toggle = (p: Payment) => setChosen((c) => (c.includes(p.id) ? c.filter((id) => id !== p.id) : [...c, p.id]));

  return (
    <div className="portal-payments-table" data-testid={testId}>
      <div className="portal-payments-filters">
        {filter('payments.filter.anyMethod', method, METHODS, 'payments.method', setMethod)}
        {filter('payments.filter.anyStatus', status, STATUSES, 'payments.status', setStatus)}
        {onReset && (
          <Button
            intent={Intent.DANGER}
            disabled={chosen.length === 0}
            loading={resetting}
            data-testid={`${testId}-reset`}
            onClick={async () => {
              setResetting(true);
              await onReset(chosen);
              setResetting(false);
              setChosen([]);
            }}
          >
            <FormattedMessage id="payments.reset" values={{ count: chosen.length }} />
          </Button>
        )}
      </div>
      {error ? (
        <p className="portal-error">{intl.formatMessage({ id: apiErrorOf(error)?.fields?.[0]?.messageId ?? 'payments.loadError' })}</p>
      ) : !data ? (
        <Loading />
      ) : data.items.length === 0 ? (
        <p data-testid={`${testId}-empty`}>
          <FormattedMessage id="payments.empty" />
        </p>
      ) : (
        <>
          <div className="portal-table-scroll">
            {/* A panel of payments paged, sorted and filtered on the server, with a choice for the reset: it sits inside other pages, where the grid (a whole page) does not. */}
            <HTMLTable compact striped className="portal-panel-table">
              <thead>
                <tr>
                  {onReset && <th aria-label={intl.formatMessage({ id: 'payments.choose' })} />}
                  {header('date', 'payments.column.date')}
                  {header('method', 'payments.column.method')}
                  {header('status', 'payments.column.status')}
                  {header('amount', 'payments.column.paid', true)}
                  {header('fee', 'payments.column.fee', true)}
                  {header('creditedAmount', 'payments.column.credited', true)}
                  <th className="portal-cell-number">
                    <FormattedMessage id="payments.column.balanceAfter" />
                  </th>
                  <th>
                    <FormattedMessage id="payments.column.reference" />
                  </th>
                  {includeSubResellers && (
                    <th>
                      <FormattedMessage id="payments.column.reseller" />
                    </th>
                  )}
                  <th>
                    <FormattedMessage id="payments.column.user" />
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((p) => (
                  <tr key={p.id} data-testid={`payment-${p.id}`}>
                    {onReset && (
                      <td>
                        <Checkbox
                          aria-label={intl.formatMessage({ id: 'payments.choose' })}
                          disabled={p.status !== 'confirmed'}
                          checked={chosen.includes(p.id)}
                          onChange={() => toggle(p)}
                        />
                      </td>
                    )}
                    <td>{intl.formatDate(p.date, { dateStyle: 'medium', timeStyle: 'short' })}</td>
                    <td>
                      <FormattedMessage id={`payments.method.${p.method}`} />
                      {p.cardLast4 ? ` •••• ${p.cardLast4}` : ''}
                    </td>
                    <td title={p.failure ? intl.formatMessage({ id: p.failure }) : undefined}>
                      <PaymentStatus status={p.status} />
                    </td>
                    <td className="portal-cell-number">{money(p.paidAmount, p.currency)}</td>
                    <td className="portal-cell-number">{money(p.fee, p.currency)}</td>
                    <td className="portal-cell-number">{money(p.creditedAmount, p.currency)}</td>
                    <td className="portal-cell-number">{money(p.balanceAfter, p.currency)}</td>
                    <td>{[p.confirmationCode, p.reference, p.description].filter(Boolean).join(' · ')}</td>
                    {includeSubResellers && <td>{p.resellerName ?? p.resellerId}</td>}
                    <td>{p.userName ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
          {data.totalPageCount > 1 && <Pager page={page} pages={data.totalPageCount} total={data.totalItemsCount} onPage={setPage} />}
        </>
      )}
    </div>
  );
}
