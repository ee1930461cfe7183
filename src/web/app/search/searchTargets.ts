/**
 * The top search popup's pages and their filters, as the specification lists them. Each page names the Search
 * sub-privilege that offers it and the list it opens; the list reads `searchKey`, `searchBy` and `page` from the
 * address, so a page whose list is not built yet still gets the right address.
 */
import { SEARCH_PAGES } from '@shared/privileges';

export type SearchPage = (typeof SEARCH_PAGES)[number];

export interface SearchTarget {
  /** The Search sub-privilege; also the message id suffix `searchPopup.page.<page>`. */
  page: SearchPage;
  path: string;
  /** Filters in the order shown; the first is the default. Empty for pages not searchable yet. */
  filters: string[];
  /** Profiles: the filter name itself is the query key, and this `tab` picks the tab. */
  tab?: '0' | '1';
  /** Offered, but the search itself is not available yet ('This feature will come soon.'). */
  comingSoon?: boolean;
  /** Admins also filter these lists by reseller id and reseller name. */
  resellerFilters?: boolean;
  /** The entity whose list the page opens, when that entity has custom fields: they are filters too. */
  customEntity?: string;
}

export const ADMIN_FILTERS = ['resellerId', 'resellerName'] as const;

export const SEARCH_TARGETS: readonly SearchTarget[] = [
  {
    page: 'Subscribers',
    path: '/subscribers',
    filters: ['multi', 'subscriberId', 'realImsi', 'sponsorImsi', 'iccid', 'msisdn', 'accountId', 'accountName', 'subscriberName', 'resellerName', 'network'],
    resellerFilters: true,
    customEntity: 'subscriber',
  },
  { page: 'Accounts', path: '/accounts', filters: ['multi', 'accountId', 'name', 'address', 'city'], resellerFilters: true, customEntity: 'account' },
  { page: 'Users', path: '/users', filters: ['multi', 'userId', 'username', 'firstName', 'lastName', 'email'], resellerFilters: true },
  { page: 'Network', path: '/network', filters: [], comingSoon: true },
  { page: 'Resellers', path: '/resellers', filters: ['name', 'id', 'accountId'], customEntity: 'reseller' },
  { page: 'PrepaidTemplates', path: '/templates', filters: ['name', 'id'], resellerFilters: true },
  { page: 'PricingPlans', path: '/pricing-plans', filters: ['name', 'id'], resellerFilters: true },
  { page: 'LocationZones', path: '/location-zones', filters: ['name', 'id', 'includedCountry'], resellerFilters: true },
  { page: 'DestinationZones', path: '/destination-zones', filters: ['name', 'id', 'includedCountry'], resellerFilters: true },
  { page: 'InternationalPlans', path: '/international-plans', filters: [], comingSoon: true },
  { page: 'AllowedLists', path: '/profiles', tab: '0', filters: ['name', 'uuid', 'reference', 'sponsorName'], resellerFilters: true },
  {
    page: 'RoamingProfiles',
    path: '/profiles',
    tab: '1',
    filters: ['name', 'reference', 'profileId', 'allowedListUuid', 'nameAndReference', 'sponsorName'],
    resellerFilters: true,
  },
];

/** The filters a user sees for a page: admins also get the reseller filters where the list has them. */
export function filtersFor(target: SearchTarget, isAdmin: boolean): string[] {
  const extra = isAdmin && target.resellerFilters ? ADMIN_FILTERS.filter((f) => !target.filters.includes(f)) : [];
  return [...target.filters, ...extra];
}

/** The pages the Search sub-privileges allow, in the specification's order. */
export function allowedTargets(searchSubPrivileges: readonly string[]): SearchTarget[] {
  return SEARCH_TARGETS.filter((t) => searchSubPrivileges.includes(t.page));
}

export function findTarget(page: string): SearchTarget | undefined {
  return SEARCH_TARGETS.find((t) => t.page === page);
}

/** The page the popup starts on: the list the user is looking at, else the first allowed page. */
export function targetForLocation(targets: readonly SearchTarget[], pathname: string, search: string): SearchTarget | undefined {
  const tab = new URLSearchParams(search).get('tab') ?? '0';
  const here = targets.filter((t) => t.path === pathname);
  return here.find((t) => t.tab === undefined || t.tab === tab) ?? here[0] ?? targets[0];
}

/**
 * The address a search goes to: the list with the trimmed text, the filter and page 1. On the profiles screen the
 * filter is itself the query key. Null when there is nothing to search (an empty box clears the search, which is
 * the list's plain address).
 */
export function searchAddress(target: SearchTarget, searchKey: string, searchBy: string): string {
  const key = searchKey.trim();
  const params = new URLSearchParams();
  if (target.tab !== undefined) {
    params.set('tab', target.tab);
    if (key) params.set(searchBy, key);
  } else if (key) {
    params.set('searchKey', key);
    params.set('searchBy', searchBy);
  }
  params.set('page', '1');
  return `${target.path}?${params.toString()}`;
}
