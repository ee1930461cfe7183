/**
 * `/profiles`: allowed lists (tab 0) and roaming profiles (tab 1), each the engine's list of its schema. The tab
 * follows the `tab` query parameter, and a tab shows only for a user who holds its privilege.
 */
import { LockIcon } from '@blueprintjs/icons';
import { NonIdealState, Tab, TabPanel, Tabs } from '@blueprintjs/core';
import { useMemo } from 'react';
import { FormattedMessage } from 'react-intl';
import { useSearchParams } from 'react-router-dom';
import { hasPrivilege } from '@shared/privileges';
import type { EntitySchema } from '@shared/schema';
import { useGetUserUiPrivilegesQuery } from '@web/core/authApi';
import { Loading } from '@web/ui/Loading';
import EntityListPage from '@web/engine/EntityListPage';
import { findSchema } from '@web/core/schemas';
import { profilesAddress, type ProfilesTab } from './profilesAddress';
import './profiles.css';

interface TabSpec {
  id: ProfilesTab;
  schema: EntitySchema;
}

const TABS: readonly TabSpec[] = [
  { id: '0', schema: findSchema('allowedList')! },
  { id: '1', schema: findSchema('roamingProfile')! },
];

export default function ProfilesPage() {
  const [params, setParams] = useSearchParams();
  const { data: granted } = useGetUserUiPrivilegesQuery();
  const tabs = TABS.filter((t) => granted && hasPrivilege(granted, t.schema['x-entity'].privilege));
  const asked = params.get('tab');
  const current = tabs.find((t) => t.id === asked) ?? tabs[0];
  const address = useMemo(() => (current ? profilesAddress(current.schema, current.id) : undefined), [current]);

  if (!granted) return <Loading />;
  if (!current) {
    return (
      <div data-testid="no-privilege">
        <NonIdealState icon={<LockIcon size={48} />} description={<FormattedMessage id="app.noPrivilege" />} />
      </div>
    );
  }
  return (
    <div className="portal-profiles" data-testid="profiles">
      <Tabs
        id="profiles-tabs"
        selectedTabId={current.id}
        // Another tab starts on its own first page, without the search of the one left.
        onChange={(next) => setParams(new URLSearchParams({ tab: String(next) }))}
        size="large"
      >
        {tabs.map((t) => (
          <Tab key={t.id} id={t.id} data-testid={`profiles-tab-${t.id}`} title={<FormattedMessage id={t.schema.title} />} />
        ))}
      </Tabs>
      {/* The tab's panel, so the selected tab's aria-controls names an element that exists. */}
      <TabPanel
        className="portal-profiles-panel"
        id={current.id}
        parentId="profiles-tabs"
        selectedTabId={current.id}
        panel={<EntityListPage key={current.id} schema={current.schema} address={address} />}
      />
    </div>
  );
}
