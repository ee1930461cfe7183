/**
 * The SIM cards of a batch (or of every batch): ICCID, SIM type, status and date, profile type, batch, cost and
 * service provider, paged, sorted and searched on the server and downloadable whole as CSV. The list's state is
 * in the address beside the tab and the batch, so a reload or a shared link shows the same page.
 */
import { Button, Callout, FormGroup, HTMLSelect, Intent, NonIdealState } from '@blueprintjs/core';
import { DownloadIcon, SearchIcon } from '@blueprintjs/icons';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSearchParams } from 'react-router-dom';
import { inventorySimSchema } from '@shared/inventory';
import { searchFilters } from '@shared/schema';
import { useDownloadInventorySimCardsMutation, useGetInventoryRangesQuery, useInventorySimCardsQuery } from '@web/core/inventoryApi';
import { useIsAdmin } from '@web/core/useIsAdmin';
import { EntityGrid, type GridSort } from '@web/engine/EntityGrid';
import { readListQuery, toListRequest, writeListQuery, type ListQuery } from '@web/engine/listQuery';
import { SearchBar } from '@web/engine/SearchBar';
import { Loading } from '@web/ui/Loading';
import { Pager } from '@web/ui/Pager';
import { showToast } from '@web/ui/toaster';

const schema = inventorySimSchema;
export const BATCH_PARAM = 'batch';

export function SimCardsTab() {
  const intl = useIntl();
  const isAdmin = useIsAdmin();
  const [params, setParams] = useSearchParams();
  const query = readListQuery(params, schema, isAdmin);
  const rawBatch = Number(params.get(BATCH_PARAM));
  const batchId = Number.isInteger(rawBatch) && rawBatch > 0 ? rawBatch : undefined;
  const ranges = useGetInventoryRangesQuery(undefined);
  const result = useInventorySimCardsQuery({ ...toListRequest(query, schema), batchId });
  const [download, downloading] = useDownloadInventorySimCardsMutation();

  const write = (next: ListQuery, batch = batchId) => {
    const out = writeListQuery(next, schema);
    out.set('tab', 'batches');
    if (batch) out.set(BATCH_PARAM, String(batch));
    setParams(out);
  };
  const go = (next: Partial<ListQuery>) => write({ ...query, ...next });
  const onDownload = async () => {
    const { page: _page, ...search } = toListRequest(query, schema);
    try {
      await download({ ...search, batchId }).unwrap();
    } catch {
      showToast({ intent: Intent.DANGER, message: intl.formatMessage({ id: 'list.downloadError' }) });
    }
  };
  const page = result.data;
  return (
    <div className="portal-list" data-testid="inventory-sims">
      <div className="portal-inventory-toolbar">
        <FormGroup label={intl.formatMessage({ id: 'inventory.batch.choose' })} labelFor="inventory-batch" inline>
          <HTMLSelect
            id="inventory-batch"
            value={batchId ?? ''}
            onChange={(e) => write({ ...query, page: 1 }, Number(e.currentTarget.value) || undefined)}
            data-testid="inventory-batch"
          >
            <option value="">{intl.formatMessage({ id: 'inventory.batch.all' })}</option>
            {(ranges.data?.ranges ?? []).map((r) => (
              <option key={r.batchId} value={r.batchId}>
                {isAdmin ? `${r.name} (${r.resellerName})` : r.name}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <Button icon={<DownloadIcon />} data-testid="list-download" loading={downloading.isLoading} onClick={onDownload}>
          <FormattedMessage id="list.download" />
        </Button>
      </div>
      <SearchBar
        schema={schema}
        filters={searchFilters(schema, isAdmin)}
        searchKey={query.searchKey}
        searchBy={query.searchBy}
        onSearch={(searchKey, searchBy) => go({ searchKey, searchBy, page: 1 })}
      />
      {result.isError ? (
        <Callout intent={Intent.DANGER} role="alert" data-testid="list-error">
          <FormattedMessage id="list.loadError" />
        </Callout>
      ) : !page ? (
        <Loading />
      ) : (
        <>
          <EntityGrid
            schema={schema}
            rows={page.items}
            sort={{ sortBy: query.sortBy, sortDir: query.sortDir }}
            onSortChange={(sort: GridSort) => go({ ...sort, page: 1 })}
            onOpenRow={() => undefined}
          />
          {page.items.length === 0 && <NonIdealState icon={<SearchIcon size={48} />} description={<FormattedMessage id="list.empty" />} />}
          <Pager page={page.currentPage + 1} pages={Math.max(1, page.totalPageCount)} total={page.totalItemsCount} onPage={(next) => go({ page: next })} />
        </>
      )}
    </div>
  );
}
