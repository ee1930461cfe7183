/**
 * `/packages`: the sales history of prepaid packages, paged, sorted and searched on the server like every list
 * and downloadable whole as CSV, with the caller's balance, and a subscriber's packages panel to assign, sell
 * or expire a package by subscriber id (also opened by clicking a sale). Needs the Sales sub-privilege of
 * PrePaidPackages, as the server does.
 */
import { Button, Callout, ControlGroup, FormGroup, H2, InputGroup, Intent, NonIdealState, Tag } from '@blueprintjs/core';
import { CrossIcon, DownloadIcon, LockIcon, RefreshIcon, SearchIcon } from '@blueprintjs/icons';
import { useId, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSearchParams } from 'react-router-dom';
import { hasPrivilege } from '@shared/privileges';
import { packageSchema } from '@shared/prepaid';
import { searchFilters } from '@shared/schema';
import { useGetUserUiPrivilegesQuery } from '@web/core/authApi';
import { Loading } from '@web/ui/Loading';
import { EntityGrid, type GridSort } from '@web/engine/EntityGrid';
import { httpStatus } from '@web/core/apiErrors';
import { readListQuery, toListRequest, writeListQuery, type ListQuery } from '@web/engine/listQuery';
import { Pager } from '@web/ui/Pager';
import { usePageTitle } from '@web/engine/pageTitle';
import { SearchBar } from '@web/engine/SearchBar';
import { showToast } from '@web/ui/toaster';
import { useIsAdmin } from '@web/core/useIsAdmin';
import { useDownloadPackageSalesMutation, useGetLedgerBalanceQuery, usePackageSalesQuery } from '@web/core/packagesApi';
import { SubscriberPackagesPanel } from '@web/ui/packages/SubscriberPackagesPanel';
import './packages.css';

const SUBSCRIBER_PARAM = 'subscriber';

function Balance() {
  const intl = useIntl();
  const { data } = useGetLedgerBalanceQuery(undefined);
  if (!data) return null;
  return (
    <Tag large minimal intent={data.balance > 0 ? Intent.SUCCESS : Intent.WARNING} data-testid="reseller-balance">
      {intl.formatMessage({ id: 'packages.balance' }, { balance: intl.formatNumber(data.balance, { style: 'currency', currency: data.currency }) })}
    </Tag>
  );
}

function SubscriberChooser({ current, onChoose }: { current?: number; onChoose: (id: number | undefined) => void }) {
  const intl = useIntl();
  const inputId = useId();
  const [text, setText] = useState(current ? String(current) : '');
  const [invalid, setInvalid] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const ok = /^\d{1,9}$/.test(text.trim());
    setInvalid(!ok);
    if (ok) onChoose(Number(text.trim()));
  };
  return (
    <form className="portal-packages-chooser" onSubmit={submit}>
      <FormGroup
        label={intl.formatMessage({ id: 'packages.sales.subscriber' })}
        labelFor={inputId}
        intent={invalid ? Intent.DANGER : Intent.NONE}
        helperText={invalid ? intl.formatMessage({ id: 'packages.sales.subscriberInvalid' }) : undefined}
      >
        <ControlGroup>
          <InputGroup
            id={inputId}
            data-testid="sales-subscriber"
            inputMode="numeric"
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            intent={invalid ? Intent.DANGER : Intent.NONE}
          />
          <Button type="submit" icon={<SearchIcon />} data-testid="sales-subscriber-open" text={intl.formatMessage({ id: 'packages.sales.open' })} />
        </ControlGroup>
      </FormGroup>
    </form>
  );
}

export default function PackageSalesPage() {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'packages.sales.title' }));
  const isAdmin = useIsAdmin();
  const { data: granted } = useGetUserUiPrivilegesQuery();
  const [params, setParams] = useSearchParams();
  const schema = packageSchema;
  const query = readListQuery(params, schema, isAdmin);
  const mayView = isAdmin || hasPrivilege(granted ?? [], 'PrePaidPackages', 'Sales');
  const result = usePackageSalesQuery(toListRequest(query, schema), { skip: !granted || !mayView });
  const [download, downloading] = useDownloadPackageSalesMutation();
  const rawSubscriber = Number(params.get(SUBSCRIBER_PARAM));
  const subscriberId = Number.isInteger(rawSubscriber) && rawSubscriber > 0 ? rawSubscriber : undefined;

  const write = (next: ListQuery, subscriber = subscriberId) => {
    const out = writeListQuery(next, schema);
    if (subscriber) out.set(SUBSCRIBER_PARAM, String(subscriber));
    setParams(out);
  };
  const go = (next: Partial<ListQuery>) => write({ ...query, ...next });
  const onSortChange = (sort: GridSort) => go({ ...sort, page: 1 });
  const onDownload = async () => {
    const { page: _page, ...search } = toListRequest(query, schema);
    try {
      await download(search).unwrap();
    } catch {
      showToast({ intent: Intent.DANGER, message: intl.formatMessage({ id: 'list.downloadError' }) });
    }
  };

  if (!granted) return <Loading />;
  if (!mayView || httpStatus(result.error) === 403) {
    return (
      <div data-testid="no-privilege">
        <NonIdealState icon={<LockIcon size={48} />} description={<FormattedMessage id="app.noPrivilege" />} />
      </div>
    );
  }
  const page = result.data;

  return (
    <div className="portal-page portal-list" data-testid="package-sales">
      <header className="portal-page-header">
        <H2>
          <FormattedMessage id="packages.sales.title" />
        </H2>
        <div className="portal-page-actions">
          <Balance />
          <Button
            variant="minimal"
            icon={<RefreshIcon />}
            aria-label={intl.formatMessage({ id: 'list.refresh' })}
            loading={result.isFetching}
            onClick={() => result.refetch()}
          />
          <Button icon={<DownloadIcon />} data-testid="list-download" loading={downloading.isLoading} onClick={onDownload}>
            <FormattedMessage id="list.download" />
          </Button>
        </div>
      </header>
      <p className="portal-page-intro">
        <FormattedMessage id="packages.sales.intro" />
      </p>
      <SubscriberChooser key={subscriberId ?? 'none'} current={subscriberId} onChoose={(id) => write(query, id)} />
      {subscriberId && (
        <div className="portal-packages-chosen" data-testid="sales-panel">
          <div className="portal-packages-chosen-header">
            <strong>{intl.formatMessage({ id: 'packages.panel.subscriber' }, { id: subscriberId })}</strong>
            <Button
              variant="minimal"
              icon={<CrossIcon />}
              aria-label={intl.formatMessage({ id: 'packages.sales.close' })}
              onClick={() => write(query, undefined)}
            />
          </div>
          <SubscriberPackagesPanel key={subscriberId} subscriberId={subscriberId} />
        </div>
      )}
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
            onSortChange={onSortChange}
            onOpenRow={(row) => write(query, Number(row.subscriberId))}
          />
          {page.items.length === 0 && <NonIdealState icon={<SearchIcon size={48} />} description={<FormattedMessage id="list.empty" />} />}
          <Pager page={page.currentPage + 1} pages={Math.max(1, page.totalPageCount)} total={page.totalItemsCount} onPage={(next) => go({ page: next })} />
        </>
      )}
    </div>
  );
}
