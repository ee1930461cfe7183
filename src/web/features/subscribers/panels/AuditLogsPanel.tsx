import { HTMLTable } from '@blueprintjs/core';
import { useIntl } from 'react-intl';
import { Loading } from '@web/ui/Loading';
import { formatBytes, formatCell } from '@web/engine/columns';
import { QOS_BLOCK, useGetSubscriberInfoAuditLogsByIdQuery, useGetResellerInfoApiQosSpeedLimitsQuery } from '../subscriberApi';
import { messageOr } from '@web/core/messages';
import { type PanelProps, Panel, useLabel, field, LoadError, Empty } from './Panel';

/** A changed field's value as text: byte counts and money as such, nothing as a dash. */
function AuditValues({ values }: { values: Record<string, unknown> }) {
  const intl = useIntl();
  const speeds = useGetResellerInfoApiQosSpeedLimitsQuery();
  const entries = Object.entries(values);
  const qosText = (id: unknown) =>
    id === QOS_BLOCK ? intl.formatMessage({ id: 'subscriber.qos.block' }) : (speeds.data?.find((s) => s.id === id)?.name ?? String(id));
  if (entries.length === 0) return <>{intl.formatMessage({ id: 'format.none' })}</>;
  return (
    <ul className="portal-audit-values">
      {entries.map(([key, value]) => {
        const title = messageOr(intl, field(key), key);
        const text =
          value === null || value === undefined || value === ''
            ? intl.formatMessage({ id: 'format.none' })
            : key.endsWith('Bytes') && typeof value === 'number'
              ? formatBytes(intl, value)
              : key === 'qosThrottling'
                ? qosText(value)
                : key === 'status'
                  ? messageOr(intl, `subscriber.status.${String(value)}`, String(value))
                  : Array.isArray(value)
                    ? value.join(', ')
                    : String(value);
        return (
          <li key={key}>
            <span className="portal-audit-field">{title}:</span> {text}
          </li>
        );
      })}
    </ul>
  );
}

export function AuditLogsPanel({ subscriber }: PanelProps) {
  const intl = useIntl();
  const label = useLabel();
  const { data, error } = useGetSubscriberInfoAuditLogsByIdQuery(subscriber.subscriberId);
  return (
    <Panel id="audit-logs" title={label('subscriber.panel.auditLogs')} wide>
      {error ? (
        <LoadError error={error} />
      ) : !data ? (
        <Loading />
      ) : data.length === 0 ? (
        <Empty />
      ) : (
        <div className="portal-table-scroll portal-table-tall">
          {/* The latest audit entries, at most a fixed number the server answers whole, in a scrolling panel: no paging, sorting or search to offer. */}
          <HTMLTable compact striped className="portal-panel-table" data-testid="audit-table">
            <thead>
              <tr>
                <th>{label('subscriber.log.when')}</th>
                <th>{label('subscriber.log.who')}</th>
                <th>{label('subscriber.audit.action')}</th>
                <th>{label('subscriber.audit.before')}</th>
                <th>{label('subscriber.audit.after')}</th>
              </tr>
            </thead>
            <tbody>
              {data.map((a) => (
                <tr key={a.id}>
                  <td className="portal-nowrap">{formatCell(intl, 'datetime', a.at)}</td>
                  <td>{a.username}</td>
                  <td>{messageOr(intl, `subscriber.operation.${a.action}`, a.action)}</td>
                  <td>
                    <AuditValues values={a.before ?? {}} />
                  </td>
                  <td>
                    <AuditValues values={a.after ?? {}} />
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
    </Panel>
  );
}
