/**
 * The list screen of any entity with routes: title, search, grid and pager. Its state is the address's query,
 * so reloading or bookmarking a list returns to the same search and page.
 */
import { AddIcon, LockIcon, RefreshIcon, SearchIcon } from '@blueprintjs/icons';
import { Button, Callout, H2, Intent, NonIdealState } from '@blueprintjs/core';
import type { DownloadFormat } from '@shared/spreadsheet';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { customSearchFilter } from '@shared/customFields';
import { mayCreateRows, searchFilters, type EntitySchema } from '@shared/schema';
import { Loading } from '@web/ui/Loading';
import { showToast } from '@web/ui/toaster';
import { httpStatus } from '@web/core/apiErrors';
import { EntityGrid, type GridSort } from './EntityGrid';
import { entityEndpoints } from '@web/core/endpoints';
import { pageSize, toListRequest, writeListQuery, type ListQuery } from './listQuery';
import { openingQuery, pageEndpoint } from './listPage';
import { Pager } from '@web/ui/Pager';
import { ColumnChooser } from './ColumnChooser';
import { DownloadMenu } from './DownloadMenu';
import type { SavedColumn } from './gridPreferences';
import { useGridLayout } from './useGridLayout';
import { usePageTitle } from './pageTitle';
import { detailPath, NEW_ID } from '@web/core/schemas';
import { SearchBar } from './SearchBar';
import type { EntityRow } from '@web/core/types';
import { useCaller } from '@web/core/useCaller';
import { useIsAdmin } from '@web/core/useIsAdmin';
import { hasMessage } from '@web/core/messages';
import { useCustomFields } from './customFields';

/** Reads a page through `search` when there is a search key and the schema has that call, else `paged`. */
function usePage(schema: EntitySchema, query: ListQuery, pollingInterval = 0, after?: number | string) {
  const { paged, search } = entityEndpoints(schema);
  const request = toListRequest(query, schema, after);
  const searching = pageEndpoint(schema, query) === search && search !== undefined;
  // Which endpoints exist depends only on the schema, fixed for the page's life (routes key it by entity),
  // so these hooks run in the same order on every render.
  const viaPaged = paged?.useQuery(request, { skip: searching, pollingInterval });
  const viaSearch = search?.useQuery(request, { skip: !searching, pollingInterval });
  return searching ? viaSearch : viaPaged;
}

/**
 * How a list's state sits in the address when a screen hosts it beside others (the profiles screen's tabs): `read`
 * turns the address into the list's own `searchKey`/`searchBy`/`page`/`sort` parameters, `write` back.
 */
export interface ListAddress {
  read: (address: URLSearchParams) => URLSearchParams;
  write: (list: URLSearchParams) => URLSearchParams;
}

/** What a list's selection names: rows chosen one by one (their keys), or every row of the current search. */
export type SelectionTarget = { ids: string[] } | { search: { searchBy: string; searchKey: string } };

export interface ListSelection {
  target: SelectionTarget;
  /** How many rows it names (for the whole search, the list's total). */
  count: number;
  clear: () => void;
}

/**
 * Actions on many rows at once, for lists that offer them: the grid gets checkboxes and a banner that can widen
 * the selection to the whole search. Other lists have none of it.
 */
export interface ListBulk {
  /** The actions on the selection, shown while rows are selected. */
  toolbar: (selection: ListSelection) => ReactNode;
  /** More buttons in the list's header. */
  actions?: ReactNode;
  /** Shown above the grid, e.g. the progress of work started from the list. */
  status?: ReactNode;
  /** Ask for the page again this often (ms) while the list's rows are changing; 0 or absent: not. */
  refreshEvery?: number;
}

/** The entity's own wording of a message when the catalogue has one (`<id>.<entity>`), else the generic one. */
function entityMessage(intl: IntlShape, id: string, entity: string, values: Record<string, number>) {
  return intl.formatMessage({ id: hasMessage(intl, `${id}.${entity}`) ? `${id}.${entity}` : id }, values);
}

const NO_KEYS: ReadonlySet<string> = new Set();

interface SelectionState {
  /** The search the selection was made in: a new search starts a new selection. */
  search: string;
  keys: ReadonlySet<string>;
  whole: boolean;
}

