/**
 * `/reseller/{id}`: the reseller's form (schemas/reseller.json) and, below it, one tab each for its standing and
 * terms, payments, invoices, payment limits and webhooks. The open tab is in the address (`?tab=`).
 */
import { Tab, Tabs } from '@blueprintjs/core';
import { useIntl } from 'react-intl';
import { useParams, useSearchParams } from 'react-router-dom';
import EntityDetailPage from '@web/engine/EntityDetailPage';
import { findSchema, NEW_ID } from '@web/core/schemas';
import { InvoicesPanel } from './InvoicesPanel';
import { ResellerLimitsPanel } from './ResellerLimitsPanel';
import { ResellerPaymentsPanel } from './ResellerPaymentsPanel';
import { ResellerStandingPanel } from './ResellerStandingPanel';
import { WebhooksPanel } from './WebhooksPanel';
import './resellers.css';

const resellerSchema = findSchema('reseller')!;

const TABS = [
  { id: 'standing', title: 'resellers.standing.title', Panel: ResellerStandingPanel },
  { id: 'payments', title: 'payments.history.title', Panel: ResellerPaymentsPanel },
  { id: 'invoices', title: 'invoices.title', Panel: InvoicesPanel },
  { id: 'limits', title: 'payments.limits.title', Panel: ResellerLimitsPanel },
  { id: 'webhooks', title: 'webhooks.title', Panel: WebhooksPanel },
] as const;

export default function ResellerDetailPage() {
  const intl = useIntl();
  const { id = NEW_ID } = useParams();
  const [params, setParams] = useSearchParams();
  const known = id !== NEW_ID && /^-?\d+$/.test(id);
  const tab = TABS.find((t) => t.id === params.get('tab')) ?? TABS[0];
  return (
    <>
      <EntityDetailPage schema={resellerSchema} />
      {known && (
        <Tabs
          id="reseller-tabs"
          className="portal-reseller-tabs"
          large
          selectedTabId={tab.id}
          renderActiveTabPanelOnly
          onChange={(next) => setParams((p) => (p.set('tab', String(next)), p), { replace: true })}
        >
          {TABS.map(({ id: tabId, title, Panel }) => (
            <Tab key={tabId} id={tabId} title={intl.formatMessage({ id: title })} data-testid={`reseller-tab-${tabId}`} panel={<Panel id={Number(id)} />} />
          ))}
        </Tabs>
      )}
    </>
  );
}
