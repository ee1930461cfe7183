import { Link } from 'react-router-dom';
import { Facts } from '../dialogs';
import { type PanelProps, Panel, useLabel, field } from './Panel';

export function AccountPanel({ subscriber, canOpen }: PanelProps & { canOpen: boolean }) {
  const label = useLabel();
  const name = subscriber.accountName as string | undefined;
  return (
    <Panel id="account" title={label('subscriber.panel.account')}>
      <Facts
        items={[
          [label(field('accountId')), subscriber.accountId as number],
          [label(field('accountName')), canOpen && name ? <Link to={`/account/${String(subscriber.accountId)}`}>{name}</Link> : name],
        ]}
      />
    </Panel>
  );
}

export function ResellerPanel({ subscriber }: PanelProps) {
  const label = useLabel();
  return (
    <Panel id="reseller" title={label('subscriber.panel.reseller')}>
      <Facts
        items={[
          [label(field('resellerId')), subscriber.resellerId as number],
          [label(field('resellerName')), subscriber.resellerName as string],
        ]}
      />
    </Panel>
  );
}
