/**
 * `/my-pricing`: the prices a reseller pays, derived from the pricing plan its parent assigned to it. The plan
 * summary, then one tab per view of the prices: per network (paged, sorted and searched on the server), per
 * country, per location zone and per destination zone; the address keeps the tab, the list's state and the
 * reseller viewed. The CSV download streams the network list as searched; a parent reseller also gets a margin
 * preview of a plan proposed for a sub-reseller.
 */
import { Button, Callout, Card, FormGroup, H2, HTMLSelect, HTMLTable, Intent, NonIdealState, Tab, Tabs } from '@blueprintjs/core';
import { DownloadIcon, LockIcon, SearchIcon } from '@blueprintjs/icons';
import type { ColDef, ValueFormatterParams } from 'ag-grid-community';
import { useId, useMemo, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSearchParams } from 'react-router-dom';
import { countryNames } from '@shared/countries';
import { formatRate } from '@shared/pricing';
import { networkPriceSchema, RATE_FIELDS, type CountryPrice, type NetworkPrice, type ResellerPricingSummary, type ZonePrice } from '@shared/resellerPricing';
import { searchFilters } from '@shared/schema';
import { Loading } from '@web/ui/Loading';
import { httpStatus } from '@web/core/apiErrors';
import { readListQuery, toListRequest, writeListQuery, type ListQuery } from '@web/engine/listQuery';
import { Pager } from '@web/ui/Pager';
import { usePageTitle } from '@web/engine/pageTitle';
import { SearchBar } from '@web/engine/SearchBar';
import { showToast } from '@web/ui/toaster';
import { useCaller } from '@web/core/useCaller';
import { useIsAdmin } from '@web/core/useIsAdmin';
import { MarginPreviewPanel } from './MarginPreviewPanel';
import { PricesGrid } from './PricesGrid';
import {
  useDownloadPricesMutation,
  useGetResellerPricingCountriesQuery,
  useGetResellerPricingDestinationZonesQuery,
  useGetResellerPricingLocationZonesQuery,
  useGetResellerPricingQuery,
  useNetworkPricesQuery,
} from './resellerPricingApi';
import './myPricing.css';

const RESELLER_PARAM = 'reseller';
const VIEW_PARAM = 'view';
const VIEWS = ['networks', 'countries', 'location-zones', 'destination-zones'] as const;
type View = (typeof VIEWS)[number];
const VIEW_TITLES: Record<View, string> = {
  networks: 'resellerPricing.tabs.networks',
  countries: 'resellerPricing.tabs.countries',
  'location-zones': 'resellerPricing.zones.location',
  'destination-zones': 'resellerPricing.zones.destination',
};
const schema = networkPriceSchema;

