/**
 * The world map of the range: per country the active SIMs, the data used or the package sales, switchable. A click on
 * a country opens the subscriber list filtered to the subscribers located there.
 */
import { SegmentedControl } from '@blueprintjs/core';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import { countryNames } from '@shared/countries';
import { ChartFrame } from '@web/ui/charts/ChartFrame';
import { usePostGraphsCountriesQuery } from './dashboardApi';
import { emptyReason, useFigures } from './format';
import type { rangeBody } from './range';

const CountryMap = lazy(() => import('@web/ui/CountryMap'));

const METRICS = ['activeSims', 'mb', 'sales'] as const;
type Metric = (typeof METRICS)[number];

/** The subscriber list filtered to one country (the list's country search, kept in the address). */
export const countrySubscribersPath = (code: string) => `/subscribers?searchBy=country&searchKey=${encodeURIComponent(code)}`;

export function MapWidget({ body, granted }: { body: NonNullable<ReturnType<typeof rangeBody>> | undefined; granted: boolean }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const figures = useFigures();
  const [metric, setMetric] = useState<Metric>('activeSims');
  const q = usePostGraphsCountriesQuery({ body: body! }, { skip: !body || !granted });
  const names = useMemo(() => countryNames(intl.locale), [intl.locale]);
  const items = useMemo(() => q.data?.items ?? [], [q.data]);
  const values = useMemo(() => Object.fromEntries(items.filter((i) => i.country).map((i) => [i.country, i[metric]])), [items, metric]);
  const format = useMemo(() => ({ activeSims: figures.count, mb: figures.mb, sales: figures.money })[metric], [figures, metric]);
  const open = useCallback((code: string) => navigate(countrySubscribersPath(code)), [navigate]);
  const title = intl.formatMessage({ id: 'dashboard.map.title' });
  const name = (code: string) => (code ? (names[code] ?? code) : intl.formatMessage({ id: 'dashboard.unknown' }));
  const table = {
    columns: [
      intl.formatMessage({ id: 'dashboard.column.country' }),
      intl.formatMessage({ id: 'dashboard.map.activeSims' }),
      intl.formatMessage({ id: 'dashboard.map.mb' }),
      intl.formatMessage({ id: 'dashboard.map.sales' }),
    ],
    rows: items.map((i) => ({
      values: [i.country, i.activeSims, i.mb, i.sales],
      shown: [name(i.country), figures.count(i.activeSims), figures.mb(i.mb), figures.money(i.sales)],
    })),
  };
  return (
    <ChartFrame
      title={title}
      name={title}
      className="portal-dashboard-map"
      loading={granted && (q.isFetching || (!q.data && !q.error))}
      empty={emptyReason(granted, q.error, items.length === 0)}
      table={table}
      onRefresh={() => void q.refetch()}
      testId="dashboard-map"
      actions={
        <SegmentedControl
          size="small"
          value={metric}
          onValueChange={(v) => setMetric(v as Metric)}
          options={METRICS.map((m) => ({ value: m, label: intl.formatMessage({ id: `dashboard.map.${m}` }) }))}
          aria-label={intl.formatMessage({ id: 'dashboard.map.metric' })}
          data-testid="dashboard-map-metric"
        />
      }
    >
      <Suspense fallback={<div className="portal-chart-skeleton bp6-skeleton" />}>
        <CountryMap values={values} format={format} onSelect={open} label={`${title}: ${intl.formatMessage({ id: `dashboard.map.${metric}` })}`} />
      </Suspense>
    </ChartFrame>
  );
}
