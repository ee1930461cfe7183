import {
  BankAccountIcon,
  CogIcon,
  CreditCardIcon,
  DollarIcon,
  EnvelopeIcon,
  InboxIcon,
  LabTestIcon,
  NotificationsIcon,
  PeopleIcon,
  PropertiesIcon,
  StyleIcon,
  TagIcon,
  ThListIcon,
  TimelineBarChartIcon,
  type SVGIconProps,
} from '@blueprintjs/icons';
import { Button, Menu, MenuItem, NonIdealState, PopoverNext } from '@blueprintjs/core';
import type { ComponentType } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import { isRoutedPath } from './routePaths';

export interface SettingsLink {
  id: string;
  icon: ComponentType<SVGIconProps>;
  path: string;
  /** Left out until its screen exists; the others show disabled until then. */
  hiddenUntilRouted?: boolean;
}

/** The admin's settings links, in the specification's order, then the admin's own screens. */
export function adminSettingsLinks(resellerId: number): SettingsLink[] {
  return [
    { id: 'manageUsers', icon: PeopleIcon, path: '/users' },
    { id: 'customStyles', icon: StyleIcon, path: '/custom-styles' },
    { id: 'productBilling', icon: BankAccountIcon, path: '/product-billing' },
    { id: 'chartOfAccount', icon: ThListIcon, path: '/chart-of-account' },
    { id: 'labs', icon: LabTestIcon, path: '/labs' },
    { id: 'customFields', icon: PropertiesIcon, path: '/custom-fields' },
    { id: 'paymentMethods', icon: CreditCardIcon, path: '/payment-methods' },
    { id: 'accountSettings', icon: TagIcon, path: `/services/${resellerId}` },
    { id: 'joinRequests', icon: InboxIcon, path: '/admin/join-requests', hiddenUntilRouted: true },
    { id: 'outbox', icon: EnvelopeIcon, path: '/admin/outbox', hiddenUntilRouted: true },
    { id: 'finance', icon: TimelineBarChartIcon, path: '/finance', hiddenUntilRouted: true },
    { id: 'bankWires', icon: DollarIcon, path: '/bank-wires', hiddenUntilRouted: true },
  ];
}

/** The settings icon of the admin's top bar. */
export function AdminSettingsMenu({ resellerId }: { resellerId: number }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const links = adminSettingsLinks(resellerId).filter((l) => !l.hiddenUntilRouted || isRoutedPath(l.path));
  return (
    <PopoverNext
      placement="bottom-end"
      content={
        <Menu aria-label={intl.formatMessage({ id: 'topbar.settings' })} data-testid="settings-menu">
          {links.map((link) => (
            <MenuItem
              key={link.id}
              icon={<link.icon />}
              text={intl.formatMessage({ id: `topbar.settings.${link.id}` })}
              disabled={!isRoutedPath(link.path)}
              onClick={() => navigate(link.path)}
              data-testid={`settings-${link.id}`}
            />
          ))}
        </Menu>
      }
    >
      <Button variant="minimal" icon={<CogIcon />} aria-label={intl.formatMessage({ id: 'topbar.settings' })} data-testid="settings-open" />
    </PopoverNext>
  );
}

/** The admin's notifications: there is no notification source yet, so it says so. */
export function NotificationsMenu() {
  const intl = useIntl();
  return (
    <PopoverNext
      placement="bottom-end"
      content={
        <div className="portal-notifications" data-testid="notifications">
          <NonIdealState
            icon={<NotificationsIcon size={32} />}
            title={<FormattedMessage id="topbar.notifications.none" />}
            description={<FormattedMessage id="topbar.notifications.body" />}
          />
        </div>
      }
    >
      <Button variant="minimal" icon={<NotificationsIcon />} aria-label={intl.formatMessage({ id: 'topbar.notifications' })} data-testid="notifications-open" />
    </PopoverNext>
  );
}
