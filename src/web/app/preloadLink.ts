/**
 * What a link to a screen starts before it is followed: the screen's code and, for a screen that opens on an
 * entity list, the list's custom fields and first page, once the privileges say the screen opens for the user. A
 * page load starts the same for the page it lands on (`preload.ts`); the side menu's entries on a pointer over them
 * or the focus on them.
 */
import { opensScreen } from '@shared/privileges';
import { authApi } from '@web/core/authApi';
import { selectIsAdmin } from '@web/core/authSlice';
import type { OpeningHint } from '@web/core/openingHint';
import type { AppDispatch, RootState } from '@web/core/rootReducer';
import { prefetchListPage } from '@web/engine/listPage';
import { preloadRoute, routeList } from './routeTable';

interface StoreLike {
  getState: () => RootState;
  dispatch: AppDispatch;
}

/** The list's first page of the screen at `path` (`?` and what follows: the list's address), when the privileges given open it. */
export function prefetchListWith(dispatch: AppDispatch, path: string, query: string, { privileges, isAdmin, preferences }: OpeningHint): void {
  const list = routeList(path);
  if (!list || !opensScreen(privileges, list.privilege, isAdmin)) return;
  prefetchListPage(dispatch, list.schema, { params: new URLSearchParams(query), isAdmin, preferences });
}

/** The list's first page of the screen at `path`, when the user's privileges (once in) open it. */
export function prefetchRouteList(store: StoreLike, path: string, query = ''): void {
  const state = store.getState();
  const privileges = authApi.endpoints.getUserUiPrivileges.select()(state).data;
  if (!privileges) return;
  prefetchListWith(store.dispatch, path, query, { privileges, isAdmin: selectIsAdmin(state), preferences: state.auth.profile?.preferences ?? null });
}

/** Everything a link to `path` will need: the screen's code and, where it opens on a list, the list's first page. */
export function preloadLink(store: StoreLike, path: string): void {
  preloadRoute(path);
  prefetchRouteList(store, path);
}
