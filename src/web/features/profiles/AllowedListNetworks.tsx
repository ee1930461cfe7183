import { BanCircleIcon, ChevronDownIcon, ChevronRightIcon, DownloadIcon, ErrorIcon, RefreshIcon, SearchIcon, TickCircleIcon } from '@blueprintjs/icons';
import { Button, ButtonGroup, Callout, Classes, H3, HTMLTable, InputGroup, Intent, ProgressBar, Spinner, Tag } from '@blueprintjs/core';
import { Fragment, useEffect, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { countryNames } from '@shared/countries';
import { useAppDispatch } from '@web/core/hooks';
import { httpStatus } from '@web/core/apiErrors';
import { showToast } from '@web/ui/toaster';
import { useIsAdmin } from '@web/core/useIsAdmin';
import { useImpactCheck } from './ImpactDialog';
import { STATE_INTENT } from './networkStates';
import {
  NETWORK_STATES,
  profilesApi,
  useGetAllowedListsByIdQuery,
  usePostAllowedListsByIdImpactMutation,
  usePostAdminBlockNetworksMutation,
  useDownloadAllowedListMutation,
  useGetAllowedListsByIdNetworksByCountryQuery,
  useGetAllowedListsByIdNetworksQuery,
  usePostAllowedListsByIdSyncMutation,
  type ListNetwork,
  type NetworkState,
  type StateCounts,
  type SyncState,
  IMPACT_PAGE,
} from './profilesApi';
import './profiles.css';

/** How often a running sync is asked for its progress, in ms. */
export const SYNC_POLL_MS = 1000;

export function StateTag({ state, count }: { state: NetworkState; count?: number }) {
  return (
    <Tag minimal intent={STATE_INTENT[state]} data-state={state}>
      <FormattedMessage id={`allowedList.state.${state}`} />
      {count !== undefined && ` ${count}`}
    </Tag>
  );
}

function StateCountTags({ states }: { states: StateCounts }) {
  return (
    <span className="portal-state-tags">
      {NETWORK_STATES.filter((s) => states[s] > 0).map((s) => (
        <StateTag key={s} state={s} count={states[s]} />
      ))}
    </span>
  );
}

type Block = (blocked: boolean, target: { plmns?: string[]; countries?: string[] }) => void;

/** States a block or an unblock would change: the others offer only the opposite action. */
const BLOCKABLE: readonly NetworkState[] = ['preferred', 'pendingChanges'];
const UNBLOCKABLE: readonly NetworkState[] = ['blocked', 'pending'];

interface BlockButtonsProps {
  onBlock: Block;
  target: { plmns?: string[]; countries?: string[] };
  busy: boolean;
  canBlock: boolean;
  canUnblock: boolean;
}

function BlockButtons({ onBlock, target, busy, canBlock, canUnblock }: BlockButtonsProps) {
  const intl = useIntl();
  return (
    <ButtonGroup variant="minimal">
      <Button
        size="small"
        icon={<BanCircleIcon />}
        intent={Intent.DANGER}
        disabled={busy || !canBlock}
        onClick={() => onBlock(true, target)}
        data-testid="network-block"
      >
        {intl.formatMessage({ id: 'allowedList.block' })}
      </Button>
      <Button
        size="small"
        icon={<TickCircleIcon />}
        intent={Intent.SUCCESS}
        disabled={busy || !canUnblock}
        onClick={() => onBlock(false, target)}
        data-testid="network-unblock"
      >
        {intl.formatMessage({ id: 'allowedList.unblock' })}
      </Button>
    </ButtonGroup>
  );
}

const any = (states: StateCounts, which: readonly NetworkState[]) => which.some((s) => states[s] > 0);

function CountryNetworks({ id, country, isAdmin, onBlock, busy }: { id: number; country: string; isAdmin: boolean; onBlock: Block; busy: boolean }) {
  const intl = useIntl();
  const { data, isError } = useGetAllowedListsByIdNetworksByCountryQuery({ id: id, country });
  if (isError)
    return (
      <Callout intent={Intent.DANGER}>
        <FormattedMessage id="list.loadError" />
      </Callout>
    );
  if (!data) return <Spinner size={20} />;
  return (
    // The networks of one country, opened under its row and answered whole by the server: a few rows nested in the country table.
    <HTMLTable compact className="portal-networks" data-testid={`networks-${country}`}>
      <thead>
        <tr>
          <th>
            <FormattedMessage id="allowedList.network.plmn" />
          </th>
          <th>
            <FormattedMessage id="allowedList.network.operator" />
          </th>
          <th>
            <FormattedMessage id="allowedList.network.state" />
          </th>
          {isAdmin && <th aria-label={intl.formatMessage({ id: 'allowedList.network.actions' })} />}
        </tr>
      </thead>
      <tbody>
        {data.map((n: ListNetwork) => (
          <tr key={n.plmn} data-testid={`network-${n.plmn}`} data-state={n.state}>
            <td className={Classes.MONOSPACE_TEXT}>{n.plmn}</td>
            <td>{[n.operator, n.brand && n.brand !== n.operator ? n.brand : null].filter(Boolean).join(' · ')}</td>
            <td>
              <StateTag state={n.state} />
              {n.inFlight && (
                <Tag minimal round className="portal-tag-gap">
                  <FormattedMessage id="allowedList.network.inFlight" />
                </Tag>
              )}
              {n.lastError && (
                <span className="portal-network-error" title={n.lastError}>
                  <ErrorIcon size={12} className="portal-danger-icon" /> {n.lastError}
                </span>
              )}
            </td>
            {isAdmin && (
              <td>
                <BlockButtons
                  onBlock={onBlock}
                  target={{ plmns: [n.plmn] }}
                  busy={busy}
                  canBlock={BLOCKABLE.includes(n.state)}
                  canUnblock={UNBLOCKABLE.includes(n.state)}
                />
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}

function SyncProgress({ row }: { row: SyncState }) {
  const intl = useIntl();
  if (!row.syncStartedAt) return null;
  const total = row.syncTotal ?? 0;
  const done = row.syncDone ?? 0;
  const failed = row.syncFailed ?? 0;
  const running = !row.syncFinishedAt;
  return (
    <div className="portal-sync" data-testid="sync-progress" data-running={running}>
      <span data-testid="sync-counts">
        <FormattedMessage id={running ? 'allowedList.sync.running' : 'allowedList.sync.finished'} values={{ done, failed, total }} />
      </span>
      <ProgressBar
        intent={failed > 0 ? Intent.WARNING : running ? Intent.PRIMARY : Intent.SUCCESS}
        animate={running}
        stripes={running}
        value={total === 0 ? 1 : done / total}
        aria-label={intl.formatMessage({ id: 'allowedList.sync.progress' })}
      />
    </div>
  );
}

export function AllowedListNetworks({ id }: { id: number }) {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const isAdmin = useIsAdmin();
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [running, setRunning] = useState(false);
  const { data: list } = useGetAllowedListsByIdQuery(id, { pollingInterval: running ? SYNC_POLL_MS : 0 });
  const summary = useGetAllowedListsByIdNetworksQuery(id, { skip: !list });
  const [block, blocking] = usePostAdminBlockNetworksMutation();
  const [previewImpact, previewing] = usePostAllowedListsByIdImpactMutation();
  const impact = useImpactCheck();
  const [sync, syncing] = usePostAllowedListsByIdSyncMutation();
  const [download, downloading] = useDownloadAllowedListMutation();
  const names = useMemo(() => countryNames(intl.locale), [intl.locale]);

  const listRunning = Boolean(list?.syncStartedAt && !list.syncFinishedAt);
  if (listRunning !== running) setRunning(listRunning);
  // Each answer moves a network to its final state: read the networks again as the progress moves.
  const progress = `${list?.syncDone ?? ''}/${list?.syncFinishedAt ?? ''}`;
  const seen = useRef(progress);
  useEffect(() => {
    if (seen.current === progress) return;
    seen.current = progress;
    dispatch(profilesApi.util.invalidateTags([{ type: 'ListNetworks', id }]));
  }, [dispatch, id, progress]);

  if (!list) return null;

  const failed = (messageId: string) => showToast({ intent: Intent.DANGER, icon: <ErrorIcon />, message: intl.formatMessage({ id: messageId }) });

  const onBlock: Block = async (blocked, target) => {
    // Blocking cuts subscribers off: the ones seen on those networks lately are shown first.
    if (blocked && !(await impact.check(previewImpact({ id, body: { ...target, page: IMPACT_PAGE } }), 'impact.intro.block', 'impact.confirm.block'))) return;
    const result = await block({ allowedListId: id, blocked, ...target });
    if (result.error) return failed('allowedList.block.error');
    showToast({ intent: Intent.SUCCESS, message: intl.formatMessage({ id: 'allowedList.block.done' }, { changed: result.data.changed }) });
  };
  const onSync = async () => {
    const result = await sync(id);
    if (result.error) return failed(httpStatus(result.error) === 409 ? 'allowedList.sync.alreadyRunning' : 'allowedList.sync.error');
    if (result.data.sent === 0) showToast({ intent: Intent.PRIMARY, message: intl.formatMessage({ id: 'allowedList.sync.nothing' }) });
  };
  const onDownload = async () => {
    if (!list.uuid) return;
    const result = await download(list.uuid);
    if (result.error) failed('list.downloadError');
  };

  const key = filter.trim().toLowerCase();
  const nameOf = (code: string) => names[code] ?? code;
  const countries = (summary.data?.countries ?? [])
    .filter((c) => !key || c.country.toLowerCase() === key || nameOf(c.country).toLowerCase().includes(key))
    .sort((a, b) => nameOf(a.country).localeCompare(nameOf(b.country), intl.locale));
  const toggle = (country: string) =>
    setOpen((was) => {
      const next = new Set(was);
      if (next.has(country)) next.delete(country);
      else next.add(country);
      return next;
    });
  const waiting = summary.data ? summary.data.counts.pending + summary.data.counts.pendingChanges + summary.data.counts.pendingRemoval : 0;

  return (
    <section className="portal-page portal-list-networks" data-testid="allowed-list-networks">
      <header className="portal-page-header">
        <H3>
          <FormattedMessage id="allowedList.networks.title" />
        </H3>
        <div className="portal-page-actions">
          <Button
            icon={<RefreshIcon />}
            intent={Intent.PRIMARY}
            loading={syncing.isLoading}
            disabled={listRunning}
            onClick={onSync}
            data-testid="allowed-list-sync"
          >
            <FormattedMessage id="allowedList.sync" />
          </Button>
          <Button icon={<DownloadIcon />} loading={downloading.isLoading} onClick={onDownload} data-testid="allowed-list-download">
            <FormattedMessage id="list.download" />
          </Button>
        </div>
      </header>
      <SyncProgress row={list} />
      {summary.data && (
        <p className="portal-page-intro" data-testid="network-counts">
          <StateCountTags states={summary.data.counts} /> {waiting > 0 && <FormattedMessage id="allowedList.networks.waiting" values={{ count: waiting }} />}
        </p>
      )}
      {summary.isError && (
        <Callout intent={Intent.DANGER} role="alert">
          <FormattedMessage id="list.loadError" />
        </Callout>
      )}
      <InputGroup
        className="portal-network-filter"
        leftIcon={<SearchIcon />}
        type="search"
        value={filter}
        onChange={(e) => setFilter(e.currentTarget.value)}
        placeholder={intl.formatMessage({ id: 'allowedList.networks.filter' })}
        aria-label={intl.formatMessage({ id: 'allowedList.networks.filter' })}
        data-testid="network-country-filter"
      />
      {!summary.data && !summary.isError ? (
        <Spinner size={30} />
      ) : (
        // Countries answered whole and filtered in place, each opening its networks under its row with block actions: the grid has no nested rows.
        <HTMLTable compact striped className="portal-countries" data-testid="network-countries">
          <thead>
            <tr>
              <th>
                <FormattedMessage id="entity.roamingProfile.rate.country" />
              </th>
              <th>
                <FormattedMessage id="allowedList.network.state" />
              </th>
              {isAdmin && (
                <th>
                  <FormattedMessage id="allowedList.network.actions" />
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {countries.map(({ country, states }) => (
              <Fragment key={country}>
                <tr data-testid={`country-${country}`}>
                  <td>
                    <Button
                      variant="minimal"
                      size="small"
                      icon={open.has(country) ? <ChevronDownIcon /> : <ChevronRightIcon className="portal-mirror-rtl" />}
                      aria-expanded={open.has(country)}
                      onClick={() => toggle(country)}
                      data-testid={`country-toggle-${country}`}
                    >
                      {nameOf(country)} <span className="portal-muted">{country}</span>
                    </Button>
                  </td>
                  <td>
                    <StateCountTags states={states} />
                  </td>
                  {isAdmin && (
                    <td>
                      <BlockButtons
                        onBlock={onBlock}
                        target={{ countries: [country] }}
                        busy={blocking.isLoading || previewing.isLoading}
                        canBlock={any(states, BLOCKABLE)}
                        canUnblock={any(states, UNBLOCKABLE)}
                      />
                    </td>
                  )}
                </tr>
                {open.has(country) && (
                  <tr className="portal-country-networks">
                    <td colSpan={isAdmin ? 3 : 2}>
                      <CountryNetworks id={id} country={country} isAdmin={isAdmin} onBlock={onBlock} busy={blocking.isLoading || previewing.isLoading} />
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {impact.dialog}
    </section>
  );
}
