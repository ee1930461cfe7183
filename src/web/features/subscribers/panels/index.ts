/**
 * The subscriber's panels, one per SubscriberDetails sub-privilege (plus quality of service and the daily
 * limit, which everyone sees). Each reads its own call, so a panel the role lacks is never asked for.
 */
export { Panel, type PanelProps, type Subscriber } from './Panel';
export { ApnPanel, CustomFieldsPanel, DetailsPanel, GroupPanel } from './FieldPanels';
export { AccountPanel, ResellerPanel } from './OwnerPanels';
export { LocationPanel, NetworkPanel } from './PlacePanels';
export { SimPanel } from './SimPanel';
export { MigrationPanel, StatusPanel } from './StatusPanels';
export { MsisdnPanel } from './MsisdnPanel';
export { SponsorImsisPanel } from './SponsorImsisPanel';
export { DevicePanel } from './DevicePanel';
export { ServicesPanel } from './ServicesPanel';
export { AllowedNetworksPanel, RoamingProfilePanel } from './RoamingPanels';
export { DailyLimitPanel, QosPanel } from './LimitPanels';
export { NetworkEventsPanel } from './NetworkEventsPanel';
export { UsageLogsPanel } from './UsageLogsPanel';
export { AuditLogsPanel } from './AuditLogsPanel';
