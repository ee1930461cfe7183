/**
 * A reseller's monthly invoices under its webhooks: number, period, closing balance, status and issue date, sorted and
 * paged by the server, each with its PDF and CSV. Those above the reseller (the administrator, a parent) may issue a
 * month that has ended; the server issues last month's by itself too.
 */
import { Button, ButtonGroup, Classes, ControlGroup, H3, HTMLSelect, HTMLTable, Intent, Tag } from '@blueprintjs/core';
import { CaretDownIcon, CaretUpIcon, DocumentIcon, DownloadIcon, ManualIcon } from '@blueprintjs/icons';
import { useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { apiErrorOf } from '@web/core/apiErrors';
import { useCaller } from '@web/core/useCaller';
import { Loading } from '@web/ui/Loading';
import { showToast } from '@web/ui/toaster';
import {
  useDownloadInvoiceMutation,
  usePostResellerInfoInvoicesByResellerIdIssueMutation,
  usePostResellerInfoInvoicesByResellerIdQuery,
  type Invoice,
} from './invoicesApi';

const PAGE_SIZE = 12;
/** How many ended months the issue picker offers. */
const PICKABLE_MONTHS = 24;
type SortKey = 'number' | 'month' | 'closingBalance' | 'status' | 'issuedAt';
const COLUMNS: SortKey[] = ['number', 'month', 'closingBalance', 'status', 'issuedAt'];

/** 'YYYY-MM' of the months that have ended, newest first (UTC, as the server counts them). */
function endedMonths(now = new Date()): string[] {
  return Array.from({ length: PICKABLE_MONTHS }, (_, i) => {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1 - i, 1));
    return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
  });
}

function useMonthName() {
  const intl = useIntl();
  return (month: string) => intl.formatDate(`${month}-01T00:00:00Z`, { year: 'numeric', month: 'long', timeZone: 'UTC' });
}

function InvoiceRow({ resellerId, invoice }: { resellerId: number; invoice: Invoice }) {
  const intl = useIntl();
  const monthName = useMonthName();
  const [download] = useDownloadInvoiceMutation();
  const [busy, setBusy] = useState<'pdf' | 'csv'>();
  const save = async (format: 'pdf' | 'csv') => {
    setBusy(format);
    const result = await download({ resellerId, invoiceId: invoice.id, format });
    setBusy(undefined);
    if (result.error) showToast({ intent: Intent.DANGER, message: intl.formatMessage({ id: 'invoices.downloadError' }) });
  };
  const number = String(invoice.number).padStart(6, '0');
  return (
    <tr data-testid={`invoice-row-${invoice.number}`}>
      <td dir="ltr" className="portal-invoice-number">
        {number}
      </td>
      <td>{monthName(invoice.month)}</td>
      <td className="portal-invoice-figure">{intl.formatNumber(invoice.closingBalance, { style: 'currency', currency: invoice.currency })}</td>
      <td>
        <Tag minimal intent={invoice.status === 'paid' ? Intent.SUCCESS : Intent.WARNING} data-testid="invoice-status">
          <FormattedMessage id={`invoices.status.${invoice.status}`} />
        </Tag>
      </td>
      <td>{intl.formatDate(invoice.issuedAt, { dateStyle: 'medium' })}</td>
      <td>
        <ButtonGroup>
          <Button
            size="small"
            icon={<DocumentIcon />}
            loading={busy === 'pdf'}
            aria-label={intl.formatMessage({ id: 'invoices.downloadPdfOf' }, { number })}
            data-testid={`invoice-pdf-${invoice.number}`}
            onClick={() => save('pdf')}
          >
            <FormattedMessage id="invoices.pdf" />
          </Button>
          <Button
            size="small"
            icon={<DownloadIcon />}
            loading={busy === 'csv'}
            aria-label={intl.formatMessage({ id: 'invoices.downloadCsvOf' }, { number })}
            data-testid={`invoice-csv-${invoice.number}`}
            onClick={() => save('csv')}
          >
            <FormattedMessage id="invoices.csv" />
          </Button>
        </ButtonGroup>
      </td>
    </tr>
  );
}

