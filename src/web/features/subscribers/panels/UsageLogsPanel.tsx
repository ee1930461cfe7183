import { HTMLTable } from '@blueprintjs/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { Loading } from '@web/ui/Loading';
import { formatBytes, formatCell } from '@web/engine/columns';
import { useGetSubscriberInfoUsageLogsByIdQuery } from '../subscriberApi';
import { type PanelProps, Panel, useLabel, LoadError, Empty } from './Panel';

export function UsageLogsPanel({ subscriber }: PanelProps) {
  const intl = useIntl();
  const label = useLabel();
  const { data, error } = useGetSubscriberInfoUsageLogsByIdQuery({ id: subscriber.subscriberId });
  return (
    <Panel id="usage-logs" title={label('subscriber.panel.usageLogs')} wide>
      {error ? (
        <LoadError error={error} />
      ) : !data ? (
        <Loading />
      ) : data.length === 0 ? (
        <Empty />
      ) : (
        <>
          <p className="portal-muted-note">
            <FormattedMessage id="subscriber.usage.latest" values={{ count: data.length }} />
          </p>
          <div className="portal-table-scroll portal-table-tall">
            {/* The latest usage records, at most a fixed number the server answers whole, in a scrolling panel: no paging, sorting or search to offer. */}
            <HTMLTable compact striped className="portal-panel-table" data-testid="usage-table">
              <thead>
                <tr>
                  <th>{label('subscriber.log.when')}</th>
                  <th>{label('subscriber.usage.type')}</th>
                  <th>PLMN</th>
                  <th>APN</th>
                  <th className="portal-cell-number">{label('subscriber.usage.up')}</th>
                  <th className="portal-cell-number">{label('subscriber.usage.down')}</th>
                  <th>{label('subscriber.usage.result')}</th>
                </tr>
              </thead>
              <tbody>
                {data.map((u) => (
                  <tr key={u.id}>
                    <td className="portal-nowrap">{formatCell(intl, 'datetime', u.at)}</td>
                    <td>{u.requestType}</td>
                    <td className="portal-mono">{u.plmn}</td>
                    <td>{u.apn}</td>
                    <td className="portal-cell-number">{formatBytes(intl, u.bytesUp)}</td>
                    <td className="portal-cell-number">{formatBytes(intl, u.bytesDown)}</td>
                    <td>{u.resultCode}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
        </>
      )}
    </Panel>
  );
}
