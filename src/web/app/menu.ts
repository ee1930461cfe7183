/**
 * The side menu, in the specification's fixed order. Each entry names the privilege(s) that show it; an entry
 * appears only once its screen has a route, so a new screen plugs in by adding its route. The one entry the
 * specification does not list, the background jobs, sits after the screens that start them (subscribers' bulk
 * actions and the assign-subscribers ranges), keeping the specification's entries in their order.
 */
import {
  AutomaticUpdatesIcon,
  BookIcon,
  BoxIcon,
  DashboardIcon,
  DocumentIcon,
  DollarIcon,
  GlobeIcon,
  GlobeNetworkIcon,
  KeyIcon,
  MapIcon,
  MapMarkerIcon,
  MobilePhoneIcon,
  OfficeIcon,
  PeopleIcon,
  ShopIcon,
  ShoppingCartIcon,
  SwapHorizontalIcon,
  ThListIcon,
  UserIcon,
  type SVGIconProps,
} from '@blueprintjs/icons';
import type { ComponentType } from 'react';
import { hasPrivilege, type PrivilegeItem } from '@shared/privileges';

export interface MenuEntry {
  /** Stable id, also used in the entry's test id (`menu-<id>`). */
  id: string;
  path: string;
  /** An icon component, bundled with the menu so no icon set is downloaded at run time. */
  icon: ComponentType<SVGIconProps>;
  messageId: string;
  /** Shown when any of these is granted. */
  privileges: string[];
  /** And, when set, this sub-privilege of the granted privilege. */
  subPrivilege?: string;
}

export const MENU_ENTRIES: readonly MenuEntry[] = [
  { id: 'Dashboard', path: '/', icon: DashboardIcon, messageId: 'menu.Dashboard', privileges: ['Dashboard'] },
  { id: 'Subscribers', path: '/subscribers', icon: MobilePhoneIcon, messageId: 'menu.Subscribers', privileges: ['Subscribers'] },
  { id: 'Resellers', path: '/resellers', icon: OfficeIcon, messageId: 'menu.Resellers', privileges: ['Resellers'] },
  { id: 'Accounts', path: '/accounts', icon: PeopleIcon, messageId: 'menu.Accounts', privileges: ['Accounts'] },
  { id: 'SimOrders', path: '/orders', icon: ShoppingCartIcon, messageId: 'menu.SimOrders', privileges: ['SimOrders'] },
  // One entry for both privileges: the screen has a tab for each.
  { id: 'Profiles', path: '/profiles', icon: GlobeNetworkIcon, messageId: 'menu.Profiles', privileges: ['RoamingProfile', 'AllowedLists'] },
  { id: 'LocationZones', path: '/location-zones', icon: MapMarkerIcon, messageId: 'menu.LocationZones', privileges: ['LocationZones'] },
  { id: 'DestinationZones', path: '/destination-zones', icon: MapIcon, messageId: 'menu.DestinationZones', privileges: ['DestinationZones'] },
  { id: 'Inventory', path: '/inventory', icon: BoxIcon, messageId: 'menu.Inventory', privileges: ['Inventory'] },
  { id: 'Templates', path: '/templates', icon: DocumentIcon, messageId: 'menu.Templates', privileges: ['PrePaidTemplates'] },
  { id: 'Packages', path: '/packages', icon: ShopIcon, messageId: 'menu.Packages', privileges: ['PrePaidPackages'], subPrivilege: 'Sales' },
  { id: 'Plans', path: '/pricing-plans', icon: ThListIcon, messageId: 'menu.Plans', privileges: ['PricingPlans'] },
  { id: 'InternationalPlans', path: '/international-plans', icon: GlobeIcon, messageId: 'menu.InternationalPlans', privileges: ['IntPricingPlans'] },
  { id: 'Pricing', path: '/my-pricing', icon: DollarIcon, messageId: 'menu.Pricing', privileges: ['Pricing'] },
  { id: 'AssignSubscribers', path: '/assign-subscribers', icon: SwapHorizontalIcon, messageId: 'menu.AssignSubscribers', privileges: ['MoveSubscribers'] },
  // Jobs are started from the subscriber list and the range screens, both under Subscribers: whoever holds it
  // can start one and follow it here (the screen itself is open to every signed-in user: their own jobs).
  { id: 'Jobs', path: '/jobs', icon: AutomaticUpdatesIcon, messageId: 'menu.Jobs', privileges: ['Subscribers'] },
  { id: 'Users', path: '/users', icon: UserIcon, messageId: 'menu.Users', privileges: ['Users'] },
  { id: 'Roles', path: '/roles', icon: KeyIcon, messageId: 'menu.Roles', privileges: ['Roles'] },
  { id: 'Documentation', path: '/api/documentation', icon: BookIcon, messageId: 'menu.Documentation', privileges: ['Documentation'] },
];

export function isMenuEntryGranted(entry: MenuEntry, granted: PrivilegeItem[]): boolean {
  return entry.privileges.some((p) => hasPrivilege(granted, p, entry.subPrivilege));
}

/** The entries to show, in menu order: granted and backed by a route. */
export function visibleMenuEntries(granted: PrivilegeItem[], routedPaths: ReadonlySet<string>): MenuEntry[] {
  return MENU_ENTRIES.filter((e) => routedPaths.has(e.path) && isMenuEntryGranted(e, granted));
}
