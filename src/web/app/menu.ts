/**
 * The side menu, in the specification's fixed order. Each entry names the privilege(s) that show it; an entry
 * appears only once its screen has a route, so a new screen plugs in by adding its route. The one entry the
 * specification does not list, the background jobs, sits after the screens that start them (subscribers' bulk
 * actions and the assign-subscribers ranges), keeping the specification's entries in their order. An entity schema
 * adds its own entry with `x-entity.menu` (placed after a named entry, with an icon of MENU_ICONS).
 */
import {
  AutomaticUpdatesIcon,
  BookIcon,
  BoxIcon,
  CellTowerIcon,
  CogIcon,
  CreditCardIcon,
  DashboardIcon,
  DatabaseIcon,
  DocumentIcon,
  DollarIcon,
  EnvelopeIcon,
  FolderCloseIcon,
  GlobeIcon,
  GlobeNetworkIcon,
  IdNumberIcon,
  InboxIcon,
  KeyIcon,
  LayersIcon,
  ListIcon,
  MapIcon,
  MapMarkerIcon,
  MobilePhoneIcon,
  OfficeIcon,
  PeopleIcon,
  PersonIcon,
  PhoneIcon,
  PropertiesIcon,
  SatelliteIcon,
  ShopIcon,
  ShoppingCartIcon,
  SwapHorizontalIcon,
  TagIcon,
  ThListIcon,
  UserIcon,
  type SVGIconProps,
} from '@blueprintjs/icons';
import type { ComponentType } from 'react';
import { hasPrivilege, type PrivilegeItem } from '@shared/privileges';
import type { EntitySchema } from '@shared/schema';
import { ENTITY_SCHEMAS } from '@web/core/schemas';

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

/** The icons a schema's menu entry may name (Blueprint's names); bundled, so each one used must be listed here. */
export const MENU_ICONS: Readonly<Record<string, ComponentType<SVGIconProps>>> = {
  'automatic-updates': AutomaticUpdatesIcon,
  book: BookIcon,
  box: BoxIcon,
  'cell-tower': CellTowerIcon,
  cog: CogIcon,
  'credit-card': CreditCardIcon,
  dashboard: DashboardIcon,
  database: DatabaseIcon,
  document: DocumentIcon,
  dollar: DollarIcon,
  envelope: EnvelopeIcon,
  'folder-close': FolderCloseIcon,
  globe: GlobeIcon,
  'globe-network': GlobeNetworkIcon,
  'id-number': IdNumberIcon,
  inbox: InboxIcon,
  key: KeyIcon,
  layers: LayersIcon,
  list: ListIcon,
  map: MapIcon,
  'map-marker': MapMarkerIcon,
  'mobile-phone': MobilePhoneIcon,
  office: OfficeIcon,
  people: PeopleIcon,
  person: PersonIcon,
  phone: PhoneIcon,
  properties: PropertiesIcon,
  satellite: SatelliteIcon,
  shop: ShopIcon,
  'shopping-cart': ShoppingCartIcon,
  'swap-horizontal': SwapHorizontalIcon,
  tag: TagIcon,
  'th-list': ThListIcon,
  user: UserIcon,
};

/** The specification's entries, in its order. */
export const SPECIFIED_MENU_ENTRIES: readonly MenuEntry[] = [
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

/** The entry an entity schema asks for with `x-entity.menu`: its list route, named by the schema's title (plural). */
export function schemaMenuEntry(schema: EntitySchema): MenuEntry | undefined {
  const { name, menu, routes, privilege } = schema['x-entity'];
  if (!menu || !routes?.list) return undefined;
  return { id: name, path: routes.list, icon: MENU_ICONS[menu.icon] ?? ListIcon, messageId: schema.title, privileges: menu.privileges ?? [privilege] };
}

/**
 * The menu: the specified entries with each schema's entry after the one it names (another schema's entry too).
 * An entry placed after an unknown id goes last; the menu test names it.
 */
export function buildMenu(fixed: readonly MenuEntry[], schemas: readonly EntitySchema[]): MenuEntry[] {
  const menu = [...fixed];
  const anchorOf = new Map<string, string>();
  let pending = schemas.filter((s) => schemaMenuEntry(s));
  while (pending.length) {
    const placeable = pending.filter((s) => menu.some((e) => e.id === s['x-entity'].menu!.after));
    const next = placeable.length ? placeable : pending;
    for (const schema of next) {
      const after = schema['x-entity'].menu!.after;
      let at = menu.findIndex((e) => e.id === after);
      if (at < 0) at = menu.length - 1;
      // After the entries already placed after the same one, so they keep the schemas' order.
      while (at + 1 < menu.length && anchorOf.get(menu[at + 1].id) === after) at++;
      menu.splice(at + 1, 0, schemaMenuEntry(schema)!);
      anchorOf.set(schema['x-entity'].name, after);
    }
    pending = pending.filter((s) => !next.includes(s));
  }
  return menu;
}

export const MENU_ENTRIES: readonly MenuEntry[] = buildMenu(SPECIFIED_MENU_ENTRIES, ENTITY_SCHEMAS);

export function isMenuEntryGranted(entry: MenuEntry, granted: PrivilegeItem[]): boolean {
  return entry.privileges.some((p) => hasPrivilege(granted, p, entry.subPrivilege));
}

/** The entries to show, in menu order: granted and backed by a route. */
export function visibleMenuEntries(granted: PrivilegeItem[], routedPaths: ReadonlySet<string>): MenuEntry[] {
  return MENU_ENTRIES.filter((e) => routedPaths.has(e.path) && isMenuEntryGranted(e, granted));
}
