// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { accessStateOf } from '../../../../mocks/accessHandlers';
import { MOCK_PASSWORD } from '../../../../mocks/data';

const api = setupMockApi();

const VIEWS = ['sign-in-form', 'join-form', 'privacy-policy', 'reset-request-form', 'reset-new-password-form'] as const;

/** Exactly one view of the login screen is on screen. */
function shownViews() {
  return VIEWS.filter((id) => screen.queryByTestId(id));
}

const location = () => screen.getByTestId('location').textContent;
const REQUESTED = 'If this e-mail address belongs to a user of the portal, a link to reset the password is on its way.';

describe('login screen views', () => {
  it('switches between sign in, join request, privacy policy and password reset, one at a time', async () => {
    const { user } = renderWithProviders(<AppRoutes />, { route: '/login' });
    await screen.findByTestId('sign-in-form');
    expect(shownViews()).toEqual(['sign-in-form']);

    await user.click(screen.getByTestId('show-join'));
    await screen.findByTestId('join-form');
    expect(shownViews()).toEqual(['join-form']);
    await user.click(screen.getByTestId('back-to-sign-in'));
    expect(shownViews()).toEqual(['sign-in-form']);

    await user.click(screen.getByTestId('show-privacy'));
    expect(shownViews()).toEqual(['privacy-policy']);
    await user.click(screen.getByTestId('back-to-sign-in'));

    await user.click(screen.getByTestId('show-reset'));
    await screen.findByTestId('reset-request-form');
    expect(shownViews()).toEqual(['reset-request-form']);
    await user.click(screen.getByTestId('back-to-sign-in'));
    expect(shownViews()).toEqual(['sign-in-form']);
    expect(location()).toBe('/login');
  });

  it('opens the privacy policy from the cookie banner', async () => {
    const { user } = renderWithProviders(<AppRoutes />, { route: '/login' });
    await user.click(await screen.findByTestId('cookie-policy'));
    expect(shownViews()).toEqual(['privacy-policy']);
    // The banner stays until Continue, but no longer offers the policy already shown.
    expect(screen.getByTestId('cookie-banner')).toBeTruthy();
    expect(screen.queryByTestId('cookie-policy')).toBeNull();
  });

  it('opens the new-password view from a reset link; going back removes the query', async () => {
    const { user } = renderWithProviders(<AppRoutes />, { route: '/login?password_reset=abc123&from=mail' });
    await screen.findByTestId('reset-new-password-form');
    expect(shownViews()).toEqual(['reset-new-password-form']);

    await user.click(screen.getByTestId('back-to-sign-in'));
    expect(shownViews()).toEqual(['sign-in-form']);
    expect(location()).toBe('/login');
  });

  it('opens the reset link on a guarded address too, and keeps the sign-in behaviour after going back', async () => {
    const { user } = renderWithProviders(<AppRoutes />, { route: '/accounts?password_reset=abc123' });
    await screen.findByTestId('reset-new-password-form');
    await user.click(screen.getByTestId('back-to-sign-in'));
    expect(location()).toBe('/accounts');
    await user.type(screen.getByLabelText('Username or e-mail'), 'nora');
    await user.type(screen.getByLabelText('Password'), MOCK_PASSWORD);
    await user.click(screen.getByTestId('sign-in-submit'));
    await screen.findByTestId('side-menu');
  });
});

describe('password reset request', () => {
  async function openReset() {
    const rendered = renderWithProviders(<AppRoutes />, { route: '/login' });
    await rendered.user.click(await screen.findByTestId('show-reset'));
    await screen.findByTestId('reset-request-form');
    return rendered;
  }
  const email = () => screen.getByLabelText('E-mail') as HTMLInputElement;

  it('checks the address before asking the server', async () => {
    const { user } = await openReset();
    await user.click(screen.getByTestId('reset-submit'));
    expect(screen.getByText('E-mail is required')).toBeTruthy();
    await user.type(email(), 'nora@northwind');
    await user.click(screen.getByTestId('reset-submit'));
    expect(screen.getByText('E-mail must be valid')).toBeTruthy();
    expect(email().getAttribute('aria-invalid')).toBe('true');
    expect(api.requests('/user/password/reset')).toHaveLength(0);
  });

  it('answers the same for a known and an unknown address, and clears the field after each answer', async () => {
    const { user } = await openReset();
    await user.type(email(), 'nora@northwind.test');
    await user.click(screen.getByTestId('reset-submit'));
    expect((await screen.findByTestId('reset-message')).textContent).toBe(REQUESTED);
    expect(email().value).toBe('');

    await user.type(email(), 'nobody@nowhere.test');
    await user.click(screen.getByTestId('reset-submit'));
    await waitFor(() => expect(api.requests('/user/password/reset', 'PUT')).toHaveLength(2));
    await waitFor(() => expect(email().value).toBe(''));
    expect(screen.getByTestId('reset-message').textContent).toBe(REQUESTED);

    expect(api.requests('/user/password/reset', 'PUT').map((r) => r.body)).toEqual([{ email: 'nora@northwind.test' }, { email: 'nobody@nowhere.test' }]);
    // Only the known address got a link.
    expect([...accessStateOf(api.db).resetTokens.values()]).toEqual([2]);
  });

  it('shows an error and clears the field when the request fails', async () => {
    api.server.use(http.put('/portal/user/password/reset', () => HttpResponse.json({ statusCode: 500, code: 'INTERNAL', message: 'x' }, { status: 500 })));
    const { user } = await openReset();
    await user.type(email(), 'nora@northwind.test');
    await user.click(screen.getByTestId('reset-submit'));
    expect((await screen.findByTestId('reset-error')).textContent).toBe('The reset link could not be requested. Please try again later.');
    expect(email().value).toBe('');
    expect(screen.queryByTestId('reset-message')).toBeNull();
  });
});

