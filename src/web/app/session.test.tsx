// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { makeStore } from '@web/app/store';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { mockToken } from '../../../mocks/token';

const api = setupMockApi();

describe('session', () => {
  it('signs out once, goes home and reloads when a call answers 401 while a token is stored', async () => {
    // A user the server does not know: every call answers 401.
    const token = mockToken('ghost');
    sessionStorage.setItem('portal.token', token);
    const { store, reload, navigateHome } = renderWithProviders(<AppRoutes />, {
      route: '/accounts',
      preloadedState: signedIn(token),
    });

    await waitFor(() => expect(reload).toHaveBeenCalled());
    // Profile, privileges and version fail together; the page reloads once.
    await waitFor(() => expect(api.requests('/portal/user/ui-privileges')).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(reload).toHaveBeenCalledTimes(1);
    expect(navigateHome).toHaveBeenCalled();
    expect(store.getState().auth.token).toBeNull();
    expect(store.getState().auth.profile).toBeNull();
    expect(sessionStorage.getItem('portal.token')).toBeNull();
    expect(await screen.findByTestId('sign-in-form')).toBeTruthy();
  });

  it('does not sign out on a 401 without a token (a refused sign-in)', async () => {
    const reload = vi.fn();
    const store = makeStore(undefined, { reload, navigateHome: vi.fn() });
    const { authApi } = await import('@web/core/authApi');
    await store.dispatch(authApi.endpoints.login.initiate({ userName: 'nora', password: 'nope', remember: false }));
    expect(reload).not.toHaveBeenCalled();
    expect(store.getState().auth.status).toBe('error');
  });

  it('renews at once a token with 900 s or less left, and stores the new one', async () => {
    const old = mockToken('nora', 600);
    const store = makeStore(signedIn(old), { reload: vi.fn(), navigateHome: vi.fn() });
    await waitFor(() => expect(api.requests('/portal/auth/renew')).toHaveLength(1));
    expect(api.requests('/portal/auth/renew')[0].headers.get('authorization')).toBe(`Bearer ${old}`);
    await waitFor(() => expect(store.getState().auth.token).not.toBe(old));
    expect(sessionStorage.getItem('portal.token')).toBe(store.getState().auth.token);
  });

  it('schedules renewal 900 s before expiry when more time remains', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const token = mockToken('nora', 3600);
      makeStore(signedIn(token), { reload: vi.fn(), navigateHome: vi.fn() });
      await vi.advanceTimersByTimeAsync((3600 - 900) * 1000 - 1000);
      expect(api.requests('/portal/auth/renew')).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(2000);
      vi.useRealTimers();
      await waitFor(() => expect(api.requests('/portal/auth/renew')).toHaveLength(1));
    } finally {
      vi.useRealTimers();
    }
  });

  it('applies the profile preferences and saves a change of dark mode', async () => {
    api.db.users[1].preferences = JSON.stringify([
      { type: 'lang', value: 'de' },
      { type: 'currency', value: 'EUR' },
    ]);
    const { user, store } = renderWithProviders(<AppRoutes />, { route: '/', preloadedState: signedIn(mockToken('nora')) });
    await waitFor(() => expect(store.getState().preferences.lang).toBe('de'));
    expect(store.getState().preferences.currency).toBe('EUR');
    // The German catalogue loads on demand; the switch is in the user menu.
    await user.click(await screen.findByTestId('user-menu'));
    const darkMode = await screen.findByLabelText('Dunkelmodus');
    await user.click(darkMode);

    await waitFor(() => expect(api.requests('/portal/user/preferences', 'POST')).toHaveLength(1));
    const saved = JSON.parse((api.requests('/portal/user/preferences')[0].body as { preferences: string }).preferences);
    expect(saved).toEqual([
      { type: 'darkMode', value: 'true' },
      { type: 'lang', value: 'de' },
      { type: 'currency', value: 'EUR' },
    ]);
    expect(document.body.classList.contains('bp6-dark')).toBe(true);
    expect(document.documentElement.lang).toBe('de');
  });

  it('ignores preferences that are not valid JSON', async () => {
    api.db.users[2].preferences = '{not json';
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { store } = renderWithProviders(<AppRoutes />, { route: '/', preloadedState: signedIn(mockToken('viewer')) });
    await screen.findByTestId('dashboard-welcome');
    expect(warn).toHaveBeenCalled();
    expect(store.getState().preferences.darkMode).toBe(false);
    // No first name: the greeting falls back to the reseller's name.
    expect(screen.getByTestId('dashboard-welcome').textContent).toContain('Welcome, Blue Sky Telecom');
    warn.mockRestore();
  });

  it('switches to Hebrew right to left', async () => {
    const { user } = renderWithProviders(<AppRoutes />, { route: '/', preloadedState: signedIn(mockToken('nora')) });
    await user.selectOptions(await screen.findByTestId('language-select'), 'he');
    await waitFor(() => expect(document.documentElement.dir).toBe('rtl'));
    expect(document.documentElement.lang).toBe('he');
    expect(await screen.findByText('התנתקות')).toBeTruthy();
  });

  it('signs out from the top bar', async () => {
    const { user, store, reload } = renderWithProviders(<AppRoutes />, { route: '/', preloadedState: signedIn(mockToken('nora')) });
    await user.click(await screen.findByTestId('sign-out'));
    expect(reload).toHaveBeenCalledTimes(1);
    expect(store.getState().auth.token).toBeNull();
    expect(await screen.findByTestId('sign-in-form')).toBeTruthy();
  });
});