function IssueForm({ resellerId }: { resellerId: number }) {
  const intl = useIntl();
  const monthName = useMonthName();
  const months = useMemo(() => endedMonths(), []);
  const [month, setMonth] = useState(months[0]);
  const [issue, issuing] = usePostResellerInfoInvoicesByResellerIdIssueMutation();
  return (
    <ControlGroup className="portal-invoice-issue">
      <HTMLSelect
        value={month}
        onChange={(e) => setMonth(e.currentTarget.value)}
        aria-label={intl.formatMessage({ id: 'invoices.issueMonth' })}
        data-testid="invoice-issue-month"
        options={months.map((m) => ({ value: m, label: monthName(m) }))}
      />
      <Button
        icon={<ManualIcon />}
        intent={Intent.PRIMARY}
        loading={issuing.isLoading}
        data-testid="invoice-issue"
        onClick={async () => {
          const result = await issue({ resellerId, body: { month } });
          if (result.error) {
            const messageId = apiErrorOf(result.error)?.fields?.[0]?.messageId ?? 'app.error.generic';
            showToast({ intent: Intent.DANGER, message: intl.formatMessage({ id: messageId }) });
          } else
            showToast({
              intent: Intent.SUCCESS,
              message: intl.formatMessage({ id: 'invoices.issued' }, { number: String(result.data.number).padStart(6, '0'), month: monthName(month) }),
            });
        }}
      >
        <FormattedMessage id="invoices.issue" />
      </Button>
    </ControlGroup>
  );
}

export function InvoicesPanel({ id }: { id: number }) {
  const intl = useIntl();
  const caller = useCaller();
  const [page, setPage] = useState(0);
  const [sort, setSort] = useState<{ by: SortKey; dir: 'asc' | 'desc' }>({ by: 'number', dir: 'desc' });
  const { data, isError } = usePostResellerInfoInvoicesByResellerIdQuery(
    { resellerId: id, body: { sortBy: sort.by, sortDir: sort.dir, page: { page, size: PAGE_SIZE } } },
    { refetchOnMountOrArgChange: true },
  );
  // Issued from above: the administrator, or a reseller the row sits under (never the reseller itself).
  const issues = Boolean(caller && (caller.isAdmin || (caller.accountId === null && caller.resellerId !== id)));
  if (isError) return null;
  const sortBy = (by: SortKey) => {
    setSort((s) => ({ by, dir: s.by === by && s.dir === 'desc' ? 'asc' : 'desc' }));
    setPage(0);
  };
  return (
    <section className="portal-page portal-invoices" data-testid="reseller-invoices">
      <header className="portal-page-header">
        <H3>
          <FormattedMessage id="invoices.title" />
        </H3>
        {issues && (
          <div className="portal-page-actions">
            <IssueForm resellerId={id} />
          </div>
        )}
      </header>
      {!data ? (
        <Loading />
      ) : data.items.length === 0 ? (
        <p className={Classes.TEXT_MUTED} data-testid="invoices-empty">
          <FormattedMessage id="invoices.empty" />
        </p>
      ) : (
        <>
          <HTMLTable compact striped className="portal-invoice-table">
            <thead>
              <tr>
                {COLUMNS.map((c) => (
                  <th
                    key={c}
                    className={c === 'closingBalance' ? 'portal-invoice-figure' : undefined}
                    aria-sort={sort.by === c ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}
                  >
                    <Button
                      variant="minimal"
                      size="small"
                      endIcon={sort.by === c ? sort.dir === 'asc' ? <CaretUpIcon /> : <CaretDownIcon /> : undefined}
                      data-testid={`invoice-sort-${c}`}
                      onClick={() => sortBy(c)}
                    >
                      <FormattedMessage id={`invoices.column.${c}`} />
                    </Button>
                  </th>
                ))}
                <th aria-label={intl.formatMessage({ id: 'invoices.column.downloads' })} />
              </tr>
            </thead>
            <tbody>
              {data.items.map((invoice) => (
                <InvoiceRow key={invoice.id} resellerId={id} invoice={invoice} />
              ))}
            </tbody>
          </HTMLTable>
          {data.totalPageCount > 1 && (
            <ButtonGroup className="portal-invoice-pager">
              <Button disabled={page === 0} onClick={() => setPage(page - 1)}>
                <FormattedMessage id="list.previous" />
              </Button>
              <Button disabled={page + 1 >= data.totalPageCount} onClick={() => setPage(page + 1)}>
                <FormattedMessage id="list.next" />
              </Button>
            </ButtonGroup>
          )}
        </>
      )}
    </section>
  );
}
