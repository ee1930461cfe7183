import { Button, HTMLTable, Intent, Tag } from '@blueprintjs/core';
import { useIntl } from 'react-intl';
import { Loading } from '@web/ui/Loading';
import { showToast } from '@web/ui/toaster';
import { errorText, useOperations } from '../operations';
import {
  usePostSubscribersByIdPushPendingImsisMutation,
  usePutSubscribersByIdByImsiPendingMutation,
  useGetSubscriberInfoSponsorImsisByIdQuery,
} from '../subscriberApi';
import { type PanelProps, Panel, useLabel, field, LoadError, Empty } from './Panel';

export function SponsorImsisPanel({ subscriber }: PanelProps) {
  const intl = useIntl();
  const label = useLabel();
  const { data, error } = useGetSubscriberInfoSponsorImsisByIdQuery(subscriber.subscriberId);
  const [setPending, pendingState] = usePutSubscribersByIdByImsiPendingMutation();
  const [push, pushState] = usePostSubscribersByIdPushPendingImsisMutation();
  const { follow, busy } = useOperations();
  const anyPending = (data ?? []).some((r) => r.pending);
  const mark = async (imsi: string) => {
    const result = await setPending({ id: subscriber.subscriberId, imsi });
    if (result.error) showToast({ intent: Intent.DANGER, message: errorText(intl, result.error) });
  };
  return (
    <Panel
      id="sponsor-imsis"
      title={label('subscriber.panel.sponsorImsis')}
      actions={
        anyPending && (
          <Button
            size="small"
            disabled={busy}
            loading={pushState.isLoading}
            onClick={async () => follow('push-pending-imsis', await push(subscriber.subscriberId))}
          >
            {label('subscriber.action.pushPending')}
          </Button>
        )
      }
    >
      {error ? (
        <LoadError error={error} />
      ) : !data ? (
        <Loading />
      ) : data.length === 0 ? (
        <Empty />
      ) : (
        // A subscriber's sponsor IMSIs, a handful the server answers whole: no paging, sorting or search to offer.
        <HTMLTable compact className="portal-panel-table">
          <thead>
            <tr>
              <th>{label(field('imsi'))}</th>
              <th>{label('subscriber.sponsor')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {data.map((row) => (
              <tr key={row.imsi}>
                <td className="portal-mono">{row.imsi}</td>
                <td>{row.sponsorName}</td>
                <td className="portal-cell-end">
                  {row.pending ? (
                    <Tag minimal intent={Intent.PRIMARY}>
                      {label('subscriber.imsi.pending')}
                    </Tag>
                  ) : (
                    <Button size="small" variant="minimal" disabled={pendingState.isLoading} onClick={() => mark(row.imsi)}>
                      {label('subscriber.action.setPending')}
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </Panel>
  );
}
