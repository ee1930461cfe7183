/**
 * `/inventory` (privilege Inventory): the caller's SIM inventory on tabs named in the address (`?tab=`): ranges
 * with their use and the low-stock warning (`ranges`), batches with their cards (`batches`, `&batch=` a batch),
 * sponsors (`sponsors`), the MSISDN pool (`msisdn`) and the devices seen in the network (`devices`).
 */
import { H2, Tab, Tabs } from '@blueprintjs/core';
import type { ReactElement } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSearchParams } from 'react-router-dom';
import { usePageTitle } from '@web/engine/pageTitle';
import { DevicesTab } from './DevicesTab';
import { MsisdnTab } from './MsisdnTab';
import { RangesTab } from './RangesTab';
import { BATCH_PARAM, SimCardsTab } from './SimCardsTab';
import { SponsorsTab } from './SponsorsTab';
import './inventory.css';

export const INVENTORY_TABS = ['ranges', 'batches', 'sponsors', 'msisdn', 'devices'] as const;
type TabId = (typeof INVENTORY_TABS)[number];

export default function InventoryPage() {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'menu.Inventory' }));
  const [params, setParams] = useSearchParams();
  const current: TabId = (INVENTORY_TABS as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as TabId) : 'ranges';
  const openBatch = (batchId: number) => setParams(new URLSearchParams({ tab: 'batches', [BATCH_PARAM]: String(batchId) }));
  const panels: Record<TabId, () => ReactElement> = {
    ranges: () => <RangesTab onOpenBatch={openBatch} />,
    batches: () => <SimCardsTab />,
    sponsors: () => <SponsorsTab />,
    msisdn: () => <MsisdnTab />,
    devices: () => <DevicesTab />,
  };
  return (
    <div className="portal-page portal-inventory" data-testid="inventory">
      <header className="portal-page-header">
        <H2>
          <FormattedMessage id="menu.Inventory" />
        </H2>
      </header>
      <Tabs
        id="inventory-tabs"
        selectedTabId={current}
        onChange={(next) => setParams(new URLSearchParams({ tab: String(next) }))}
        size="large"
        animate={false}
        renderActiveTabPanelOnly
      >
        {INVENTORY_TABS.map((t) => (
          <Tab key={t} id={t} title={<FormattedMessage id={`inventory.tab.${t}`} />} panel={panels[t]()} data-testid={`inventory-tab-${t}`} />
        ))}
      </Tabs>
    </div>
  );
}