describe('new password from a reset link', () => {
  const newPassword = () => screen.getByLabelText('New password') as HTMLInputElement;
  const repeat = () => screen.getByLabelText('Repeat new password') as HTMLInputElement;
  const submit = () => screen.getByTestId('reset-submit') as HTMLButtonElement;

  it('asks for the password rule and a matching repetition before Set is enabled', async () => {
    const { user } = renderWithProviders(<AppRoutes />, { route: '/login?password_reset=tok-1' });
    await screen.findByTestId('reset-new-password-form');
    expect(submit().disabled).toBe(true);

    await user.type(newPassword(), 'short');
    await user.tab();
    expect(document.getElementById('reset-newPassword-error')?.textContent).toBe(
      'Password must have at least 8 characters with a lowercase and an uppercase letter, a digit and one of @#$!%^&+=, and no spaces',
    );
    expect(newPassword().getAttribute('aria-invalid')).toBe('true');

    await user.clear(newPassword());
    await user.type(newPassword(), 'Harbour#2026');
    expect(document.getElementById('reset-newPassword-error')).toBeNull();
    expect(submit().disabled).toBe(true);

    await user.type(repeat(), 'Harbour#2025');
    await user.tab();
    expect(screen.getByText('The passwords do not match')).toBeTruthy();
    expect(submit().disabled).toBe(true);

    await user.clear(repeat());
    await user.tab();
    expect(screen.getByText('Please repeat the new password')).toBeTruthy();
    await user.type(repeat(), 'Harbour#2026');
    expect(screen.queryByText('The passwords do not match')).toBeNull();
    expect(submit().disabled).toBe(false);
    expect(api.requests('/user/password/reset')).toHaveLength(0);
  });

  it('sets the new password with the token, then offers the way back to sign in', async () => {
    accessStateOf(api.db).resetTokens.set('tok-nora', 2);
    const { user } = renderWithProviders(<AppRoutes />, { route: '/login?password_reset=tok-nora' });
    await user.type(await screen.findByLabelText('New password'), 'Harbour#2026');
    await user.type(repeat(), 'Harbour#2026');
    await user.click(submit());

    expect((await screen.findByTestId('reset-message')).textContent).toBe('Your password has been changed. You can now sign in with it.');
    expect(api.requests('/user/password/reset', 'PUT')[0].body).toEqual({ newPassword: 'Harbour#2026', token: 'tok-nora' });
    expect(api.db.users[1].password).toBe('Harbour#2026');

    await user.click(screen.getByTestId('back-to-sign-in'));
    expect(location()).toBe('/login');
    await user.type(screen.getByLabelText('Username or e-mail'), 'nora');
    await user.type(screen.getByLabelText('Password'), 'Harbour#2026');
    await user.click(screen.getByTestId('sign-in-submit'));
    await screen.findByTestId('dashboard-welcome');
  });

  it('says clearly when the link is not valid, and leads to a new request', async () => {
    const { user } = renderWithProviders(<AppRoutes />, { route: '/login?password_reset=expired' });
    await user.type(await screen.findByLabelText('New password'), 'Harbour#2026');
    await user.type(repeat(), 'Harbour#2026');
    await user.click(submit());

    expect((await screen.findByTestId('reset-message')).textContent).toBe('This password reset link is not valid or has expired. Please ask for a new one.');
    await user.click(screen.getByTestId('reset-request-new-link'));
    await screen.findByTestId('reset-request-form');
    expect(shownViews()).toEqual(['reset-request-form']);
    expect(location()).toBe('/login');
  });

  it('shows the server’s verdict on the new password under the field', async () => {
    api.server.use(
      http.put('/portal/user/password/reset', () =>
        HttpResponse.json(
          {
            statusCode: 400,
            code: 'VALIDATION_FAILED',
            message: 'Some fields are not valid',
            fields: [{ field: 'newPassword', rule: 'pattern', messageId: 'validation.password.invalid', message: 'Password must…' }],
          },
          { status: 400 },
        ),
      ),
    );
    const { user } = renderWithProviders(<AppRoutes />, { route: '/login?password_reset=tok-1' });
    await user.type(await screen.findByLabelText('New password'), 'Harbour#2026');
    await user.type(repeat(), 'Harbour#2026');
    await user.click(submit());
    await waitFor(() => expect(newPassword().getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById('reset-newPassword-error')?.textContent).toMatch(/^Password must have at least 8 characters/);
  });
});
