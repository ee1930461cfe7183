/**
 * `/usage`: data used per subscriber, account, reseller, country, operator or subscriber group over a range of the
 * dashboard's (in the user's time zone), the largest as bars and all of them in a grid paged and sorted on the
 * server, with a CSV of the whole table. Each total opens the subscribers behind it: the subscribers list filtered by
 * that account, reseller, country, operator or group (a subscriber opens its own page).
 */
import { Button, Callout, Classes, FormGroup, H2, HTMLSelect, HTMLTable, InputGroup, Intent, NonIdealState, SegmentedControl } from '@blueprintjs/core';
import { ChevronDownIcon, ChevronUpIcon, DownloadIcon, RefreshIcon } from '@blueprintjs/icons';
import { lazy, Suspense, useCallback, useId, useMemo, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useSearchParams } from 'react-router-dom';
import { countryNames } from '@shared/countries';
import { isRightToLeft, type Locale } from '@web/core/locales';
import { useIsAdmin } from '@web/core/useIsAdmin';
import { usePageTitle } from '@web/engine/pageTitle';
import { Loading } from '@web/ui/Loading';
import { Pager } from '@web/ui/Pager';
import {
  useDownloadUsageByMutation,
  usePostGraphsUsageByQuery,
  type UsageByRequest,
  type UsageDimension,
  type UsageItem,
  type UsageRange,
  type UsageSort,
} from './usageApi';
import './usage.css';

const BarChart = lazy(() => import('@web/ui/charts/BarChart'));

export const DIMENSIONS: UsageDimension[] = ['account', 'reseller', 'subscriber', 'country', 'operator', 'group'];
export const RANGES: UsageRange[] = [
  'last24Hours',
  'last3Days',
  'day',
  'week',
  'last7Days',
  'last30Days',
  'last12Months',
  'month',
  'quarter',
  'year',
  'custom',
];
const PAGE_SIZE = 25;
const SKELETON_ROWS = 6;

