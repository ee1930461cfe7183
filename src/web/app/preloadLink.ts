/**
 * What a link to a screen starts before it is followed: the screen's code and, for a screen that opens on an
 * entity list, the list's custom fields and first page, once the privileges say the screen opens for the user. A
 * page load starts the same for the page it lands on (`preload.ts`); the side menu's entries on a pointer over them
 * or the focus on them.
 */
import { opensScreen } from '@shared/privileges';
import { authApi } from '@web/core/authApi';
import { selectIsAdmin } from '@web/core/authSlice';
import type { AppDispatch, RootState } from '@web/core/rootReducer';
import { preloadRoute, routeList } from './routeTable';

interface StoreLike {
  getState: () => RootState;
  dispatch: AppDispatch;
}

/** The list's first page of the screen at `path` (`?` and what follows: the list's address), when it opens for the user. */
export function prefetchRouteList(store: StoreLike, path: string, query = ''): void {
  const list = routeList(path);
  if (!list) return;
  const state = store.getState();
  const granted = authApi.endpoints.getUserUiPrivileges.select()(state).data;
  const isAdmin = selectIsAdmin(state);
  if (!granted || !opensScreen(granted, list.privilege, isAdmin)) return;
  const preferences = state.auth.profile?.preferences;
  import('@web/engine/listPage')
    .then((page) => page.prefetchListPage(store.dispatch, list.schema, { params: new URLSearchParams(query), isAdmin, preferences }))
    .catch(() => undefined);
}

/** Everything a link to `path` will need: the screen's code and, where it opens on a list, the list's first page. */
export function preloadLink(store: StoreLike, path: string): void {
  preloadRoute(path);
  prefetchRouteList(store, path);
}
