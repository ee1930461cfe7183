/**
 * `/my-pricing`: the prices a reseller pays, derived from the pricing plan its parent assigned to it. The plan
 * summary, the prices per network (paged, sorted and searched on the server; the address keeps the list's state
 * and the reseller viewed), the prices per zone, the CSV download, and for a parent reseller a margin preview of
 * a plan proposed for a sub-reseller.
 */
import { Button, Callout, Card, FormGroup, H2, H3, HTMLSelect, HTMLTable, Intent, NonIdealState } from '@blueprintjs/core';
import { DownloadIcon, LockIcon, SearchIcon } from '@blueprintjs/icons';
import type { ColDef, ValueFormatterParams } from 'ag-grid-community';
import { useId, useMemo } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSearchParams } from 'react-router-dom';
import { countryNames } from '@shared/countries';
import { formatRate } from '@shared/pricing';
import { networkPriceSchema, RATE_FIELDS, type NetworkPrice, type ResellerPricingSummary, type ZonePrice } from '@shared/resellerPricing';
import { searchFilters } from '@shared/schema';
import { Loading } from '@web/app/Loading';
import { httpStatus } from '@web/engine/apiErrors';
import { readListQuery, toListRequest, writeListQuery, type ListQuery } from '@web/engine/listQuery';
import { Pager } from '@web/engine/Pager';
import { SearchBar } from '@web/engine/SearchBar';
import { showToast } from '@web/engine/toaster';
import { useIsAdmin } from '@web/engine/useIsAdmin';
import { MarginPreviewPanel } from './MarginPreviewPanel';
import { PricesGrid } from './PricesGrid';
import { useDownloadPricesMutation, useNetworkPricesQuery, useResellerPricingQuery, useZonePricesQuery } from './resellerPricingApi';
import './myPricing.css';

const RESELLER_PARAM = 'reseller';
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
            <dt><FormattedMessage id={id} /></dt>
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

