/** The dashboard's charts over the chosen range: usage, sales, sales totals by a key, and the balance history. */
import { SegmentedControl } from '@blueprintjs/core';
import { lazy, Suspense, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { countryNames } from '@shared/countries';
import {
  usePostGraphsBalanceHistoryQuery,
  usePostGraphsSalesQuery,
  usePostGraphsSalesTotalByCountryQuery,
  usePostGraphsSalesTotalByCustomerQuery,
  usePostGraphsSalesTotalByOperatorQuery,
  usePostGraphsSalesTotalByVendorQuery,
  usePostGraphsUsageQuery,
} from '@web/core/graphsApi.gen';
import { ChartFrame } from '@web/ui/charts/ChartFrame';
import { emptyReason, useBucketLabel, useFigures, type Bucket } from './format';
import type { rangeBody } from './range';

// ECharts loads with the first chart.
const SeriesChart = lazy(() => import('@web/ui/charts/SeriesChart'));
const chartSkeleton = <div className="portal-chart-skeleton bp6-skeleton" />;

type Body = NonNullable<ReturnType<typeof rangeBody>>;
interface RangedProps {
  body: Body | undefined;
  granted: boolean;
}

/** Whether a series spans more than one local day (its hour labels then name the day). */
const spansDays = (points: { local: string }[]) => points.length > 0 && points[0].local.slice(0, 10) !== points[points.length - 1].local.slice(0, 10);

function TimeSeries({
  id,
  kind,
  points,
  bucket,
  loading,
  error,
  granted,
  onRefresh,
  format,
}: {
  id: 'usage' | 'sales';
  kind: 'line' | 'bar';
  points: { local: string; value: number }[] | undefined;
  bucket: Bucket | undefined;
  loading: boolean;
  error: Parameters<typeof emptyReason>[1];
  granted: boolean;
  onRefresh: () => void;
  format: (v: number) => string;
}) {
  const intl = useIntl();
  const label = useBucketLabel(bucket, spansDays(points ?? []));
  const title = intl.formatMessage({ id: `dashboard.${id}.title` });
  const series = useMemo(() => (points ?? []).map((p) => ({ label: label(p.local), value: p.value })), [points, label]);
  const empty = emptyReason(granted, error, !loading && (points ?? []).every((p) => p.value === 0));
  const table = {
    columns: [intl.formatMessage({ id: 'dashboard.column.period' }), intl.formatMessage({ id: `dashboard.${id}.value` })],
    rows: (points ?? []).map((p, i) => ({ values: [p.local, p.value], shown: [series[i]?.label ?? p.local, format(p.value)] })),
  };
  return (
    <ChartFrame title={title} name={title} loading={granted && loading} empty={empty} table={table} onRefresh={onRefresh} testId={`dashboard-${id}`}>
      <Suspense fallback={chartSkeleton}>
        <SeriesChart points={series} kind={kind} label={title} formatValue={format} testId={`dashboard-${id}-chart`} />
      </Suspense>
    </ChartFrame>
  );
}

/** Usage (MB, a line) or package sales (dollars, bars) per bucket of the range. */
export function SeriesWidget({ id, body, granted }: RangedProps & { id: 'usage' | 'sales' }) {
  const figures = useFigures();
  const arg = { body: body! };
  const usage = usePostGraphsUsageQuery(arg, { skip: !body || !granted || id !== 'usage' });
  const sales = usePostGraphsSalesQuery(arg, { skip: !body || !granted || id !== 'sales' });
  const q = id === 'usage' ? usage : sales;
  return (
    <TimeSeries
      id={id}
      kind={id === 'usage' ? 'line' : 'bar'}
      points={q.data?.points}
      bucket={q.data?.bucket}
      loading={q.isFetching || (!q.data && !q.error)}
      error={q.error}
      granted={granted}
      onRefresh={() => void q.refetch()}
      format={id === 'usage' ? figures.mb : figures.shortMoney}
    />
  );
}

const KEYS = ['country', 'customer', 'operator', 'vendor'] as const;
type Key = (typeof KEYS)[number];
/** Bars the chart shows; the table and CSV hold every key. */
const SHOWN_KEYS = 10;

export function SalesByChart({ body, granted }: RangedProps) {
  const intl = useIntl();
  const figures = useFigures();
  const [by, setBy] = useState<Key>('country');
  const arg = { body: body! };
  const options = (key: Key) => ({ skip: !body || !granted || by !== key });
  const queries = {
    country: usePostGraphsSalesTotalByCountryQuery(arg, options('country')),
    customer: usePostGraphsSalesTotalByCustomerQuery(arg, options('customer')),
    operator: usePostGraphsSalesTotalByOperatorQuery(arg, options('operator')),
    vendor: usePostGraphsSalesTotalByVendorQuery(arg, options('vendor')),
  };
  const q = queries[by];
  const names = useMemo(() => countryNames(intl.locale), [intl.locale]);
  const unknown = intl.formatMessage({ id: 'dashboard.unknown' });
  const items = useMemo(
    () => (q.data?.items ?? []).map((i) => ({ ...i, name: i.key === '' ? unknown : by === 'country' ? (names[i.key] ?? i.key) : (i.label ?? i.key) })),
    [q.data, by, names, unknown],
  );
  const title = intl.formatMessage({ id: 'dashboard.salesBy.title' });
  const byLabel = intl.formatMessage({ id: `dashboard.salesBy.${by}` });
  const table = {
    columns: [byLabel, intl.formatMessage({ id: 'dashboard.sales.value' }), intl.formatMessage({ id: 'dashboard.column.count' })],
    rows: items.map((i) => ({ values: [i.name, i.value, i.count], shown: [i.name, figures.money(i.value), figures.count(i.count)] })),
  };
  const points = useMemo(() => items.slice(0, SHOWN_KEYS).map((i) => ({ label: i.name, value: i.value })), [items]);
  return (
    <ChartFrame
      title={title}
      name={`${title} - ${byLabel}`}
      loading={granted && (q.isFetching || (!q.data && !q.error))}
      empty={emptyReason(granted, q.error, items.length === 0)}
      table={table}
      onRefresh={() => void q.refetch()}
      testId="dashboard-sales-by"
      actions={
        <SegmentedControl
          size="small"
          value={by}
          onValueChange={(v) => setBy(v as Key)}
          options={KEYS.map((k) => ({ value: k, label: intl.formatMessage({ id: `dashboard.salesBy.${k}` }) }))}
          aria-label={intl.formatMessage({ id: 'dashboard.salesBy.choose' })}
          data-testid="dashboard-sales-by-key"
        />
      }
    >
      <Suspense fallback={chartSkeleton}>
        <SeriesChart points={points} kind="bar" horizontal label={`${title} - ${byLabel}`} formatValue={figures.shortMoney} testId="dashboard-sales-by-chart" />
      </Suspense>
    </ChartFrame>
  );
}

/** The reseller's closing balance per day (per month over long ranges) across the range the usage call resolved. */
export function BalanceHistoryChart({ body, granted }: RangedProps) {
  const intl = useIntl();
  const figures = useFigures();
  // The range's instants as the server computed them in the user's zone; the ledger's days are UTC days.
  const usage = usePostGraphsUsageQuery({ body: body! }, { skip: !body || !granted });
  const span = usage.data && {
    from: usage.data.from.slice(0, 10),
    to: new Date(Date.parse(usage.data.to) - 1).toISOString().slice(0, 10),
    interval: usage.data.bucket === 'month' ? ('month' as const) : ('day' as const),
  };
  const q = usePostGraphsBalanceHistoryQuery(span ?? {}, { skip: !span });
  const label = useBucketLabel(span?.interval === 'month' ? 'month' : 'day', true);
  const points = useMemo(() => (q.data?.points ?? []).map((p) => ({ label: label(p.date), value: p.balance })), [q.data, label]);
  const title = intl.formatMessage({ id: 'dashboard.balanceHistory.title' });
  const table = {
    columns: [
      intl.formatMessage({ id: 'dashboard.column.period' }),
      intl.formatMessage({ id: 'dashboard.balanceHistory.balance' }),
      intl.formatMessage({ id: 'dashboard.balanceHistory.credits' }),
      intl.formatMessage({ id: 'dashboard.balanceHistory.debits' }),
    ],
    rows: (q.data?.points ?? []).map((p, i) => ({
      values: [p.date, p.balance, p.credits, p.debits],
      shown: [points[i]?.label ?? p.date, figures.money(p.balance), figures.money(p.credits), figures.money(p.debits)],
    })),
  };
  const error = usage.error ?? q.error;
  return (
    <ChartFrame
      title={<FormattedMessage id="dashboard.balanceHistory.title" />}
      name={title}
      loading={granted && !error && (!q.data || q.isFetching)}
      empty={emptyReason(granted, error, (q.data?.points ?? []).length === 0)}
      table={table}
      onRefresh={() => void q.refetch()}
      testId="dashboard-balance-history"
    >
      <Suspense fallback={chartSkeleton}>
        <SeriesChart points={points} kind="line" label={title} formatValue={figures.shortMoney} testId="dashboard-balance-history-chart" />
      </Suspense>
    </ChartFrame>
  );
}
