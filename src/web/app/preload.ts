/**
 * What a signed-in page load needs, asked for at once and side by side. Left to the components, each would wait for
 * the one before it: the frame's code, then the profile and privileges (the frame asks for them), then the page's
 * code (drawn only once the privileges allow it), then its figures, then its charts' code.
 */
import { authApi } from '@web/core/authApi';
import { selectIsAdmin } from '@web/core/authSlice';
import type { AppStore } from './store';
import { loadShell } from './LazyShell';
import { readOpeningHint } from '@web/core/openingHint';
import { prefetchListWith, prefetchRouteList } from './preloadLink';
import { preloadRoute, routeList } from './routeTable';

/** The router's path of a hash address (`#/subscribers?x=1` is `/subscribers`). */
export function hashPath(hash: string): string {
  const path = hash.replace(/^#/, '').split(/[?#]/)[0];
  return path.startsWith('/') ? path : '/';
}

/** With a stored session: the profile, the privileges, the frame's code and the current page's code, all at once. */
export function preloadSignedIn(store: AppStore, hash: string): void {
  const { token } = store.getState().auth;
  if (!token) return;
  // Into the API's cache, where the frame's own queries find them (or find them on their way).
  const profile = store.dispatch(authApi.endpoints.getUser.initiate(undefined, { subscribe: false }));
  const privileges = store.dispatch(authApi.endpoints.getUserUiPrivileges.initiate(undefined, { subscribe: false }));
  loadShell().catch(() => undefined);
  const path = hashPath(hash);
  if (path === '/login') return;
  preloadRoute(path);
  if (routeList(path)) {
    const query = hash.split('?')[1] ?? '';
    // A list's first page at once, as the last page load's privileges and saved sort say it opens, side by side with
    // the profile and privileges; when theirs say the same, the screen finds that request, else a second one.
    const hint = readOpeningHint(token);
    if (hint) prefetchListWith(store.dispatch, path, query, hint);
    // A list's first page as soon as the privileges say its screen opens and the profile gives the saved sort, while
    // the screen's code may still be arriving.
    const unsubscribe = store.subscribe(() => {
      const state = store.getState();
      const { isLoading, isUninitialized } = authApi.endpoints.getUserUiPrivileges.select()(state);
      if (isLoading || isUninitialized || state.auth.profileStatus === 'idle' || state.auth.profileStatus === 'loading') return;
      unsubscribe();
      prefetchRouteList(store, path, query);
    });
  }
  if (path === '/') {
    // The dashboard's figures as soon as the privileges say which it may show, while its code may still be arriving.
    const params = new URLSearchParams(hash.split('?')[1] ?? '');
    Promise.all([profile.unwrap(), privileges.unwrap(), import('./dashboard/prefetch')])
      .then(([user, granted, page]) =>
        page.prefetchDashboardPage(store.dispatch, { granted, isAdmin: selectIsAdmin(store.getState()), preferences: user.preferences, params }),
      )
      .catch(() => undefined);
  }
}
