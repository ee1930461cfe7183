/**
 * The dashboard page's figures, the balance widget's among them, asked for before the page is drawn (see
 * features/dashboard/prefetch.ts). A chunk of its own, small, so a page load can run it before the page's code is in.
 */
import { packagesApi } from '@web/core/packagesApi';
import type { AppDispatch } from '@web/core/rootReducer';
import { prefetchDashboard, seesMoney, type DashboardPrefetch } from '@web/features/dashboard/prefetch';

export function prefetchDashboardPage(dispatch: AppDispatch, what: DashboardPrefetch): void {
  prefetchDashboard(dispatch, what);
  if (seesMoney(what.granted, what.isAdmin)) dispatch(packagesApi.util.prefetch('getLedgerBalance', undefined, {}));
}
