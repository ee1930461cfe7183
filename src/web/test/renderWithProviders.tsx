import { configure } from '@testing-library/react';
/**
 * Renders a component as the app does (store, language, Blueprint, router) with a store of its own, and a
 * session whose page reload and navigation are spies.
 */
import { render, type RenderOptions } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement, ReactNode } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { vi } from 'vitest';
import type { AuthState } from '@web/core/authState';
import { AppFrame } from '@web/app/AppFrame';
import { makeStore, type AppStore, type RootState } from '@web/app/store';

// Lazy screens load their chunks during a test; on a busy machine that can take over the default second.
configure({ asyncUtilTimeout: 5000 });

/** Shows the router's current address, so tests can read what a page wrote to it. */
export function LocationProbe() {
  const { pathname, search } = useLocation();
  return <output data-testid="location">{pathname + search}</output>;
}

export function signedIn(token: string): Partial<RootState> {
  const auth: AuthState = {
    token,
    remember: false,
    status: 'success',
    profileStatus: 'idle',
    profile: null,
    privileges: null,
  };
  return { auth };
}

interface Options extends Omit<RenderOptions, 'wrapper'> {
  route?: string;
  preloadedState?: Partial<RootState>;
  store?: AppStore;
}

export function renderWithProviders(ui: ReactElement, { route = '/', preloadedState, store, ...options }: Options = {}) {
  const reload = vi.fn();
  const navigateHome = vi.fn();
  const appStore = store ?? makeStore(preloadedState, { reload, navigateHome });
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <Provider store={appStore}>
        <AppFrame>
          <MemoryRouter initialEntries={[route]}>
            {children}
            <LocationProbe />
          </MemoryRouter>
        </AppFrame>
      </Provider>
    );
  }
  return { store: appStore, reload, navigateHome, user: userEvent.setup(), ...render(ui, { wrapper: Wrapper, ...options }) };
}
