import { Button, HTMLTable, Intent, Tag } from '@blueprintjs/core';
import { DownloadIcon, RefreshIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { Loading } from '@web/ui/Loading';
import { formatCell } from '@web/engine/columns';
import { Pager } from '@web/ui/Pager';
import { showToast } from '@web/ui/toaster';
import { useDownloadNetworkEventsMutation, useNetworkEventsQuery } from '../subscriberApi';
import { messageOr } from '@web/core/messages';
import { type PanelProps, Panel, useLabel, LoadError, Empty } from './Panel';

const EVENTS_PAGE = 20;

export function NetworkEventsPanel({ subscriber }: PanelProps) {
  const intl = useIntl();
  const label = useLabel();
  const imsi = String(subscriber.imsi ?? '');
  const [page, setPage] = useState(1);
  const { data, error, isFetching, refetch } = useNetworkEventsQuery(
    { subscriberId: subscriber.subscriberId, imsi, page: page - 1, size: EVENTS_PAGE },
    { skip: !imsi },
  );
  const [download, downloading] = useDownloadNetworkEventsMutation();
  const save = async () => {
    const result = await download(imsi);
    if (result.error) showToast({ intent: Intent.DANGER, message: label('list.downloadError') });
  };
  return (
    <Panel
      id="network-events"
      title={label('subscriber.panel.networkEvents')}
      wide
      actions={
        <>
          <Button
            size="small"
            variant="minimal"
            icon={<RefreshIcon />}
            aria-label={label('list.refresh')}
            loading={isFetching}
            onClick={() => void refetch()}
          />
          <Button size="small" icon={<DownloadIcon />} loading={downloading.isLoading} onClick={save} data-testid="network-events-download">
            {label('list.download')}
          </Button>
        </>
      }
    >
      {error ? (
        <LoadError error={error} />
      ) : !data ? (
        <Loading />
      ) : data.items.length === 0 ? (
        <Empty />
      ) : (
        <>
          <div className="portal-table-scroll">
            {/* A panel of the subscriber's page, paged on the server with its own download: the grid and the admin table are whole pages, not panels. */}
            <HTMLTable compact striped className="portal-panel-table" data-testid="network-events-table">
              <thead>
                <tr>
                  <th>{label('subscriber.log.when')}</th>
                  <th>{label('subscriber.event.protocol')}</th>
                  <th>{label('subscriber.event.operation')}</th>
                  <th>{label('subscriber.event.result')}</th>
                  <th>{label('subscriber.event.detail')}</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((e) => (
                  <tr key={e.id}>
                    <td className="portal-nowrap">{formatCell(intl, 'datetime', e.createdAt)}</td>
                    <td>{e.protocol}</td>
                    <td>{e.operation}</td>
                    <td>
                      <Tag minimal intent={e.result === 'success' ? Intent.SUCCESS : Intent.DANGER}>
                        {messageOr(intl, `subscriber.event.${e.result}`, e.result)}
                      </Tag>
                    </td>
                    <td>{e.detail}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
          <Pager page={page} pages={data.totalPageCount} total={data.totalItemsCount} onPage={setPage} />
        </>
      )}
    </Panel>
  );
}
