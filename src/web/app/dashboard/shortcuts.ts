/**
 * The dashboard's quick shortcuts. Each links to its screen once that screen has a route and the user holds
 * its privilege; until then it shows, disabled, so the dashboard reads the same for everyone.
 */
import { AddIcon, ChatIcon, MobilePhoneIcon, NewPersonIcon, TimelineBarChartIcon, type SVGIconProps } from '@blueprintjs/icons';
import type { ComponentType } from 'react';

export interface Shortcut {
  id: string;
  messageId: string;
  icon: ComponentType<SVGIconProps>;
  /** A react-router path; absent while the screen does not exist. */
  path?: string;
  privilege?: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { id: 'createPlan', messageId: 'dashboard.shortcut.createPlan', icon: AddIcon, path: '/pricing-plan/new', privilege: 'PricingPlans' },
  { id: 'addSubscribers', messageId: 'dashboard.shortcut.addSubscribers', icon: MobilePhoneIcon, path: '/assign-subscribers', privilege: 'MoveSubscribers' },
  { id: 'openTicket', messageId: 'dashboard.shortcut.openTicket', icon: ChatIcon },
  { id: 'createAccount', messageId: 'dashboard.shortcut.createAccount', icon: NewPersonIcon, path: '/account/new', privilege: 'Accounts' },
  // The dashboard's usage broken down per subscriber, account, reseller, country, operator or group.
  { id: 'usage', messageId: 'dashboard.shortcut.usage', icon: TimelineBarChartIcon, path: '/usage', privilege: 'Dashboard' },
];
