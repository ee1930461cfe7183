// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import { Icons } from '@blueprintjs/icons';
import { describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { MOCK_PASSWORD } from '../../../../mocks/data';

const api = setupMockApi();

const userName = () => screen.getByLabelText('Username or e-mail') as HTMLInputElement;
const password = () => screen.getByLabelText('Password') as HTMLInputElement;

describe('login screen', () => {
  it('guards every route: an unknown address without a token shows the sign-in form', async () => {
    renderWithProviders(<AppRoutes />, { route: '/accounts?page=3' });
    expect(await screen.findByTestId('sign-in-form')).toBeTruthy();
    expect(screen.queryByTestId('side-menu')).toBeNull();
    expect(api.requests('/portal/accounts/paged')).toHaveLength(0);
  });

  it('renders with bundled icons only, so no icon set is downloaded', async () => {
    const load = vi.spyOn(Icons, 'load');
    renderWithProviders(<AppRoutes />, { route: '/login' });
    await screen.findByTestId('sign-in-form');
    expect(load).not.toHaveBeenCalled();
    load.mockRestore();
  });

  it('asks for both fields before calling the server', async () => {
    const { user } = renderWithProviders(<AppRoutes />, { route: '/login' });
    await user.click(await screen.findByTestId('sign-in-submit'));
    expect(screen.getByText('Name is required')).toBeTruthy();
    expect(screen.getByText('Required.')).toBeTruthy();
    expect(api.requests('/portal/auth')).toHaveLength(0);
  });

  it('shows the login error and clears both fields when the server answers 401', async () => {
    const { user, store } = renderWithProviders(<AppRoutes />, { route: '/login' });
    await user.type(await screen.findByLabelText('Username or e-mail'), 'nora');
    await user.type(password(), 'wrong-password');
    await user.click(screen.getByTestId('sign-in-submit'));

    expect((await screen.findByTestId('login-error')).textContent).toBe('Sign-in failed: the username or password is not correct.');
    expect(api.requests('/portal/auth', 'POST')[0].body).toEqual({ userName: 'nora', password: 'wrong-password' });
    expect(userName().value).toBe('');
    expect(password().value).toBe('');
    // Validation starts afresh: the cleared fields are not flagged.
    expect(screen.queryByText('Name is required')).toBeNull();
    expect(store.getState().auth.status).toBe('error');
    expect(store.getState().auth.token).toBeNull();
  });

  it('signs in with the e-mail, goes to the dashboard and keeps the token for the session only', async () => {
    const { user, store } = renderWithProviders(<AppRoutes />, { route: '/login' });
    await user.type(await screen.findByLabelText('Username or e-mail'), 'nora@northwind.test');
    await user.type(password(), MOCK_PASSWORD);
    await user.click(screen.getByTestId('sign-in-submit'));

    expect((await screen.findByTestId('dashboard-welcome')).textContent).toContain('Welcome, Nora');
    expect(screen.getByTestId('location').textContent).toBe('/');
    expect(store.getState().auth.status).toBe('success');
    expect(sessionStorage.getItem('portal.token')).toBe(store.getState().auth.token);
    expect(localStorage.getItem('portal.token')).toBeNull();
    // Then the plan lists, the privileges and the logo load, on the dashboard, which names none of them.
    await waitFor(() => expect(api.requests('/portal/pricing-plans/', 'GET')).toHaveLength(1));
    expect(api.requests('/portal/user/ui-privileges', 'GET').length).toBeGreaterThan(0);
    expect(store.getState().api.queries['getPricingPlans(undefined)']?.data).toMatchObject({
      pricingPlans: expect.arrayContaining([{ pricingPlanId: 2, pricingPlanName: 'Northwind Europe', assignable: true }]),
    });
  });

  it('keeps the token in local storage when "remember me" is ticked', async () => {
    const { user, store } = renderWithProviders(<AppRoutes />, { route: '/' });
    await user.type(await screen.findByLabelText('Username or e-mail'), 'admin');
    await user.type(password(), MOCK_PASSWORD);
    await user.click(screen.getByLabelText('Remember me'));
    await user.click(screen.getByTestId('sign-in-submit'));

    await screen.findByTestId('dashboard-welcome');
    expect(localStorage.getItem('portal.token')).toBe(store.getState().auth.token);
    expect(sessionStorage.getItem('portal.token')).toBeNull();
  });

  it('shows the cookie banner until Continue is pressed, and remembers the answer', async () => {
    const first = renderWithProviders(<AppRoutes />, { route: '/login' });
    await first.user.click(await screen.findByTestId('cookie-continue'));
    expect(screen.queryByTestId('cookie-banner')).toBeNull();
    expect(localStorage.getItem('portal.cookieConsent')).toBe('accepted');
    first.unmount();

    renderWithProviders(<AppRoutes />, { route: '/login' });
    await screen.findByTestId('sign-in-form');
    await waitFor(() => expect(screen.queryByTestId('cookie-banner')).toBeNull());
  });
});