function PlanSummary({ summary }: { summary: ResellerPricingSummary }) {
  const intl = useIntl();
  const { plan } = summary;
  if (!plan) {
    return (
      <Callout intent={Intent.WARNING} data-testid="plan-summary" className="portal-my-pricing-callout">
        {intl.formatMessage({ id: 'resellerPricing.noPlan' }, { reseller: summary.reseller.name })}
      </Callout>
    );
  }
  const amount = (value: number | null) => (value === null ? intl.formatMessage({ id: 'format.none' }) : formatRate(intl.locale, value, plan.currency));
  const facts: [string, string][] = [
    ['resellerPricing.summary.reseller', summary.reseller.name],
    ['resellerPricing.summary.plan', plan.name],
    ['resellerPricing.summary.currency', plan.currency],
    ['resellerPricing.summary.useDefaultPrices', intl.formatMessage({ id: plan.useDefaultPrices ? 'form.yes' : 'form.no' })],
    ['resellerPricing.summary.defaultData', amount(plan.defaults.data)],
    ['resellerPricing.summary.defaultOutgoingVoice', amount(plan.defaults.outgoingVoice)],
    ['resellerPricing.summary.defaultIncomingVoice', amount(plan.defaults.incomingVoice)],
    ['resellerPricing.summary.defaultMoSms', amount(plan.defaults.moSms)],
    ['resellerPricing.summary.defaultMtSms', amount(plan.defaults.mtSms)],
  ];
  return (
    <Card className="portal-my-pricing-summary" data-testid="plan-summary">
      <dl>
        {facts.map(([id, value]) => (
          <div key={id}>
            <dt>
              <FormattedMessage id={id} />
            </dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="portal-my-pricing-note">
        <FormattedMessage id={plan.useDefaultPrices ? 'resellerPricing.summary.defaultsApply' : 'resellerPricing.summary.rulesOnly'} />
      </p>
    </Card>
  );
}

/** One tab's list of areas: its intro, then the load error, the wait, a note when empty, or the list. */
function AreaList<T>({
  intro,
  none,
  result,
  children,
}: {
  intro: string;
  none: string;
  result: { data?: { items: T[] }; isError: boolean };
  children: (items: T[]) => ReactNode;
}) {
  const { data, isError } = result;
  return (
    <>
      <p className="portal-page-intro">
        <FormattedMessage id={intro} />
      </p>
      {isError ? (
        <Callout intent={Intent.DANGER} role="alert">
          <FormattedMessage id="list.loadError" />
        </Callout>
      ) : !data ? (
        <Loading small />
      ) : data.items.length === 0 ? (
        <p className="portal-my-pricing-note">
          <FormattedMessage id={none} />
        </p>
      ) : (
        children(data.items)
      )}
    </>
  );
}

/** Prices per country: the highest rate among each country's priced networks, one row per country and currency. */
function CountryTable({ resellerId }: { resellerId?: number }) {
  const intl = useIntl();
  const result = useGetResellerPricingCountriesQuery(resellerId);
  const names = useMemo(() => countryNames(intl.locale), [intl.locale]);
  const columns = useMemo<ColDef<CountryPrice>[]>(() => {
    const header = (f: string) => intl.formatMessage({ id: `entity.networkPrice.field.${f}` });
    const rate = (p: ValueFormatterParams<CountryPrice>) =>
      p.value === null || p.value === undefined ? intl.formatMessage({ id: 'format.none' }) : formatRate(intl.locale, Number(p.value), p.data?.currency);
    return [
      {
        colId: 'country',
        field: 'country',
        flex: 1,
        minWidth: 200,
        headerName: header('country'),
        valueFormatter: (p) => `${p.value} · ${names[String(p.value)] ?? p.value}`,
      },
      {
        colId: 'networkCount',
        field: 'networkCount',
        width: 120,
        type: 'rightAligned',
        headerName: intl.formatMessage({ id: 'resellerPricing.countries.networks' }),
      },
      ...RATE_FIELDS.map((f): ColDef<CountryPrice> => ({ colId: f, field: f, width: 125, type: 'rightAligned', headerName: header(f), valueFormatter: rate })),
    ];
  }, [intl, names]);
  return (
    <div data-testid="prices-countries">
      <AreaList intro="resellerPricing.countries.intro" none="resellerPricing.countries.none" result={result}>
        {(items) => <PricesGrid rows={items} columns={columns} rowId={(r) => `${r.country}-${r.currency}`} testId="grid-countryPrice" height={480} />}
      </AreaList>
    </div>
  );
}

function ZoneTable({ kind, resellerId }: { kind: 'location-zones' | 'destination-zones'; resellerId?: number }) {
  const intl = useIntl();
  const location = useGetResellerPricingLocationZonesQuery(resellerId, { skip: kind !== 'location-zones' });
  const destination = useGetResellerPricingDestinationZonesQuery(resellerId, { skip: kind !== 'destination-zones' });
  const result = kind === 'location-zones' ? location : destination;
  const rate = (z: ZonePrice, f: (typeof RATE_FIELDS)[number]) =>
    z[f] === null ? intl.formatMessage({ id: 'format.none' }) : formatRate(intl.locale, z[f]!, z.currency ?? undefined);
  return (
    <div className="portal-my-pricing-zone" data-testid={`zones-${kind}`}>
      <AreaList intro="resellerPricing.zones.intro" none="resellerPricing.zones.none" result={result}>
        {(items) => (
          <div className="portal-my-pricing-scroll">
            {/* The plan's zones, a few rows the server answers whole, each summing its countries: no paging, sorting or search to offer. */}
            <HTMLTable compact striped className="portal-my-pricing-table">
              <thead>
                <tr>
                  <th>
                    <FormattedMessage id="resellerPricing.zones.zone" />
                  </th>
                  <th>
                    <FormattedMessage id="resellerPricing.zones.countries" />
                  </th>
                  {RATE_FIELDS.map((f) => (
                    <th key={f}>
                      <FormattedMessage id={`entity.networkPrice.field.${f}`} />
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {items.map((z) => (
                  <tr key={`${z.zoneId}-${z.currency}`} data-testid="zone-row">
                    <td>{z.zoneName}</td>
                    <td>{intl.formatMessage({ id: 'resellerPricing.zones.countryCount' }, { count: z.countries.length, networks: z.networkCount })}</td>
                    {RATE_FIELDS.map((f) => (
                      <td key={f} className="portal-my-pricing-amount">
                        {rate(z, f)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
        )}
      </AreaList>
    </div>
  );
}

export default function MyPricingPage() {
  const intl = useIntl();
  const caller = useCaller();
  usePageTitle(intl.formatMessage({ id: 'resellerPricing.title' }));
  const isAdmin = useIsAdmin();
  const selectId = useId();
  const [params, setParams] = useSearchParams();
  const raw = Number(params.get(RESELLER_PARAM));
  const resellerId = params.has(RESELLER_PARAM) && Number.isInteger(raw) ? raw : undefined;
  const query = readListQuery(params, schema, isAdmin);
  const view: View = VIEWS.find((v) => v === params.get(VIEW_PARAM)) ?? 'networks';
  const summary = useGetResellerPricingQuery(resellerId);
  const prices = useNetworkPricesQuery({ ...toListRequest(query, schema), resellerId }, { skip: !summary.data || view !== 'networks' });
  const [download, downloading] = useDownloadPricesMutation();
  const names = useMemo(() => countryNames(intl.locale), [intl.locale]);

  const write = (next: ListQuery, reseller = resellerId, shown = view) => {
    const out = writeListQuery(next, schema);
    if (reseller !== undefined) out.set(RESELLER_PARAM, String(reseller));
    if (shown !== 'networks') out.set(VIEW_PARAM, shown);
    setParams(out);
  };
  const go = (next: Partial<ListQuery>) => write({ ...query, ...next });

  const columns = useMemo<ColDef<NetworkPrice>[]>(() => {
    const header = (f: string) => intl.formatMessage({ id: `entity.networkPrice.field.${f}` });
    const rate = (p: ValueFormatterParams<NetworkPrice>) =>
      p.value === null || p.value === undefined ? intl.formatMessage({ id: 'format.none' }) : formatRate(intl.locale, Number(p.value), p.data?.currency);
    return [
      {
        colId: 'country',
        field: 'country',
        width: 170,
        headerName: header('country'),
        valueFormatter: (p) => `${p.value} · ${names[String(p.value)] ?? p.value}`,
      },
      { colId: 'network', field: 'network', flex: 1, minWidth: 170, headerName: header('network') },
      { colId: 'plmn', field: 'plmn', width: 100, headerName: header('plmn') },
      {
        colId: 'source',
        field: 'source',
        width: 120,
        headerName: header('source'),
        valueFormatter: (p) => intl.formatMessage({ id: `resellerPricing.source.${String(p.value)}` }),
      },
      ...RATE_FIELDS.map((f): ColDef<NetworkPrice> => ({ colId: f, field: f, width: 125, type: 'rightAligned', headerName: header(f), valueFormatter: rate })),
    ];
  }, [intl, names]);

  const onDownload = async () => {
    const { page: _page, ...search } = toListRequest(query, schema);
    try {
      await download({ ...search, resellerId }).unwrap();
    } catch {
      showToast({ intent: Intent.DANGER, message: intl.formatMessage({ id: 'list.downloadError' }) });
    }
  };

  const status = httpStatus(summary.error);
  if (status === 403) {
    return (
      <div data-testid="no-privilege">
        <NonIdealState icon={<LockIcon size={48} />} description={<FormattedMessage id="app.noPrivilege" />} />
      </div>
    );
  }
  if (summary.isError) {
    return (
      <Callout intent={Intent.DANGER} role="alert" data-testid="pricing-error">
        <FormattedMessage id={status === 404 ? 'resellerPricing.notFound' : 'list.loadError'} />
      </Callout>
    );
  }
  if (!summary.data) return <Loading />;
  const data = summary.data;
  const page = prices.data;
  // The margin preview is for the caller's own sub-resellers, with the caller's own plans: never an account user's
  // (the server refuses it the preview and the assignment).
  const showMargins = caller?.accountId === null && data.subResellers.length > 0 && data.assignablePlans.length > 0;
  const networksPanel = (
    <div data-testid="prices-networks">
      <div className="portal-my-pricing-toolbar">
        <SearchBar
          schema={schema}
          filters={searchFilters(schema, isAdmin)}
          searchKey={query.searchKey}
          searchBy={query.searchBy}
          onSearch={(searchKey, searchBy) => go({ searchKey, searchBy, page: 1 })}
        />
        <Button icon={<DownloadIcon />} data-testid="list-download" loading={downloading.isLoading} onClick={onDownload}>
          <FormattedMessage id="list.download" />
        </Button>
      </div>
      {prices.isError ? (
        <Callout intent={Intent.DANGER} role="alert" data-testid="list-error">
          <FormattedMessage id="list.loadError" />
        </Callout>
      ) : !page ? (
        <Loading />
      ) : (
        <>
          <PricesGrid
            rows={page.items}
            columns={columns}
            rowId={(r) => r.plmn}
            testId="grid-networkPrice"
            sort={{
              sortBy: query.sortBy,
              sortDir: query.sortDir,
              defaultSort: schema['x-list'].defaultSort,
              onSortChange: (sortBy, sortDir) => go({ sortBy, sortDir, page: 1 }),
            }}
          />
          {page.items.length === 0 && <NonIdealState icon={<SearchIcon size={48} />} description={<FormattedMessage id="resellerPricing.networks.empty" />} />}
          <Pager page={page.currentPage + 1} pages={Math.max(1, page.totalPageCount)} total={page.totalItemsCount} onPage={(next) => go({ page: next })} />
        </>
      )}
    </div>
  );

  return (
    <div className="portal-page portal-my-pricing" data-testid="my-pricing">
      <header className="portal-page-header">
        <H2>
          <FormattedMessage id="resellerPricing.title" />
        </H2>
      </header>
      <p className="portal-page-intro">
        <FormattedMessage id="resellerPricing.intro" />
      </p>
      {data.resellers.length > 1 && (
        <FormGroup label={intl.formatMessage({ id: 'resellerPricing.viewReseller' })} labelFor={selectId} inline>
          <HTMLSelect
            id={selectId}
            data-testid="pricing-reseller"
            value={data.reseller.id}
            onChange={(e) => write({ ...query, page: 1 }, Number(e.currentTarget.value))}
            options={data.resellers.map((r) => ({ value: r.id, label: r.name }))}
          />
        </FormGroup>
      )}
      <PlanSummary summary={data} />

      <Tabs
        id="my-pricing-views"
        className="portal-my-pricing-section"
        selectedTabId={view}
        onChange={(next) => write(query, resellerId, next as View)}
        animate={false}
        renderActiveTabPanelOnly
      >
        {VIEWS.map((v) => {
          const panel =
            v === 'networks' ? networksPanel : v === 'countries' ? <CountryTable resellerId={resellerId} /> : <ZoneTable kind={v} resellerId={resellerId} />;
          return <Tab key={v} id={v} title={intl.formatMessage({ id: VIEW_TITLES[v] })} data-testid={`pricing-tab-${v}`} panel={panel} />;
        })}
      </Tabs>

      {showMargins && <MarginPreviewPanel summary={data} />}
    </div>
  );
}
