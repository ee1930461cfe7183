/**
 * `/network`: the networks the portal knows, with the caller's traffic and active SIMs on each over a range. A
 * world map of the same figures per country (click a country to narrow the grid to it), the grid paged, sorted and
 * searched on the server, and a side panel with the caller's roaming profiles allowing the chosen network.
 */
import {
  Button,
  Callout,
  Classes,
  Drawer,
  DrawerSize,
  FormGroup,
  H2,
  HTMLTable,
  InputGroup,
  Intent,
  NonIdealState,
  SegmentedControl,
  Switch,
  Tag,
} from '@blueprintjs/core';
import { ChevronDownIcon, ChevronUpIcon, RefreshIcon, SearchIcon } from '@blueprintjs/icons';
import { lazy, Suspense, useCallback, useId, useMemo, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { countryNames } from '@shared/countries';
import { usePageTitle } from '@web/engine/pageTitle';
import { Loading } from '@web/ui/Loading';
import { Pager } from '@web/ui/Pager';
import {
  useGetNetworksByPlmnProfilesQuery,
  usePostNetworksUsageCountriesQuery,
  usePostNetworksUsagePagedQuery,
  type NetworkUsage,
  type NetworkUsageRequest,
  type RangeRequest,
} from './networkApi';
import './network.css';

const CountryMap = lazy(() => import('@web/ui/CountryMap'));

const MB = 1024 * 1024;
const PAGE_SIZE = 25;
type RangeKey = NonNullable<RangeRequest['range']>;
type SortKey = NonNullable<NetworkUsageRequest['sortBy']>;
type Metric = 'traffic' | 'sims';
const RANGES: RangeKey[] = ['24h', '7d', '30d', 'custom'];

/** Today and thirty days before it, as the date inputs read them (the browser's own day). */
function localDay(offsetDays = 0): string {
  const d = new Date(Date.now() + offsetDays * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** A custom range from the start of its first day to the end of its last, in the browser's time zone. */
function customRange(from: string, to: string): RangeRequest | undefined {
  const start = new Date(`${from}T00:00:00`);
  const end = new Date(`${to}T00:00:00`);
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) return undefined;
  end.setDate(end.getDate() + 1);
  return end > start ? { range: 'custom', from: start.toISOString(), to: end.toISOString() } : undefined;
}

function ProfilesPanel({ network, onClose }: { network: NetworkUsage; onClose: () => void }) {
  const intl = useIntl();
  const { data, isFetching, isError } = useGetNetworksByPlmnProfilesQuery(network.plmn);
  const name = network.brand ?? network.operator ?? network.plmn;
  return (
    <Drawer
      isOpen
      onClose={onClose}
      size={DrawerSize.STANDARD}
      title={intl.formatMessage({ id: 'network.profiles.title' }, { name })}
      className="portal-network-drawer"
    >
      <div className={Classes.DRAWER_BODY} data-testid="network-profiles">
        <div className={Classes.DIALOG_BODY}>
          <p className={Classes.TEXT_MUTED}>
            <FormattedMessage
              id="network.profiles.network"
              values={{
                operator: network.operator ?? name,
                plmn: `${network.mcc}-${network.mnc}`,
                country: countryNames(intl.locale)[network.country] ?? network.country,
              }}
            />
          </p>
          {isFetching && <Loading />}
          {isError && <Callout intent={Intent.DANGER}>{intl.formatMessage({ id: 'network.profiles.error' })}</Callout>}
          {data && data.items.length === 0 && <NonIdealState description={intl.formatMessage({ id: 'network.profiles.empty' })} />}
          {data && data.items.length > 0 && (
            <HTMLTable compact striped className="portal-network-profiles">
              <thead>
                <tr>
                  <th>{intl.formatMessage({ id: 'network.profiles.profile' })}</th>
                  <th>{intl.formatMessage({ id: 'network.profiles.list' })}</th>
                  <th>{intl.formatMessage({ id: 'allowedList.network.state' })}</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((p) => (
                  <tr key={`${p.roamingProfileId}-${p.allowedListId}`} data-testid="network-profile">
                    <td>
                      <Link to={`/roaming-profile/${p.roamingProfileId}`}>{p.name}</Link>
                      <div>
                        <Tag minimal intent={p.reviewState === 'approved' ? Intent.SUCCESS : Intent.WARNING}>
                          {intl.formatMessage({ id: `entity.roamingProfile.reviewState.${p.reviewState}`, defaultMessage: p.reviewState })}
                        </Tag>
                      </div>
                    </td>
                    <td>
                      <Link to={`/allowed-list/${p.allowedListId}`}>{p.allowedListName}</Link>
                    </td>
                    <td>
                      <Tag intent={p.allowed ? Intent.SUCCESS : Intent.DANGER} data-testid="network-profile-state">
                        {intl.formatMessage({ id: `allowedList.state.${p.state}`, defaultMessage: p.state })}
                      </Tag>
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          )}
        </div>
      </div>
    </Drawer>
  );
}

export default function NetworkPage() {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'network.title' }));
  const fromId = useId();
  const toId = useId();
  const [rangeKey, setRangeKey] = useState<RangeKey>('24h');
  const [custom, setCustom] = useState({ from: localDay(-30), to: localDay() });
  const [applied, setApplied] = useState<RangeRequest>({ range: '24h' });
  const [metric, setMetric] = useState<Metric>('traffic');
  const [country, setCountry] = useState<string | undefined>();
  const [text, setText] = useState('');
  const [searchKey, setSearchKey] = useState('');
  const [usedOnly, setUsedOnly] = useState(true);
  const [sort, setSort] = useState<{ sortBy: SortKey; sortDirection: 'asc' | 'desc' }>({ sortBy: 'trafficBytes', sortDirection: 'desc' });
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<NetworkUsage | undefined>();

  const names = useMemo(() => countryNames(intl.locale), [intl.locale]);
  const countries = usePostNetworksUsageCountriesQuery(applied);
  const request: NetworkUsageRequest = { ...applied, page: page - 1, size: PAGE_SIZE, country, searchKey: searchKey || undefined, usedOnly, ...sort };
  const grid = usePostNetworksUsagePagedQuery(request);

  const values = useMemo(
    () => Object.fromEntries((countries.data?.items ?? []).map((c) => [c.country, metric === 'traffic' ? c.trafficBytes / MB : c.activeSims])),
    [countries.data, metric],
  );
  const top = useMemo(
    () =>
      Object.entries(values)
        .filter(([, v]) => v > 0)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8),
    [values],
  );
  const mb = useCallback((v: number) => intl.formatMessage({ id: 'network.mb' }, { value: intl.formatNumber(v, { maximumFractionDigits: 1 }) }), [intl]);
  const sims = useCallback((v: number) => intl.formatMessage({ id: 'network.simsCount' }, { count: v }), [intl]);
  const customInvalid = rangeKey === 'custom' && !customRange(custom.from, custom.to);

  const chooseRange = (key: RangeKey) => {
    setRangeKey(key);
    if (key !== 'custom') {
      setApplied({ range: key });
      setPage(1);
    }
  };
  const applyCustom = (event: FormEvent) => {
    event.preventDefault();
    const range = customRange(custom.from, custom.to);
    if (range) {
      setApplied(range);
      setPage(1);
    }
  };
  const chooseCountry = useCallback((code: string | undefined) => {
    setCountry(code);
    setPage(1);
  }, []);
  const search = (event: FormEvent) => {
    event.preventDefault();
    setSearchKey(text.trim());
    setPage(1);
  };
  const sortBy = (key: SortKey) => {
    setSort((s) => ({
      sortBy: key,
      sortDirection:
        s.sortBy === key && s.sortDirection === 'desc' ? 'asc' : key === 'trafficBytes' || key === 'activeSims' ? 'desc' : s.sortBy === key ? 'desc' : 'asc',
    }));
    setPage(1);
  };

  const header = (key: SortKey, messageId: string, numeric = false) => {
    const active = sort.sortBy === key;
    return (
      <th
        className={numeric ? 'portal-network-number' : undefined}
        aria-sort={active ? (sort.sortDirection === 'asc' ? 'ascending' : 'descending') : 'none'}
        data-testid={`network-sort-${key}`}
      >
        <button type="button" className="portal-network-sort" onClick={() => sortBy(key)}>
          {intl.formatMessage({ id: messageId })}
          {active && (sort.sortDirection === 'asc' ? <ChevronUpIcon size={12} /> : <ChevronDownIcon size={12} />)}
        </button>
      </th>
    );
  };

  const data = grid.data;
  return (
    <div className="portal-page portal-network" data-testid="network-page">
      <header className="portal-page-header">
        <H2>
          <FormattedMessage id="network.title" />
        </H2>
        <div className="portal-page-actions">
          <Button
            variant="minimal"
            icon={<RefreshIcon />}
            aria-label={intl.formatMessage({ id: 'list.refresh' })}
            loading={grid.isFetching || countries.isFetching}
            onClick={() => {
              grid.refetch();
              countries.refetch();
            }}
          />
        </div>
      </header>
      <p className="portal-page-intro">
        <FormattedMessage id="network.intro" />
      </p>

      <div className="portal-network-range" data-testid="network-range">
        <SegmentedControl
          aria-label={intl.formatMessage({ id: 'network.range.label' })}
          options={RANGES.map((r) => ({ value: r, label: intl.formatMessage({ id: `network.range.${r}` }) }))}
          value={rangeKey}
          onValueChange={(v) => chooseRange(v as RangeKey)}
        />
        {rangeKey === 'custom' && (
          <form className="portal-network-custom" onSubmit={applyCustom}>
            <FormGroup label={intl.formatMessage({ id: 'network.range.from' })} labelFor={fromId} inline>
              <InputGroup id={fromId} type="date" value={custom.from} max={custom.to} onChange={(e) => setCustom({ ...custom, from: e.currentTarget.value })} />
            </FormGroup>
            <FormGroup label={intl.formatMessage({ id: 'network.range.to' })} labelFor={toId} inline>
              <InputGroup id={toId} type="date" value={custom.to} min={custom.from} onChange={(e) => setCustom({ ...custom, to: e.currentTarget.value })} />
            </FormGroup>
            <Button type="submit" intent={Intent.PRIMARY} disabled={customInvalid} data-testid="network-range-apply">
              <FormattedMessage id="network.range.apply" />
            </Button>
            {customInvalid && <span className="portal-network-error">{intl.formatMessage({ id: 'network.range.invalid' })}</span>}
          </form>
        )}
      </div>

      <section className="portal-network-map" aria-label={intl.formatMessage({ id: 'network.map.title' })}>
        <div className="portal-network-map-bar">
          <SegmentedControl
            small
            aria-label={intl.formatMessage({ id: 'network.metric.label' })}
            data-testid="network-metric"
            options={[
              { value: 'traffic', label: intl.formatMessage({ id: 'network.metric.traffic' }) },
              { value: 'sims', label: intl.formatMessage({ id: 'network.metric.sims' }) },
            ]}
            value={metric}
            onValueChange={(v) => setMetric(v as Metric)}
          />
          {countries.data && countries.data.items.length === 0 && (
            <span className={Classes.TEXT_MUTED}>
              <FormattedMessage id="network.map.empty" />
            </span>
          )}
        </div>
        <Suspense fallback={<Loading />}>
          <CountryMap
            values={values}
            format={metric === 'traffic' ? mb : sims}
            onSelect={chooseCountry}
            selected={country}
            label={intl.formatMessage({ id: 'network.map.title' })}
          />
        </Suspense>
        <div className="portal-network-top" aria-label={intl.formatMessage({ id: 'network.map.top' })} role="group" data-testid="network-top-countries">
          {top.map(([code, v]) => (
            <Button
              key={code}
              small
              variant="outlined"
              active={code === country}
              data-testid={`network-country-${code}`}
              onClick={() => chooseCountry(code === country ? undefined : code)}
            >
              {names[code] ?? code}: {metric === 'traffic' ? mb(v) : sims(v)}
            </Button>
          ))}
        </div>
        {/* The same figures as a table, for screen readers. */}
        <table className={Classes.TEXT_MUTED + ' portal-visually-hidden'}>
          <caption>{intl.formatMessage({ id: 'network.map.title' })}</caption>
          <tbody>
            {(countries.data?.items ?? []).map((c) => (
              <tr key={c.country}>
                <th scope="row">{names[c.country] ?? c.country}</th>
                <td>{mb(c.trafficBytes / MB)}</td>
                <td>{sims(c.activeSims)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <div className="portal-network-filters">
        <form onSubmit={search} className="portal-network-search">
          <InputGroup
            type="search"
            leftIcon={<SearchIcon />}
            placeholder={intl.formatMessage({ id: 'network.search' })}
            aria-label={intl.formatMessage({ id: 'network.search' })}
            value={text}
            data-testid="network-search"
            onChange={(e) => setText(e.currentTarget.value)}
          />
        </form>
        {country && (
          <Tag large intent={Intent.PRIMARY} onRemove={() => chooseCountry(undefined)} data-testid="network-country-filter">
            {intl.formatMessage({ id: 'network.country.filter' }, { name: names[country] ?? country })}
          </Tag>
        )}
        <Switch
          checked={usedOnly}
          label={intl.formatMessage({ id: 'network.usedOnly' })}
          data-testid="network-used-only"
          onChange={(e) => {
            setUsedOnly(e.currentTarget.checked);
            setPage(1);
          }}
        />
      </div>

      {grid.isError && <Callout intent={Intent.DANGER}>{intl.formatMessage({ id: 'network.error' })}</Callout>}
      {!data && grid.isLoading && <Loading />}
      {data && data.items.length === 0 && <NonIdealState description={intl.formatMessage({ id: usedOnly ? 'network.emptyUsed' : 'network.empty' })} />}
      {data && data.items.length > 0 && (
        <div className="portal-network-grid-wrap">
          <HTMLTable compact striped interactive className="portal-network-grid" data-testid="network-grid">
            <thead>
              <tr>
                {header('operator', 'network.col.operator')}
                {header('brand', 'network.col.brand')}
                {header('country', 'network.col.country')}
                {header('plmn', 'network.col.plmn')}
                <th>{intl.formatMessage({ id: 'network.col.technologies' })}</th>
                {header('trafficBytes', 'network.col.traffic', true)}
                {header('activeSims', 'network.col.sims', true)}
              </tr>
            </thead>
            <tbody>
              {data.items.map((n) => (
                <tr
                  key={n.plmn}
                  data-testid="network-row"
                  data-plmn={n.plmn}
                  data-country={n.country}
                  tabIndex={0}
                  onClick={() => setChosen(n)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter' || e.key === ' ') {
                      e.preventDefault();
                      setChosen(n);
                    }
                  }}
                >
                  <td>
                    <bdi>{n.operator ?? '—'}</bdi>
                  </td>
                  <td>
                    <bdi>{n.brand ?? '—'}</bdi>
                  </td>
                  <td>{names[n.country] ?? n.country}</td>
                  <td className="portal-network-code">
                    {n.mcc}-{n.mnc}
                  </td>
                  <td>
                    {n.technologies.map((t) => (
                      <Tag key={t} minimal className="portal-network-tech">
                        {t}
                      </Tag>
                    ))}
                  </td>
                  <td className="portal-network-number" data-testid="network-traffic">
                    {intl.formatNumber(n.trafficBytes / MB, { maximumFractionDigits: 1 })}
                  </td>
                  <td className="portal-network-number" data-testid="network-sims">
                    {intl.formatNumber(n.activeSims)}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
      {data && <Pager page={page} pages={data.totalPageCount} total={data.totalItemsCount} onPage={setPage} />}
      {chosen && <ProfilesPanel network={chosen} onClose={() => setChosen(undefined)} />}
    </div>
  );
}
