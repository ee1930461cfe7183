import { Button, HTMLTable, Intent, Tag } from '@blueprintjs/core';
import { useIntl } from 'react-intl';
import { Loading } from '@web/ui/Loading';
import { showToast } from '@web/ui/toaster';
import { errorText, useOperations } from '../operations';
import { usePostMsisdnByIdModifyDefaultMutation, useGetMsisdnByIdQuery } from '../subscriberApi';
import { type PanelProps, Panel, useLabel, LoadError, Empty } from './Panel';

export function MsisdnPanel({ subscriber }: PanelProps) {
  const intl = useIntl();
  const label = useLabel();
  const { data, error } = useGetMsisdnByIdQuery(subscriber.subscriberId);
  const [makeDefault, state] = usePostMsisdnByIdModifyDefaultMutation();
  const { follow, busy } = useOperations();
  const choose = async (msisdn: string) => {
    const result = await makeDefault({ id: subscriber.subscriberId, body: { msisdn } });
    if (result.error) showToast({ intent: Intent.DANGER, message: errorText(intl, result.error) });
    else follow('msisdn-default', result);
  };
  return (
    <Panel id="msisdn" title={label('subscriber.panel.msisdn')}>
      {error ? (
        <LoadError error={error} />
      ) : !data ? (
        <Loading />
      ) : data.length === 0 ? (
        <Empty />
      ) : (
        // A subscriber's MSISDNs, a handful the server answers whole: no paging, sorting or search to offer.
        <HTMLTable compact className="portal-panel-table" data-testid="msisdn-table">
          <tbody>
            {data.map((row) => (
              <tr key={row.msisdn}>
                <td className="portal-mono">{row.msisdn}</td>
                <td className="portal-cell-end">
                  {row.isDefault ? (
                    <Tag minimal intent={Intent.PRIMARY}>
                      {label('subscriber.msisdn.default')}
                    </Tag>
                  ) : (
                    <Button
                      size="small"
                      variant="minimal"
                      disabled={busy || state.isLoading}
                      onClick={() => choose(row.msisdn)}
                      data-testid={`make-default-${row.msisdn}`}
                    >
                      {label('subscriber.msisdn.makeDefault')}
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
