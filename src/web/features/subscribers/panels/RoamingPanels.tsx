import { Button } from '@blueprintjs/core';
import { RefreshIcon } from '@blueprintjs/icons';
import { useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { Loading } from '@web/ui/Loading';
import { formatCell } from '@web/engine/columns';
import { Facts } from '../dialogs';
import { useOperations } from '../operations';
import { StatusTag } from '@web/ui/StatusTag';
import {
  usePostSubscribersByIdAllowedNetworksMutation,
  useGetSubscribersByIdRoamingProfileQuery,
  usePutSubscribersByIdRoamingProfileHssMutation,
} from '../subscriberApi';
import { type PanelProps, Panel, useLabel, LoadError, Empty } from './Panel';

export function RoamingProfilePanel({ subscriber, canOpen }: PanelProps & { canOpen: boolean }) {
  const intl = useIntl();
  const label = useLabel();
  const { data, error } = useGetSubscribersByIdRoamingProfileQuery(subscriber.subscriberId);
  const [write, state] = usePutSubscribersByIdRoamingProfileHssMutation();
  const { follow, busy } = useOperations();
  const profile = data?.roamingProfile;
  const last = data?.lastHssUpdate;
  return (
    <Panel
      id="roaming-profile"
      title={label('subscriber.panel.roamingProfile')}
      actions={
        profile && (
          <Button
            size="small"
            disabled={busy}
            loading={state.isLoading}
            onClick={async () => follow('roaming-profile-hss', await write({ id: subscriber.subscriberId, body: {} }))}
          >
            {label('subscriber.action.writeHss')}
          </Button>
        )
      }
    >
      {error ? (
        <LoadError error={error} />
      ) : !data ? (
        <Loading />
      ) : !profile ? (
        <Empty />
      ) : (
        <Facts
          items={[
            [label('subscriber.roaming.profile'), canOpen ? <Link to={`/roaming-profile/${profile.id}`}>{profile.name}</Link> : profile.name],
            [label('subscriber.roaming.reference'), profile.reference],
            [label('subscriber.roaming.slots'), profile.slots],
            [label('subscriber.roaming.review'), <StatusTag value={profile.reviewState} />],
            [
              label('subscriber.roaming.lastHss'),
              last ? (
                <>
                  <StatusTag value={last.status === 'failed' ? 'error' : last.status} /> {formatCell(intl, 'datetime', last.finishedAt ?? last.createdAt)}
                </>
              ) : null,
            ],
          ]}
        />
      )}
    </Panel>
  );
}

export function AllowedNetworksPanel({ subscriber }: PanelProps) {
  const label = useLabel();
  const [reset, state] = usePostSubscribersByIdAllowedNetworksMutation();
  const { follow, busy } = useOperations();
  return (
    <Panel id="allowed-networks" title={label('subscriber.panel.allowedNetworks')}>
      <p>{label('subscriber.allowedNetworks.explain')}</p>
      <Button
        size="small"
        icon={<RefreshIcon />}
        disabled={busy}
        loading={state.isLoading}
        onClick={async () => follow('reset-allowed-networks', await reset(subscriber.subscriberId))}
      >
        {label('subscriber.action.resetAllowed')}
      </Button>
    </Panel>
  );
}
