/**
 * `/assign-subscribers` (privilege MoveSubscribers): range operations on subscribers, each on a tab shown to a
 * user who holds what the server asks for it: moving a range to another account (MoveSubscribers), giving a
 * range a roaming profile (Subscribers), and migrating a range to the external core platform (Subscribers and the
 * MigrationStatus panel), and assigning a range of SIM cards from the inventory to an account (MoveSubscribers;
 * the ranges offered are those the caller's inventory holds).
 */
import { H2, Tab, Tabs } from '@blueprintjs/core';
import type { ReactElement } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSearchParams } from 'react-router-dom';
import { hasPrivilege, type PrivilegeItem } from '@shared/privileges';
import { useGetUserUiPrivilegesQuery } from '@web/core/authApi';
import { Loading } from '@web/ui/Loading';
import { usePageTitle } from '@web/engine/pageTitle';
import { useIsAdmin } from '@web/core/useIsAdmin';
import { InventoryAssignForm } from './InventoryAssignForm';
import { MigrationRangeForm } from './MigrationRangeForm';
import { MoveRangeForm } from './MoveRangeForm';
import { RoamingRangeForm } from './RoamingRangeForm';
import './assign.css';

interface TabSpec {
  id: string;
  allowed: (granted: PrivilegeItem[]) => boolean;
  panel: () => ReactElement;
}

const TABS: readonly TabSpec[] = [
  { id: 'move', allowed: (g) => hasPrivilege(g, 'MoveSubscribers'), panel: () => <MoveRangeForm /> },
  { id: 'roaming', allowed: (g) => hasPrivilege(g, 'Subscribers'), panel: () => <RoamingRangeForm /> },
  {
    id: 'migrate',
    allowed: (g) => hasPrivilege(g, 'Subscribers') && hasPrivilege(g, 'SubscriberDetails', 'MigrationStatus'),
    panel: () => <MigrationRangeForm />,
  },
  { id: 'inventory', allowed: (g) => hasPrivilege(g, 'MoveSubscribers'), panel: () => <InventoryAssignForm /> },
];

export default function AssignSubscribersPage() {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'menu.AssignSubscribers' }));
  const [params, setParams] = useSearchParams();
  const { data: granted } = useGetUserUiPrivilegesQuery();
  const isAdmin = useIsAdmin();
  if (!granted) return <Loading />;
  const tabs = TABS.filter((t) => isAdmin || t.allowed(granted));
  const current = tabs.find((t) => t.id === params.get('tab')) ?? tabs[0];
  return (
    <div className="portal-page portal-assign" data-testid="assign-subscribers">
      <header className="portal-page-header">
        <H2>
          <FormattedMessage id="menu.AssignSubscribers" />
        </H2>
      </header>
      <Tabs
        id="assign-tabs"
        selectedTabId={current.id}
        onChange={(next) => setParams(new URLSearchParams({ tab: String(next) }), { replace: true })}
        size="large"
        animate={false}
        renderActiveTabPanelOnly
      >
        {tabs.map((t) => (
          <Tab key={t.id} id={t.id} title={<FormattedMessage id={`assign.tab.${t.id}`} />} panel={t.panel()} data-testid={`assign-tab-${t.id}`} />
        ))}
      </Tabs>
    </div>
  );
}