/** The selection of a list with bulk actions: kept across pages, dropped when the search changes. */
function useListSelection(searchBy: string, searchKey: string, total: number, pageKeys: string[]) {
  const search = JSON.stringify([searchBy, searchKey]);
  const empty: SelectionState = { search, keys: NO_KEYS, whole: false };
  const [raw, setState] = useState<SelectionState>(empty);
  const state = raw.search === search ? raw : empty;
  const pageKeySet = useMemo(() => new Set(pageKeys), [pageKeys]);
  // The whole search shows as every row of the page ticked.
  const shown = state.whole ? pageKeySet : state.keys;
  const onChange = useCallback(
    (ticked: string[]) => {
      setState((current) => {
        const kept = current.search === search && !current.whole ? [...current.keys].filter((k) => !pageKeySet.has(k)) : [];
        return { search, keys: new Set([...kept, ...ticked]), whole: false };
      });
    },
    [search, pageKeySet],
  );
  const clear = useCallback(() => setState({ search, keys: NO_KEYS, whole: false }), [search]);
  const selectWhole = () => setState({ search, keys: NO_KEYS, whole: true });
  const selection: ListSelection | undefined = state.whole
    ? { target: { search: { searchBy, searchKey } }, count: total, clear }
    : state.keys.size
      ? { target: { ids: [...state.keys] }, count: state.keys.size, clear }
      : undefined;
  return { grid: { selected: shown, onChange }, selection, whole: state.whole, selectWhole };
}

