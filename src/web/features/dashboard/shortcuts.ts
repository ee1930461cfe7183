/**
 * The dashboard's quick shortcuts: the ones a user may place, the default choice, and the user's own choice and order
 * (kept in the user's preferences on the server). A shortcut links to its screen once that screen has a route and
 * the user holds its privilege; until then it shows, disabled, so the dashboard reads the same for everyone.
 * 'Open ticket' opens the support request form.
 */
import {
  AddIcon,
  ChatIcon,
  CreditCardIcon,
  MobilePhoneIcon,
  NewPersonIcon,
  PeopleIcon,
  ShopIcon,
  TimelineBarChartIcon,
  type SVGIconProps,
} from '@blueprintjs/icons';
import { useCallback, useMemo, type ComponentType } from 'react';
import { usePreference } from '@web/engine/usePreference';

export interface Shortcut {
  id: string;
  messageId: string;
  icon: ComponentType<SVGIconProps>;
  /** A react-router path; absent for an action (the support request form). */
  path?: string;
  privilege?: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { id: 'createPlan', messageId: 'dashboard.shortcut.createPlan', icon: AddIcon, path: '/pricing-plan/new', privilege: 'PricingPlans' },
  { id: 'addSubscribers', messageId: 'dashboard.shortcut.addSubscribers', icon: MobilePhoneIcon, path: '/assign-subscribers', privilege: 'MoveSubscribers' },
  { id: 'openTicket', messageId: 'dashboard.shortcut.openTicket', icon: ChatIcon },
  { id: 'createAccount', messageId: 'dashboard.shortcut.createAccount', icon: NewPersonIcon, path: '/account/new', privilege: 'Accounts' },
  { id: 'subscribers', messageId: 'dashboard.shortcut.subscribers', icon: PeopleIcon, path: '/subscribers', privilege: 'Subscribers' },
  { id: 'packages', messageId: 'dashboard.shortcut.packages', icon: ShopIcon, path: '/packages', privilege: 'PrePaidPackages' },
  { id: 'payments', messageId: 'dashboard.shortcut.payments', icon: CreditCardIcon, path: '/payment-methods', privilege: 'PaymentMethods' },
  // The dashboard's usage broken down per subscriber, account, reseller, country, operator or group.
  { id: 'usage', messageId: 'dashboard.shortcut.usage', icon: TimelineBarChartIcon, path: '/usage', privilege: 'Dashboard' },
];

export const DEFAULT_SHORTCUTS = ['createPlan', 'addSubscribers', 'openTicket'];
const PREFERENCE = 'dashboardShortcuts';
const byId = new Map(SHORTCUTS.map((s) => [s.id, s]));

/** The user's shortcuts in their order (the default until the user edits them) and a function saving a new choice. */
export function useShortcuts(): [Shortcut[], (ids: string[]) => void] {
  const [saved, save] = usePreference(PREFERENCE);
  const chosen = useMemo(() => {
    const ids = saved === undefined ? DEFAULT_SHORTCUTS : saved.split(',').filter((id) => byId.has(id));
    return [...new Set(ids)].map((id) => byId.get(id)!);
  }, [saved]);
  const choose = useCallback((ids: string[]) => save(ids.filter((id) => byId.has(id)).join(',')), [save]);
  return [chosen, choose];
}
