/**
 * `/orders`: the create SIM order wizard and the order table (tabs). The table is paged, sorted and searched on the
 * server, filtered by status, and exported whole as CSV; a row opens the order's detail.
 */
import { Button, Callout, H2, HTMLSelect, Intent, NonIdealState, Tab, Tabs } from '@blueprintjs/core';
import { DownloadIcon, RefreshIcon, SearchIcon } from '@blueprintjs/icons';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { ORDER_STATUSES } from '@shared/orders';
import { searchFilters } from '@shared/schema';
import { useIsAdmin } from '@web/core/useIsAdmin';
import { EntityGrid, type GridSort } from '@web/engine/EntityGrid';
import { readListQuery, toListRequest, writeListQuery, type ListQuery } from '@web/engine/listQuery';
import { usePageTitle } from '@web/engine/pageTitle';
import { SearchBar } from '@web/engine/SearchBar';
import { Loading } from '@web/ui/Loading';
import { Pager } from '@web/ui/Pager';
import { showToast } from '@web/ui/toaster';
import OrderWizard from './OrderWizard';
import { orderSchema } from './orderSchema';
import { useExportOrdersMutation, usePostSimOrdersQuery } from './ordersApi';
import './orders.css';

function OrderTable() {
  const intl = useIntl();
  const navigate = useNavigate();
  const isAdmin = useIsAdmin();
  const [params, setParams] = useSearchParams();
  const query = readListQuery(params, orderSchema, isAdmin);
  const status = params.get('status') ?? '';
  const request = { ...toListRequest(query, orderSchema), status: status || undefined };
  const result = usePostSimOrdersQuery(request as Parameters<typeof usePostSimOrdersQuery>[0]);
  const [exportOrders, exporting] = useExportOrdersMutation();
  const write = (next: ListQuery, nextStatus = status) => {
    const out = writeListQuery(next, orderSchema);
    out.set('tab', 'list');
    if (nextStatus) out.set('status', nextStatus);
    setParams(out);
  };
  const go = (next: Partial<ListQuery>) => write({ ...query, ...next });
  const onExport = async () => {
    const { page: _page, ...search } = request;
    try {
      await exportOrders(search).unwrap();
    } catch {
      showToast({ intent: Intent.DANGER, message: intl.formatMessage({ id: 'list.downloadError' }) });
    }
  };
  const page = result.data;
  return (
    <div className="portal-list" data-testid="orders-table">
      <div className="portal-order-row">
        <SearchBar
          schema={orderSchema}
          filters={searchFilters(orderSchema, isAdmin)}
          searchKey={query.searchKey}
          searchBy={query.searchBy}
          onSearch={(searchKey, searchBy) => go({ searchKey, searchBy, page: 1 })}
        />
        <HTMLSelect
          aria-label={intl.formatMessage({ id: 'orders.field.orderStatus' })}
          value={status}
          onChange={(e) => write({ ...query, page: 1 }, e.currentTarget.value)}
          data-testid="orders-status-filter"
        >
          <option value="">{intl.formatMessage({ id: 'orders.status.all' })}</option>
          {ORDER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {intl.formatMessage({ id: `orders.status.${s}` })}
            </option>
          ))}
        </HTMLSelect>
        <Button
          variant="minimal"
          icon={<RefreshIcon />}
          aria-label={intl.formatMessage({ id: 'list.refresh' })}
          loading={result.isFetching}
          onClick={() => result.refetch()}
        />
        <Button icon={<DownloadIcon />} loading={exporting.isLoading} onClick={onExport} data-testid="orders-export">
          <FormattedMessage id="list.download" />
        </Button>
      </div>
      {result.isError ? (
        <Callout intent={Intent.DANGER} role="alert">
          <FormattedMessage id="orders.loadError" />
        </Callout>
      ) : !page ? (
        <Loading />
      ) : (
        <>
          <EntityGrid
            schema={orderSchema}
            rows={page.items.map((row) => ({ ...row, orderStatus: intl.formatMessage({ id: `orders.status.${row.orderStatus}` }), status: row.orderStatus }))}
            sort={{ sortBy: query.sortBy, sortDir: query.sortDir }}
            onSortChange={(sort: GridSort) => go({ ...sort, page: 1 })}
            onOpenRow={(row) => navigate(`/orders/${String(row.uuid)}`)}
          />
          {page.items.length === 0 && <NonIdealState icon={<SearchIcon size={48} />} description={<FormattedMessage id="list.empty" />} />}
          <Pager page={page.currentPage + 1} pages={Math.max(1, page.totalPageCount)} total={page.totalItemsCount} onPage={(next) => go({ page: next })} />
        </>
      )}
    </div>
  );
}

export default function OrdersPage() {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'orders.title' }));
  const isAdmin = useIsAdmin();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'list' ? 'list' : 'new';
  return (
    <div className="portal-page portal-orders" data-testid="orders-page">
      <header className="portal-page-header">
        <H2>
          <FormattedMessage id="orders.title" />
        </H2>
        <div className="portal-page-actions">
          <Link to="/orders/profiles" data-testid="orders-profiles-link">
            <FormattedMessage id="orders.profiles.title" />
          </Link>
          {isAdmin && (
            <Link to="/orders/ranges" data-testid="orders-ranges-link">
              <FormattedMessage id="orders.ranges.title" />
            </Link>
          )}
        </div>
      </header>
      <Tabs
        id="orders-tabs"
        animate={false}
        renderActiveTabPanelOnly
        selectedTabId={tab}
        onChange={(id) => setParams(new URLSearchParams({ tab: String(id) }))}
      >
        <Tab id="new" title={intl.formatMessage({ id: 'orders.tab.new' })} panel={<OrderWizard />} data-testid="orders-tab-new" />
        <Tab id="list" title={intl.formatMessage({ id: 'orders.tab.list' })} panel={<OrderTable />} data-testid="orders-tab-list" />
      </Tabs>
    </div>
  );
}
