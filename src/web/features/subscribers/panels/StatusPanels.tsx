import { Loading } from '@web/ui/Loading';
import { Facts } from '../dialogs';
import { StatusTag } from '@web/ui/StatusTag';
import { useGetSummaSubscriberMigrationByIdQuery } from '../subscriberApi';
import { type PanelProps, Panel, useLabel, field, LoadError } from './Panel';

export function StatusPanel({ subscriber }: PanelProps) {
  const label = useLabel();
  return (
    <Panel id="status" title={label('subscriber.panel.status')}>
      <Facts items={[[label(field('status')), <StatusTag value={subscriber.status} />]]} />
    </Panel>
  );
}

export function MigrationPanel({ subscriber }: PanelProps) {
  const label = useLabel();
  const { data, error } = useGetSummaSubscriberMigrationByIdQuery(subscriber.subscriberId);
  return (
    <Panel id="migration" title={label('subscriber.panel.migration')}>
      {error ? (
        <LoadError error={error} />
      ) : !data ? (
        <Loading />
      ) : (
        <Facts
          items={[[label(field('migrationStatus')), data.migrationStatus ? <StatusTag value={data.migrationStatus} /> : label('subscriber.migration.never')]]}
        />
      )}
    </Panel>
  );
}
