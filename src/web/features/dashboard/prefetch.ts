/**
 * The dashboard's figures asked for before the page is drawn, with the arguments its widgets ask with, so each
 * widget finds its answer in the API's cache or on its way. The page load starts this as soon as the privileges and
 * the profile (whose preferences keep the range last chosen) are known, while the page's code is still arriving.
 */
import { hasPrivilege, type PrivilegeItem } from '@shared/privileges';
import { enhancedApi as graphsApi } from '@web/core/graphsApi.gen';
import type { AppDispatch } from '@web/core/rootReducer';
import { dashboardApi } from './dashboardApi';
import { dashboardRange, rangeBody, savedRange } from './range';

export interface DashboardPrefetch {
  granted: PrivilegeItem[];
  isAdmin: boolean;
  /** The user's preferences (the profile's). */
  preferences: string | null | undefined;
  /** The dashboard address's query (`range`, `from`, `to`). */
  params: URLSearchParams;
}

/** Whether the user sees the reseller's money (the balance, its summary and history), as DashboardPage decides. */
export const seesMoney = (granted: PrivilegeItem[], isAdmin: boolean) =>
  !isAdmin && (hasPrivilege(granted, 'PaymentMethods') || hasPrivilege(granted, 'PrePaidPackages'));

export function prefetchDashboard(dispatch: AppDispatch, { granted, isAdmin, preferences, params }: DashboardPrefetch): void {
  const graphs = hasPrivilege(granted, 'Dashboard');
  const body = rangeBody(dashboardRange(params, savedRange(preferences)));
  if (graphs) {
    dispatch(graphsApi.util.prefetch('postGraphsTrends', {}, {}));
    if (body) {
      dispatch(dashboardApi.util.prefetch('postGraphsCountries', { body }, {}));
      dispatch(graphsApi.util.prefetch('postGraphsUsage', { body }, {}));
      dispatch(graphsApi.util.prefetch('postGraphsSales', { body }, {}));
      // The sales totals open by country.
      dispatch(graphsApi.util.prefetch('postGraphsSalesTotalByCountry', { body }, {}));
    }
  }
  if (graphs || hasPrivilege(granted, 'Subscribers')) dispatch(graphsApi.util.prefetch('postSubscriberInfoTop24Hours', { body: { size: 10 } }, {}));
  if (seesMoney(granted, isAdmin)) dispatch(dashboardApi.util.prefetch('getLedgerSummary', undefined, {}));
}