/** A day of the browser's calendar, `offset` days from today, as the date inputs read it. */
function localDay(offset = 0): string {
  const d = new Date(Date.now() + offset * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The subscribers behind a total: the subscribers list filtered by its key (a subscriber: its own page). */
export function drillDown(dimension: UsageDimension, item: UsageItem, isAdmin: boolean): string | undefined {
  const list = (searchBy: string, searchKey: string) => `/subscribers?${new URLSearchParams({ searchBy, searchKey })}`;
  if (!item.key) return undefined;
  switch (dimension) {
    case 'subscriber':
      return `/subscriber/${item.key}`;
    case 'account':
      return list('accountId', item.key);
    case 'reseller':
      return isAdmin ? list('resellerId', item.key) : item.label ? list('resellerName', item.label) : undefined;
    case 'group':
      return list('groupId', item.key);
    case 'country':
      return list('country', item.key);
    case 'operator':
      return item.label ? list('network', item.label) : undefined;
  }
}

const read = <T extends string>(value: string | null, allowed: readonly T[], fallback: T): T => (allowed.includes(value as T) ? (value as T) : fallback);

export default function UsagePage() {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'usage.title' }));
  const isAdmin = useIsAdmin();
  const fromId = useId();
  const toId = useId();
  const rangeId = useId();
  const [params, setParams] = useSearchParams();
  // The choices live in the address, so a drill-down's way back returns to the same table.
  const dimension = read(params.get('dimension'), DIMENSIONS, 'account');
  const range = read(params.get('range'), RANGES, 'last7Days');
  const sortBy = read(params.get('sortBy'), ['key', 'label', 'mb', 'bytesUp', 'bytesDown', 'records', 'activeSims'] as UsageSort[], 'mb');
  const sortDir = read(params.get('sortDir'), ['asc', 'desc'] as const, 'desc');
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [custom, setCustom] = useState({ from: params.get('from') ?? localDay(-29), to: params.get('to') ?? localDay() });
  const applied = range === 'custom' ? { from: params.get('from') ?? undefined, to: params.get('to') ?? undefined } : {};

  const change = (next: Record<string, string | undefined>) =>
    setParams(
      (p) => {
        const out = new URLSearchParams(p);
        for (const [k, v] of Object.entries(next))
          if (v === undefined) out.delete(k);
          else out.set(k, v);
        if (!('page' in next)) out.delete('page');
        return out;
      },
      { replace: true },
    );

  const question: Omit<UsageByRequest, 'page' | 'size'> = { dimension, range, sortBy, sortDir, ...(range === 'custom' ? applied : {}) };
  const waiting = range === 'custom' && (!applied.from || !applied.to);
  const answer = usePostGraphsUsageByQuery({ body: { ...question, page: page - 1, size: PAGE_SIZE } }, { skip: waiting });
  const [download, downloading] = useDownloadUsageByMutation();

  const names = useMemo(() => countryNames(intl.locale), [intl.locale]);
  const labelOf = useCallback(
    (item: UsageItem) => {
      if (dimension === 'country') return item.key ? (names[item.key] ?? item.key) : intl.formatMessage({ id: 'usage.noNetwork' });
      if (dimension === 'operator' && !item.key) return intl.formatMessage({ id: 'usage.noNetwork' });
      return item.label ?? item.key;
    },
    [dimension, names, intl],
  );
  const mb = useCallback((v: number) => intl.formatMessage({ id: 'usage.mb' }, { value: intl.formatNumber(v, { maximumFractionDigits: 1 }) }), [intl]);
  // While another dimension's totals are on the way, the last answer (of the dimension left) is not shown: its keys
  // would be read as the new dimension's, and its links would open the wrong subscribers. Another page, sort or range
  // of the same dimension keeps it until the new one arrives.
  const data = answer.data?.dimension === dimension ? answer.data : undefined;
  const bars = useMemo(() => (data?.top ?? []).map((i) => ({ name: labelOf(i), value: i.mb })), [data, labelOf]);
  const customInvalid = !custom.from || !custom.to || custom.from > custom.to;

  const applyCustom = (event: FormEvent) => {
    event.preventDefault();
    if (!customInvalid) change({ range: 'custom', from: custom.from, to: custom.to });
  };
  const sort = (key: UsageSort) => {
    const numeric = !['key', 'label'].includes(key);
    change({ sortBy: key, sortDir: sortBy === key ? (sortDir === 'desc' ? 'asc' : 'desc') : numeric ? 'desc' : 'asc' });
  };
  const header = (key: UsageSort, messageId: string, numeric = false) => {
    const active = sortBy === key;
    return (
      <th className={numeric ? 'portal-usage-number' : undefined} aria-sort={active ? (sortDir === 'asc' ? 'ascending' : 'descending') : 'none'}>
        <button type="button" className="portal-usage-sort" data-testid={`usage-sort-${key}`} onClick={() => sort(key)}>
          {intl.formatMessage({ id: messageId })}
          {active && (sortDir === 'asc' ? <ChevronUpIcon size={12} /> : <ChevronDownIcon size={12} />)}
        </button>
      </th>
    );
  };

  const grouped = dimension === 'group';
  const columns = grouped ? 8 : 7;
  return (
    <div className="portal-page portal-usage" data-testid="usage-page">
      <header className="portal-page-header">
        <H2>
          <FormattedMessage id="usage.title" />
        </H2>
        <div className="portal-page-actions">
          <Button
            variant="minimal"
            icon={<RefreshIcon />}
            aria-label={intl.formatMessage({ id: 'list.refresh' })}
            loading={answer.isFetching}
            onClick={() => answer.refetch()}
          />
          <Button icon={<DownloadIcon />} loading={downloading.isLoading} disabled={waiting} data-testid="usage-download" onClick={() => download(question)}>
            <FormattedMessage id="usage.download" />
          </Button>
        </div>
      </header>
      <p className="portal-page-intro">
        <FormattedMessage id="usage.intro" />
      </p>

      <div className="portal-usage-controls">
        <SegmentedControl
          aria-label={intl.formatMessage({ id: 'usage.dimension.label' })}
          data-testid="usage-dimension"
          options={DIMENSIONS.map((d) => ({ value: d, label: intl.formatMessage({ id: `usage.dimension.${d}` }) }))}
          value={dimension}
          onValueChange={(v) => change({ dimension: v, sortBy: undefined, sortDir: undefined })}
        />
        <FormGroup label={intl.formatMessage({ id: 'usage.range.label' })} labelFor={rangeId} inline className="portal-usage-range">
          <HTMLSelect
            id={rangeId}
            data-testid="usage-range"
            value={range}
            options={RANGES.map((r) => ({ value: r, label: intl.formatMessage({ id: `usage.range.${r}` }) }))}
            onChange={(e) => {
              const next = e.currentTarget.value as UsageRange;
              change(next === 'custom' ? { range: next } : { range: next, from: undefined, to: undefined });
            }}
          />
        </FormGroup>
        {range === 'custom' && (
          <form className="portal-usage-custom" onSubmit={applyCustom}>
            <FormGroup label={intl.formatMessage({ id: 'usage.range.from' })} labelFor={fromId} inline>
              <InputGroup id={fromId} type="date" value={custom.from} max={custom.to} onChange={(e) => setCustom({ ...custom, from: e.currentTarget.value })} />
            </FormGroup>
            <FormGroup label={intl.formatMessage({ id: 'usage.range.to' })} labelFor={toId} inline>
              <InputGroup id={toId} type="date" value={custom.to} min={custom.from} onChange={(e) => setCustom({ ...custom, to: e.currentTarget.value })} />
            </FormGroup>
            <Button type="submit" intent={Intent.PRIMARY} disabled={customInvalid} data-testid="usage-range-apply">
              <FormattedMessage id="usage.range.apply" />
            </Button>
          </form>
        )}
      </div>

      {answer.isError && <Callout intent={Intent.DANGER}>{intl.formatMessage({ id: 'usage.error' })}</Callout>}

      <section className="portal-usage-chart" aria-label={intl.formatMessage({ id: 'usage.chart.title' })}>
        {data && bars.length > 0 && (
          <Suspense fallback={<Loading />}>
            <BarChart
              bars={bars}
              label={intl.formatMessage({ id: 'usage.chart.title' })}
              formatValue={mb}
              rtl={isRightToLeft(intl.locale as Locale)}
              testId="usage-chart"
            />
          </Suspense>
        )}
        {!data && !answer.isError && <div className={`portal-usage-chart-skeleton ${Classes.SKELETON}`} data-testid="usage-skeleton" />}
      </section>

      {data && data.items.length === 0 ? (
        <NonIdealState title={intl.formatMessage({ id: 'usage.empty.title' })} description={intl.formatMessage({ id: 'usage.empty' })} />
      ) : (
        <div className="portal-usage-grid-wrap">
          <HTMLTable compact striped className="portal-usage-grid" data-testid="usage-grid" data-dimension={data?.dimension}>
            <thead>
              <tr>
                {header('label', `usage.col.${dimension}`)}
                {header('key', 'usage.col.key')}
                {header('mb', 'usage.col.mb', true)}
                {header('bytesUp', 'usage.col.up', true)}
                {header('bytesDown', 'usage.col.down', true)}
                {header('records', 'usage.col.records', true)}
                {grouped && header('activeSims', 'usage.col.activeSims', true)}
                <th>
                  <span className="portal-visually-hidden">{intl.formatMessage({ id: 'usage.col.subscribers' })}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {!data &&
                Array.from({ length: SKELETON_ROWS }, (_, i) => (
                  <tr key={i}>
                    {Array.from({ length: columns }, (_, j) => (
                      <td key={j}>
                        <span className={Classes.SKELETON}>—————</span>
                      </td>
                    ))}
                  </tr>
                ))}
              {data?.items.map((item) => {
                const to = drillDown(dimension, item, isAdmin);
                return (
                  <tr key={item.key} data-testid="usage-row" data-key={item.key}>
                    <td>
                      <bdi>{labelOf(item)}</bdi>
                    </td>
                    <td className="portal-usage-code">
                      <bdi>{item.key || '—'}</bdi>
                    </td>
                    <td className="portal-usage-number" data-testid="usage-mb">
                      {intl.formatNumber(item.mb, { maximumFractionDigits: 1 })}
                    </td>
                    <td className="portal-usage-number">{intl.formatNumber(item.bytesUp / 1_048_576, { maximumFractionDigits: 1 })}</td>
                    <td className="portal-usage-number">{intl.formatNumber(item.bytesDown / 1_048_576, { maximumFractionDigits: 1 })}</td>
                    <td className="portal-usage-number">{intl.formatNumber(item.records)}</td>
                    {grouped && <td className="portal-usage-number">{intl.formatNumber(item.activeSims ?? 0)}</td>}
                    <td>
                      {to && (
                        <Link to={to} data-testid="usage-drill">
                          <FormattedMessage id={dimension === 'subscriber' ? 'usage.drill.subscriber' : 'usage.drill.subscribers'} />
                        </Link>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </HTMLTable>
        </div>
      )}
      {data && data.items.length > 0 && (
        <Pager page={page} pages={data.totalPageCount} total={data.totalItemsCount} onPage={(p) => change({ page: String(p) })} />
      )}
    </div>
  );
}
