/**
 * The list screen of any entity with routes: title, search, grid and pager. Its state is the address's query,
 * so reloading or bookmarking a list returns to the same search and page.
 */
import { AddIcon, LockIcon, RefreshIcon, SearchIcon } from '@blueprintjs/icons';
import { Button, Callout, H2, Intent, NonIdealState } from '@blueprintjs/core';
import { useCallback } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { searchFilters, type EntitySchema } from '@shared/schema';
import { Loading } from '@web/app/Loading';
import { httpStatus } from './apiErrors';
import { EntityGrid, type GridSort } from './EntityGrid';
import { entityEndpoints } from './endpoints';
import { readListQuery, toListRequest, writeListQuery, type ListQuery } from './listQuery';
import { Pager } from './Pager';
import { detailPath, NEW_ID } from './schemas';
import { SearchBar } from './SearchBar';
import type { EntityRow } from './types';
import { useIsAdmin } from './useIsAdmin';

/** Reads a page through `search` when there is a search key and the schema has that call, else `paged`. */
function usePage(schema: EntitySchema, query: ListQuery) {
  const { paged, search } = entityEndpoints(schema);
  const request = toListRequest(query, schema);
  const searching = Boolean(query.searchKey && search);
  // Which endpoints exist depends only on the schema, fixed for the page's life (routes key it by entity),
  // so these hooks run in the same order on every render.
  const viaPaged = paged?.useQuery(request, { skip: searching });
  const viaSearch = search?.useQuery(request, { skip: !searching });
  return searching ? viaSearch : viaPaged;
}

export default function EntityListPage({ schema }: { schema: EntitySchema }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const isAdmin = useIsAdmin();
  const [params, setParams] = useSearchParams();
  const query = readListQuery(params, schema, isAdmin);
  const result = usePage(schema, query);
  const canCreate = Boolean(schema['x-api'].create);

  const go = useCallback(
    (next: Partial<ListQuery>) => setParams(writeListQuery({ ...query, ...next }, schema)),
    [query, schema, setParams],
  );
  const onSearch = (searchKey: string, searchBy: string) => go({ searchKey, searchBy, page: 1 });
  const onSortChange = (sort: GridSort) => go({ ...sort, page: 1 });
  const onOpenRow = (row: EntityRow) => {
    const path = detailPath(schema, String(row[schema['x-entity'].key]));
    if (path) navigate(path);
  };

  const page = result?.data;
  const status = httpStatus(result?.error);

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
        filters={searchFilters(schema, isAdmin)}
        searchKey={query.searchKey}
        searchBy={query.searchBy}
        onSearch={onSearch}
      />
      {status === 403 ? (
        <NonIdealState icon={<LockIcon size={48} />} description={<FormattedMessage id="app.noPrivilege" />} />
      ) : result?.isError ? (
        <Callout intent={Intent.DANGER} role="alert" data-testid="list-error">
          <FormattedMessage id="list.loadError" />{' '}
          <Button variant="minimal" onClick={() => result.refetch()}>
            <FormattedMessage id="list.refresh" />
          </Button>
        </Callout>
      ) : !page ? (
        <Loading />
      ) : (
        <>
          <EntityGrid
            schema={schema}
            rows={page.items}
            sort={{ sortBy: query.sortBy, sortDir: query.sortDir }}
            onSortChange={onSortChange}
            onOpenRow={onOpenRow}
          />
          {page.items.length === 0 && (
            <NonIdealState icon={<SearchIcon size={48} />} description={<FormattedMessage id="list.empty" />} />
          )}
          <Pager
            page={page.currentPage + 1}
            pages={Math.max(1, page.totalPageCount)}
            total={page.totalItemsCount}
            onPage={(next) => go({ page: next })}
          />
        </>
      )}
    </div>
  );
}
