/**
 * One page of an administrator's log (outbox, join requests) as a plain table, newest first, paged on the
 * server. A row can open a detail panel below the table (the outbox shows the mail's text there).
 */
import { Button, Callout, H2, HTMLTable, NonIdealState } from '@blueprintjs/core';
import { RefreshIcon } from '@blueprintjs/icons';
import { useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Page } from '@shared/wire';
import { Loading } from './Loading';
import { Pager } from './Pager';
import type { AdminPageArgs } from '@web/core/adminApi';

export const ADMIN_PAGE_SIZE = 25;

export interface AdminColumn<T> {
  /** Message id of the header. */
  header: string;
  cell: (row: T) => ReactNode;
}

interface QueryResult<T> {
  data?: Page<T>;
  isLoading: boolean;
  isFetching: boolean;
  isError: boolean;
  refetch: () => unknown;
}

export interface AdminTablePageProps<T extends { id: number }> {
  testId: string;
  /** Message ids of the page's title and introduction. */
  title: string;
  intro: string;
  useRows: (args: AdminPageArgs) => QueryResult<T>;
  columns: AdminColumn<T>[];
  /** Shown below the table for the selected row. */
  detail?: (row: T) => ReactNode;
}

export function AdminTablePage<T extends { id: number }>({ testId, title, intro, useRows, columns, detail }: AdminTablePageProps<T>) {
  const intl = useIntl();
  const [page, setPage] = useState(0);
  const [selected, setSelected] = useState<number | null>(null);
  const { data, isLoading, isFetching, isError, refetch } = useRows({ page, size: ADMIN_PAGE_SIZE });
  const chosen = data?.items.find((row) => row.id === selected);

  return (
    <div className="portal-page" data-testid={testId}>
      <header className="portal-page-header">
        <H2>
          <FormattedMessage id={title} />
        </H2>
        <div className="portal-page-actions">
          <Button icon={<RefreshIcon />} loading={isFetching} onClick={() => refetch()} text={intl.formatMessage({ id: 'list.refresh' })} />
        </div>
      </header>
      <p className="portal-page-intro">
        <FormattedMessage id={intro} />
      </p>
      {isError && (
        <Callout intent="danger">
          <FormattedMessage id="list.loadError" />
        </Callout>
      )}
      {isLoading && <Loading />}
      {data && data.items.length === 0 && <NonIdealState description={<FormattedMessage id="admin.empty" />} />}
      {data && data.items.length > 0 && (
        <>
          {/* The shared plain table of the server-paged admin logs itself, not a hand-rolled copy of it. */}
          <HTMLTable className="portal-admin-table" interactive={Boolean(detail)} striped compact>
            <thead>
              <tr>
                {columns.map((col) => (
                  <th key={col.header} scope="col">
                    <FormattedMessage id={col.header} />
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.items.map((row) => (
                <tr
                  key={row.id}
                  data-testid="admin-row"
                  aria-selected={detail ? row.id === selected : undefined}
                  tabIndex={detail ? 0 : undefined}
                  onClick={detail ? () => setSelected(row.id === selected ? null : row.id) : undefined}
                  onKeyDown={detail ? (e) => e.key === 'Enter' && setSelected(row.id === selected ? null : row.id) : undefined}
                >
                  {columns.map((col) => (
                    <td key={col.header}>{col.cell(row)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          <Pager page={data.currentPage + 1} pages={Math.max(1, data.totalPageCount)} total={data.totalItemsCount} onPage={(p) => setPage(p - 1)} />
        </>
      )}
      {detail && chosen && (
        <section className="portal-admin-detail" data-testid="admin-detail">
          {detail(chosen)}
        </section>
      )}
    </div>
  );
}

/** A timestamp in the user's locale and time zone. */
export function When({ at }: { at: string }) {
  const intl = useIntl();
  return <time dateTime={at}>{intl.formatDate(at, { dateStyle: 'medium', timeStyle: 'short' })}</time>;
}
