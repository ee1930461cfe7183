// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse, delay } from 'msw';
import { Icons } from '@blueprintjs/icons';
import { describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { mockToken } from '../../../mocks/token';

const api = setupMockApi();

const entries = () =>
  within(screen.getByTestId('side-menu'))
    .getAllByRole('link')
    .map((a) => a.textContent);

describe('side menu', () => {
  it('shows only the granted entries that have a screen, in the fixed order', async () => {
    // Nora holds Users, Accounts, Dashboard and Search, in that order; Search is not a menu entry.
    const load = vi.spyOn(Icons, 'load');
    renderWithProviders(<AppRoutes />, { route: '/', preloadedState: signedIn(mockToken('nora')) });
    await screen.findByTestId('side-menu');
    expect(entries()).toEqual(['Dashboard', 'Accounts', 'Users']);
    // Menu icons are bundled components: the shell downloads no icon set.
    expect(load).not.toHaveBeenCalled();
    load.mockRestore();
    expect(screen.getByTestId('menu-Accounts').getAttribute('href')).toBe('/accounts');
  });

  it('leaves out what is not granted', async () => {
    renderWithProviders(<AppRoutes />, { route: '/', preloadedState: signedIn(mockToken('viewer')) });
    await screen.findByTestId('side-menu');
    expect(entries()).toEqual(['Dashboard']);
  });

  it('shows nothing until the privileges are loaded', async () => {
    api.server.use(
      http.get('/portal/user/ui-privileges', async () => {
        await delay(150);
        return HttpResponse.json({ userPrivileges: [{ privilege: 'Accounts', subPrivileges: [] }] });
      }),
    );
    renderWithProviders(<AppRoutes />, { route: '/accounts', preloadedState: signedIn(mockToken('nora')) });
    await screen.findByTestId('sign-out');
    expect(screen.queryByTestId('side-menu')).toBeNull();
    await waitFor(() => expect(entries()).toEqual(['Accounts']));
  });

  it('says so when a route needs a privilege the user lacks', async () => {
    renderWithProviders(<AppRoutes />, { route: '/accounts', preloadedState: signedIn(mockToken('viewer')) });
    expect((await screen.findByTestId('no-privilege')).textContent).toBe('The content is not available or you lack privileges to view this page.');
    expect(api.requests('/portal/accounts/paged')).toHaveLength(0);
  });

  it('shows the not-found screen for an unknown address', async () => {
    renderWithProviders(<AppRoutes />, { route: '/no/such/screen', preloadedState: signedIn(mockToken('nora')) });
    expect((await screen.findByTestId('not-found')).textContent).toContain('/no/such/screen');
  });

  it('says a specified screen that is not built yet is coming, behind its privilege', async () => {
    renderWithProviders(<AppRoutes />, { route: '/Account', preloadedState: signedIn(mockToken('admin')) });
    expect((await screen.findByTestId('coming-soon')).textContent).toContain('This screen will come soon');
  });

  it('refuses a specified screen to a user without its privilege', async () => {
    renderWithProviders(<AppRoutes />, { route: '/inventory', preloadedState: signedIn(mockToken('viewer')) });
    expect(await screen.findByTestId('no-privilege')).toBeTruthy();
    expect(screen.queryByTestId('coming-soon')).toBeNull();
  });

  it('greets with the display name and shows the reseller on the dashboard', async () => {
    renderWithProviders(<AppRoutes />, { route: '/', preloadedState: signedIn(mockToken('nora')) });
    const welcome = await screen.findByTestId('dashboard-welcome');
    expect(welcome.textContent).toContain('Welcome, Nora');
    expect(welcome.textContent).toContain('Reseller: Northwind Mobile');
    expect(screen.getByTestId('user-name').textContent).toBe('Nora');
    // The default shortcuts: a screen not granted is disabled; 'Open ticket' opens the support form.
    expect(screen.getByTestId('shortcut-createPlan').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('shortcut-addSubscribers').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('shortcut-openTicket').hasAttribute('disabled')).toBe(false);
  });
});
