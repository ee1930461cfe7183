/**
 * The frame every chart of the portal sits in: a title, a refresh button, a CSV export of the chart's data, a table
 * view of the same data (shown on demand; always there, visually hidden, for screen readers), a loading skeleton and
 * an empty state that says why nothing is drawn.
 */
import { Button, ButtonGroup, Card, Classes, H3, HTMLTable, NonIdealState } from '@blueprintjs/core';
import { DownloadIcon, GridViewIcon, LockIcon, RefreshIcon, TimelineBarChartIcon } from '@blueprintjs/icons';
import { useId, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { csvText, downloadCsv, type CsvCell } from './csv';
import './charts.css';

/** Why a chart shows nothing: nothing in the range, or the user may not see it. */
export type EmptyReason = 'noData' | 'noPrivilege' | 'error';

export interface ChartTable {
  /** Column headings, as shown. */
  columns: string[];
  /** The raw values of each row (CSV), and how each reads on screen (the table view); `shown` defaults to the raw value. */
  rows: { key?: string | number; values: CsvCell[]; shown?: ReactNode[] }[];
}

export interface ChartFrameProps {
  title: ReactNode;
  /** A plain-text title for the CSV file's name and the table's caption. */
  name: string;
  /** The data is on its way: a skeleton in place of the chart. */
  loading?: boolean;
  /** Nothing to draw, and why; the chart is not drawn. */
  empty?: EmptyReason;
  table?: ChartTable;
  onRefresh?: () => void;
  /** The table is the widget's view (a list): always shown, no chart and no switch. */
  tableOnly?: boolean;
  /** Controls beside the title (a metric switch). */
  actions?: ReactNode;
  children?: ReactNode;
  className?: string;
  testId?: string;
}

const EMPTY_ICONS = { noData: <TimelineBarChartIcon size={32} />, noPrivilege: <LockIcon size={32} />, error: <TimelineBarChartIcon size={32} /> };

function DataTable({ table, caption, hidden }: { table: ChartTable; caption: string; hidden: boolean }) {
  return (
    <div className={hidden ? 'portal-visually-hidden' : 'portal-chart-table'}>
      <HTMLTable compact striped>
        <caption className={hidden ? undefined : 'portal-visually-hidden'}>{caption}</caption>
        <thead>
          <tr>
            {table.columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, i) => (
            <tr key={row.key ?? i}>
              {row.values.map((v, j) => (
                <td key={j}>{row.shown?.[j] ?? String(v ?? '')}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}

export function ChartFrame({ title, name, loading, empty, table, tableOnly, onRefresh, actions, children, className, testId }: ChartFrameProps) {
  const intl = useIntl();
  const headingId = useId();
  const [asTable, setAsTable] = useState(false);
  const hasRows = Boolean(table && table.rows.length > 0);
  const state = loading ? 'loading' : empty ? `empty-${empty}` : 'ready';
  return (
    <Card
      className={['portal-chart-frame', className].filter(Boolean).join(' ')}
      data-testid={testId}
      data-state={state}
      role="region"
      aria-labelledby={headingId}
    >
      <div className="portal-chart-head">
        <H3 id={headingId} className="portal-chart-title">
          {title}
        </H3>
        <div className="portal-chart-actions">
          {actions}
          <ButtonGroup variant="minimal">
            {table && !tableOnly && (
              <Button
                icon={<GridViewIcon />}
                active={asTable}
                disabled={!hasRows || Boolean(empty)}
                onClick={() => setAsTable((v) => !v)}
                aria-pressed={asTable}
                aria-label={intl.formatMessage({ id: 'chart.tableView' })}
                title={intl.formatMessage({ id: 'chart.tableView' })}
                data-testid={testId && `${testId}-table-toggle`}
              />
            )}
            {table && (
              <Button
                icon={<DownloadIcon />}
                disabled={!hasRows || Boolean(empty)}
                onClick={() =>
                  downloadCsv(
                    name,
                    csvText(
                      table.columns,
                      table.rows.map((r) => r.values),
                    ),
                  )
                }
                aria-label={intl.formatMessage({ id: 'chart.csv' })}
                title={intl.formatMessage({ id: 'chart.csv' })}
                data-testid={testId && `${testId}-csv`}
              />
            )}
            {onRefresh && (
              <Button
                icon={<RefreshIcon />}
                onClick={onRefresh}
                disabled={loading}
                aria-label={intl.formatMessage({ id: 'chart.refresh' })}
                title={intl.formatMessage({ id: 'chart.refresh' })}
                data-testid={testId && `${testId}-refresh`}
              />
            )}
          </ButtonGroup>
        </div>
      </div>
      <div className="portal-chart-body" aria-busy={loading || undefined}>
        {loading ? (
          <div className={`portal-chart-skeleton ${Classes.SKELETON}`} role="status" aria-label={intl.formatMessage({ id: 'app.loading' })} />
        ) : empty ? (
          <NonIdealState
            className="portal-chart-empty"
            icon={EMPTY_ICONS[empty]}
            title={<FormattedMessage id={`chart.empty.${empty}`} />}
            description={<FormattedMessage id={`chart.empty.${empty}.detail`} />}
          />
        ) : (
          <>
            {!asTable && !tableOnly && children}
            {table && <DataTable table={table} caption={name} hidden={!asTable && !tableOnly} />}
          </>
        )}
      </div>
    </Card>
  );
}