function ZoneTable({ kind, resellerId }: { kind: 'location-zones' | 'destination-zones'; resellerId?: number }) {
  const intl = useIntl();
  const { data, isError } = useZonePricesQuery({ kind, resellerId });
  const rate = (z: ZonePrice, f: (typeof RATE_FIELDS)[number]) => (z[f] === null ? intl.formatMessage({ id: 'format.none' }) : formatRate(intl.locale, z[f]!, z.currency));
  const title = kind === 'location-zones' ? 'resellerPricing.zones.location' : 'resellerPricing.zones.destination';
  return (
    <div className="portal-my-pricing-zone" data-testid={`zones-${kind}`}>
      <h4><FormattedMessage id={title} /></h4>
      {isError ? (
        <Callout intent={Intent.DANGER} role="alert"><FormattedMessage id="list.loadError" /></Callout>
      ) : !data ? (
        <Loading small />
      ) : data.items.length === 0 ? (
        <p className="portal-my-pricing-note"><FormattedMessage id="resellerPricing.zones.none" /></p>
      ) : (
        <div className="portal-my-pricing-scroll">
          <HTMLTable compact striped className="portal-my-pricing-table">
            <thead>
              <tr>
                <th><FormattedMessage id="resellerPricing.zones.zone" /></th>
                <th><FormattedMessage id="resellerPricing.zones.countries" /></th>
                {RATE_FIELDS.map((f) => <th key={f}><FormattedMessage id={`entity.networkPrice.field.${f}`} /></th>)}
              </tr>
            </thead>
            <tbody>
              {data.items.map((z) => (
                <tr key={`${z.zoneId}-${z.currency}`} data-testid="zone-row">
                  <td>{z.zoneName}</td>
                  <td>{intl.formatMessage({ id: 'resellerPricing.zones.countryCount' }, { count: z.countries.length, networks: z.networkCount })}</td>
                  {RATE_FIELDS.map((f) => <td key={f} className="portal-my-pricing-amount">{rate(z, f)}</td>)}
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
    </div>
  );
}

export default function MyPricingPage() {
  const intl = useIntl();
  const isAdmin = useIsAdmin();
  const selectId = useId();
  const [params, setParams] = useSearchParams();
  const raw = Number(params.get(RESELLER_PARAM));
  const resellerId = params.has(RESELLER_PARAM) && Number.isInteger(raw) ? raw : undefined;
  const query = readListQuery(params, schema, isAdmin);
  const summary = useResellerPricingQuery(resellerId);
  const prices = useNetworkPricesQuery({ ...toListRequest(query, schema), resellerId }, { skip: !summary.data });
  const [download, downloading] = useDownloadPricesMutation();
  const names = useMemo(() => countryNames(intl.locale), [intl.locale]);

  const write = (next: ListQuery, reseller = resellerId) => {
    const out = writeListQuery(next, schema);
    if (reseller !== undefined) out.set(RESELLER_PARAM, String(reseller));
    setParams(out);
  };
  const go = (next: Partial<ListQuery>) => write({ ...query, ...next });

  const columns = useMemo<ColDef<NetworkPrice>[]>(() => {
    const header = (f: string) => intl.formatMessage({ id: `entity.networkPrice.field.${f}` });
    const rate = (p: ValueFormatterParams<NetworkPrice>) => (p.value === null || p.value === undefined ? intl.formatMessage({ id: 'format.none' }) : formatRate(intl.locale, Number(p.value), p.data?.currency));
    return [
      { colId: 'country', field: 'country', width: 170, headerName: header('country'), valueFormatter: (p) => `${p.value} · ${names[String(p.value)] ?? p.value}` },
      { colId: 'network', field: 'network', flex: 1, minWidth: 170, headerName: header('network') },
      { colId: 'plmn', field: 'plmn', width: 100, headerName: header('plmn') },
      { colId: 'source', field: 'source', width: 120, headerName: header('source'), valueFormatter: (p) => intl.formatMessage({ id: `resellerPricing.source.${String(p.value)}` }) },
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
  // The margin preview is for the caller's own sub-resellers, with the caller's own plans.
  const showMargins = data.subResellers.length > 0 && data.assignablePlans.length > 0;

  return (
    <div className="portal-page portal-my-pricing" data-testid="my-pricing">
      <header className="portal-page-header">
        <H2><FormattedMessage id="resellerPricing.title" /></H2>
        <div className="portal-page-actions">
          <Button icon={<DownloadIcon />} data-testid="list-download" loading={downloading.isLoading} onClick={onDownload}>
            <FormattedMessage id="list.download" />
          </Button>
        </div>
      </header>
      <p className="portal-page-intro"><FormattedMessage id="resellerPricing.intro" /></p>
      {data.resellers.length > 1 && (
        <FormGroup label={intl.formatMessage({ id: 'resellerPricing.viewReseller' })} labelFor={selectId} inline>
          <HTMLSelect id={selectId} data-testid="pricing-reseller" value={data.reseller.id}
            onChange={(e) => write({ ...query, page: 1 }, Number(e.currentTarget.value))}
            options={data.resellers.map((r) => ({ value: r.id, label: r.name }))} />
        </FormGroup>
      )}
      <PlanSummary summary={data} />

      <section className="portal-my-pricing-section">
        <H3><FormattedMessage id="resellerPricing.networks.title" /></H3>
        <SearchBar schema={schema} filters={searchFilters(schema, isAdmin)} searchKey={query.searchKey} searchBy={query.searchBy} onSearch={(searchKey, searchBy) => go({ searchKey, searchBy, page: 1 })} />
        {prices.isError ? (
          <Callout intent={Intent.DANGER} role="alert" data-testid="list-error"><FormattedMessage id="list.loadError" /></Callout>
        ) : !page ? (
          <Loading />
        ) : (
          <>
            <PricesGrid
              rows={page.items}
              columns={columns}
              rowId={(r) => r.plmn}
              testId="grid-networkPrice"
              sort={{ sortBy: query.sortBy, sortDir: query.sortDir, defaultSort: schema['x-list'].defaultSort, onSortChange: (sortBy, sortDir) => go({ sortBy, sortDir, page: 1 }) }}
            />
            {page.items.length === 0 && <NonIdealState icon={<SearchIcon size={48} />} description={<FormattedMessage id="resellerPricing.networks.empty" />} />}
            <Pager page={page.currentPage + 1} pages={Math.max(1, page.totalPageCount)} total={page.totalItemsCount} onPage={(next) => go({ page: next })} />
          </>
        )}
      </section>

      <section className="portal-my-pricing-section">
        <H3><FormattedMessage id="resellerPricing.zones.title" /></H3>
        <p className="portal-page-intro"><FormattedMessage id="resellerPricing.zones.intro" /></p>
        <div className="portal-my-pricing-zones">
          <ZoneTable kind="location-zones" resellerId={resellerId} />
          <ZoneTable kind="destination-zones" resellerId={resellerId} />
        </div>
      </section>

      {showMargins && <MarginPreviewPanel summary={data} />}
    </div>
  );
}