export default function EntityListPage({ schema, address, bulk }: { schema: EntitySchema; address?: ListAddress; bulk?: ListBulk }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const isAdmin = useIsAdmin();
  const [rawParams, setRawParams] = useSearchParams();
  const params = address ? address.read(rawParams) : rawParams;
  const setParams = useCallback((next: URLSearchParams) => setRawParams(address ? address.write(next) : next), [address, setRawParams]);
  const [layout, setLayout] = useGridLayout(schema['x-entity'].name);
  const custom = useCustomFields(schema);
  // Without a sort in the address, the list opens in the user's saved sort.
  const query = openingQuery(schema, params, isAdmin, layout, custom.ready ? custom.fields : undefined);
  // The pager's next page starts after the last row on screen (keyset), when the list is still the one it came from:
  // deep in a million rows, turning a page then costs what the first page costs. Other moves go by page number.
  const [step, setStep] = useState<{ list: string; page: number; after: number | string }>();
  const listKey = JSON.stringify([query.searchKey, query.searchBy, query.sortBy, query.sortDir]);
  const after = step && step.list === listKey && step.page === query.page ? step.after : undefined;
  const result = usePage(schema, query, bulk?.refreshEvery, after);
  const caller = useCaller();
  // An account user creates no accounts: the button is there only for those the server lets create.
  const canCreate = Boolean(schema['x-api'].create) && (!caller || mayCreateRows(schema, caller));
  const { download } = entityEndpoints(schema);
  const [startDownload, downloading] = download?.useMutation() ?? [undefined, undefined];
  const onDownload = async (format: DownloadFormat) => {
    const { page: _page, ...search } = toListRequest(query, schema);
    try {
      await startDownload?.({ search, format }).unwrap();
    } catch {
      showToast({ intent: Intent.DANGER, message: intl.formatMessage({ id: 'list.downloadError' }) });
    }
  };

  const go = (next: Partial<ListQuery>) => setParams(writeListQuery({ ...query, ...next }, schema));
  const onSearch = (searchKey: string, searchBy: string) => go({ searchKey, searchBy, page: 1 });
  // A chosen sort stays in the address even when it is the default, so it overrides a saved one.
  const onSortChange = (sort: GridSort) => {
    const next = writeListQuery({ ...query, ...sort, page: 1 }, schema);
    next.set('sortBy', sort.sortBy);
    next.set('sortDir', sort.sortDir);
    setParams(next);
  };
  // The sort the user chose is remembered with the columns (saved after the address has changed).
  const chosenSort = params.has('sortBy') ? `${query.sortBy} ${query.sortDir}` : undefined;
  const savedSort = layout?.sort ? `${layout.sort.sortBy} ${layout.sort.sortDir}` : undefined;
  useEffect(() => {
    if (chosenSort && chosenSort !== savedSort) setLayout({ columns: layout?.columns ?? [], sort: { sortBy: query.sortBy, sortDir: query.sortDir } });
  }, [chosenSort, savedSort, layout?.columns, query.sortBy, query.sortDir, setLayout]);
  const onColumnsChange = (columns: SavedColumn[]) => setLayout({ ...layout, columns });
  const onOpenRow = (row: EntityRow) => {
    const path = detailPath(schema, String(row[schema['x-entity'].key]));
    if (path) navigate(path);
  };

  const page = result?.data;
  const status = httpStatus(result?.error);
  const entity = schema['x-entity'].name;
  const pageKeys = useMemo(() => (page?.items ?? []).map((row) => String(row[schema['x-entity'].key])), [page?.items, schema]);
  const total = page?.totalItemsCount ?? 0;
  const { grid: gridSelection, selection, whole, selectWhole } = useListSelection(query.searchBy, query.searchKey, total, pageKeys);
  usePageTitle(intl.formatMessage({ id: schema.title }));

  return (
    <div className="portal-page portal-list" data-testid={`list-${schema['x-entity'].name}`}>
      <header className="portal-page-header">
        <H2>
          <FormattedMessage id={schema.title} />
        </H2>
        <div className="portal-page-actions">
          <Button
            variant="minimal"
            icon={<RefreshIcon />}
            aria-label={intl.formatMessage({ id: 'list.refresh' })}
            loading={result?.isFetching}
            onClick={() => result?.refetch()}
          />
          {bulk?.actions}
          {/* Once the custom fields are known: a choice made before would save a layout without their columns. */}
          {custom.ready && (
            <ColumnChooser schema={schema} columns={layout?.columns} onChange={onColumnsChange} onReset={() => setLayout(undefined)} custom={custom.fields} />
          )}
          {startDownload && <DownloadMenu loading={Boolean(downloading?.isLoading)} onDownload={onDownload} />}
          {canCreate && (
            <Button
              intent={Intent.PRIMARY}
              icon={<AddIcon />}
              data-testid="list-create"
              onClick={() => {
                const path = detailPath(schema, NEW_ID);
                if (path) navigate(path);
              }}
            >
              <FormattedMessage id="list.create" />
            </Button>
          )}
        </div>
      </header>
      <SearchBar
        schema={schema}
        filters={[...searchFilters(schema, isAdmin), ...custom.fields.map(customSearchFilter)]}
        searchKey={query.searchKey}
        searchBy={query.searchBy}
        onSearch={onSearch}
      />
      {bulk?.status}
      {bulk && selection && (
        <div className="portal-list-selection" data-testid="list-selection" role="status">
          <span data-testid="list-selection-count">
            {whole
              ? entityMessage(intl, 'list.selection.whole', entity, { total })
              : intl.formatMessage({ id: 'list.selection.count' }, { count: selection.count })}
          </span>
          {!whole && total > selection.count && (
            <Button variant="minimal" intent={Intent.PRIMARY} data-testid="list-select-whole" onClick={selectWhole}>
              {entityMessage(intl, 'list.selection.selectWhole', entity, { total })}
            </Button>
          )}
          <Button variant="minimal" data-testid="list-selection-clear" onClick={selection.clear}>
            <FormattedMessage id="list.selection.clear" />
          </Button>
          <div className="portal-list-selection-actions">{bulk.toolbar(selection)}</div>
        </div>
      )}
      {status === 403 ? (
        <NonIdealState icon={<LockIcon size={48} />} description={<FormattedMessage id="app.noPrivilege" />} />
      ) : result?.isError ? (
        <Callout intent={Intent.DANGER} role="alert" data-testid="list-error">
          <FormattedMessage id="list.loadError" />{' '}
          <Button variant="minimal" onClick={() => result.refetch()}>
            <FormattedMessage id="list.refresh" />
          </Button>
        </Callout>
      ) : !page || !custom.ready ? (
        <Loading />
      ) : (
        <>
          <EntityGrid
            schema={schema}
            rows={page.items}
            sort={{ sortBy: query.sortBy, sortDir: query.sortDir }}
            onSortChange={onSortChange}
            onOpenRow={onOpenRow}
            columns={layout?.columns}
            onColumnsChange={onColumnsChange}
            custom={custom.fields}
            selection={bulk ? gridSelection : undefined}
          />
          {page.items.length === 0 && <NonIdealState icon={<SearchIcon size={48} />} description={<FormattedMessage id="list.empty" />} />}
          <Pager
            page={page.currentPage + 1}
            pages={Math.max(1, page.totalPageCount)}
            total={page.totalItemsCount}
            estimate={page.totalIsEstimate}
            rows={page.items.length}
            size={pageSize(schema)}
            onPage={(next) => {
              // Only rows that answer the list as it stands now mark where its next page starts: the last search's or
              // order's, still on screen while the new answer is on its way, would skip or repeat rows.
              const last = result?.currentData ? (page.items[page.items.length - 1]?.[schema['x-entity'].key] as number | string | undefined) : undefined;
              setStep(next === query.page + 1 && last !== undefined ? { list: listKey, page: next, after: last } : undefined);
              go({ page: next });
            }}
          />
        </>
      )}
    </div>
  );
}
