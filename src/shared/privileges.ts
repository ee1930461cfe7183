/** The fixed privilege catalogue. A role grants a subset of it; the server checks it on every route. */

export interface PrivilegeItem {
  privilege: string;
  subPrivileges: string[];
}

export const SEARCH_PAGES = [
  'Subscribers',
  'Accounts',
  'Users',
  'Network',
  'Resellers',
  'PrepaidTemplates',
  'PricingPlans',
  'LocationZones',
  'DestinationZones',
  'InternationalPlans',
  'AllowedLists',
  'RoamingProfiles',
] as const;

export const SUBSCRIBER_PANELS = [
  'Account',
  'Reseller',
  'Location',
  'IccidSim',
  'NetworkEvents',
  'AllowedNetworks',
  'RoamingProfile',
  'Status',
  'MigrationStatus',
  'Network',
  'Msisdn',
  'UsageLogs',
  'SponsorImsis',
  'GroupName',
  'Apn',
  'ImeiDevice',
  'AuditLogs',
  'Services',
] as const;

export const PRIVILEGE_CATALOGUE: PrivilegeItem[] = [
  { privilege: 'Administrator', subPrivileges: [] },
  { privilege: 'Dashboard', subPrivileges: [] },
  { privilege: 'Subscribers', subPrivileges: [] },
  { privilege: 'Resellers', subPrivileges: [] },
  { privilege: 'Accounts', subPrivileges: [] },
  { privilege: 'SimOrders', subPrivileges: [] },
  { privilege: 'RoamingProfile', subPrivileges: [] },
  { privilege: 'AllowedLists', subPrivileges: [] },
  { privilege: 'LocationZones', subPrivileges: [] },
  { privilege: 'DestinationZones', subPrivileges: [] },
  { privilege: 'Inventory', subPrivileges: [] },
  { privilege: 'PrePaidTemplates', subPrivileges: [] },
  { privilege: 'PrePaidPackages', subPrivileges: ['Sales'] },
  { privilege: 'PricingPlans', subPrivileges: [] },
  { privilege: 'IntPricingPlans', subPrivileges: [] },
  { privilege: 'Pricing', subPrivileges: [] },
  { privilege: 'MoveSubscribers', subPrivileges: [] },
  { privilege: 'Users', subPrivileges: [] },
  { privilege: 'Roles', subPrivileges: [] },
  { privilege: 'Documentation', subPrivileges: [] },
  { privilege: 'PaymentMethods', subPrivileges: [] },
  { privilege: 'CustomFields', subPrivileges: [] },
  { privilege: 'Labs', subPrivileges: [] },
  { privilege: 'Search', subPrivileges: [...SEARCH_PAGES] },
  { privilege: 'SubscriberDetails', subPrivileges: [...SUBSCRIBER_PANELS] },
];

/**
 * The administrator's privilege: a route marked with it is the administrator's alone. It counts only for users of
 * the provider itself (reseller -1), and only a role of the provider may hold it; a provider user whose role lacks
 * it (support staff, order approvers) is a user like any other.
 */
export const ADMIN_ONLY = 'Administrator';
/** Not a privilege either: a route marked with it is open to every signed-in user (e.g. their own jobs). */
export const SIGNED_IN = 'SignedIn';

export const PRIVILEGE_NAMES = PRIVILEGE_CATALOGUE.map((p) => p.privilege);

/** Whether a user of `resellerId` holding `granted` is the administrator. */
export function isAdministrator(resellerId: number, granted: PrivilegeItem[]): boolean {
  return resellerId === ADMIN_RESELLER_ID && hasPrivilege(granted, ADMIN_ONLY);
}

/** Whether every privilege and sub-privilege of `wanted` is in `held`: no one acts on or hands out more than they hold. */
export function privilegesWithin(wanted: PrivilegeItem[], held: PrivilegeItem[]): boolean {
  return wanted.every((w) => {
    const h = held.find((p) => p.privilege === w.privilege);
    return h !== undefined && w.subPrivileges.every((s) => h.subPrivileges.includes(s));
  });
}

export function hasPrivilege(granted: PrivilegeItem[], privilege: string, sub?: string): boolean {
  const item = granted.find((p) => p.privilege === privilege);
  if (!item) return false;
  return sub === undefined || item.subPrivileges.includes(sub);
}

/**
 * Whether a screen marked with `privilege` opens for a user holding `granted`: ADMIN_ONLY for the administrator
 * alone, SIGNED_IN for everyone, any other privilege for those who hold it.
 */
export function opensScreen(granted: PrivilegeItem[], privilege: string, isAdmin: boolean): boolean {
  if (privilege === SIGNED_IN) return true;
  if (privilege === ADMIN_ONLY) return isAdmin;
  return hasPrivilege(granted, privilege);
}

/**
 * Keeps only names the catalogue knows, so a stored role can never grant an unknown privilege. A privilege sent
 * without its sub-privileges grants none of them.
 */
export function normalisePrivileges(items: PrivilegeItem[]): PrivilegeItem[] {
  return PRIVILEGE_CATALOGUE.flatMap((known) => {
    const item = items.find((p) => p.privilege === known.privilege);
    if (!item) return [];
    const held = Array.isArray(item.subPrivileges) ? item.subPrivileges : [];
    return [{ privilege: known.privilege, subPrivileges: known.subPrivileges.filter((s) => held.includes(s)) }];
  });
}

export const ADMIN_RESELLER_ID = -1;
