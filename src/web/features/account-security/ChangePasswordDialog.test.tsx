// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { authApi } from '@web/core/authApi';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { MOCK_PASSWORD } from '../../../../mocks/data';
import { mockToken } from '../../../../mocks/token';

const api = setupMockApi();

async function openDialog(token = mockToken('nora')) {
  const rendered = renderWithProviders(<AppRoutes />, { route: '/', preloadedState: signedIn(token) });
  await rendered.user.click(await screen.findByTestId('user-menu'));
  await rendered.user.click(await screen.findByTestId('menu-change-password'));
  const form = await screen.findByTestId('change-password-form');
  return { ...rendered, form };
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const submit = () => screen.getByTestId('change-password-submit') as HTMLButtonElement;

describe('change password dialog', () => {
  it('opens from the user menu and keeps Change disabled until all three fields hold', async () => {
    const { user } = await openDialog();
    expect(screen.getByRole('dialog').textContent).toContain('Change password');
    expect(submit().disabled).toBe(true);
    // The closing menu does not take the focus away from the dialog's first field.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(document.activeElement?.id).toBe('change-currentPassword');

    await user.click(field('Current password'));
    await user.tab();
    expect(screen.getByText('Password is required')).toBeTruthy();

    await user.type(field('Current password'), MOCK_PASSWORD);
    await user.type(field('New password'), 'harbour2026');
    await user.tab();
    expect(document.getElementById('change-newPassword-error')?.textContent).toMatch(/^Password must have at least 8 characters/);
    await user.clear(field('New password'));
    await user.type(field('New password'), 'Harbour#2026');
    await user.type(field('Repeat new password'), 'Harbour#2062');
    await user.tab();
    expect(screen.getByText('The passwords do not match')).toBeTruthy();
    expect(submit().disabled).toBe(true);

    await user.clear(field('Repeat new password'));
    await user.type(field('Repeat new password'), 'Harbour#2026');
    expect(submit().disabled).toBe(false);
    expect(api.requests('/user/password', 'PUT')).toHaveLength(0);
  });

  it('shows a wrong current password under its field', async () => {
    const { user } = await openDialog();
    await user.type(field('Current password'), 'not-my-password');
    await user.type(field('New password'), 'Harbour#2026');
    await user.type(field('Repeat new password'), 'Harbour#2026');
    await user.click(submit());

    await waitFor(() => expect(document.getElementById('change-currentPassword-error')?.textContent).toBe('The current password is not correct'));
    expect(field('Current password').getAttribute('aria-invalid')).toBe('true');
    expect(api.db.users[1].password).toBe(MOCK_PASSWORD);
    // Typing again clears the server's verdict.
    await user.type(field('Current password'), 'x');
    expect(document.getElementById('change-currentPassword-error')).toBeNull();
  });

  it('changes the password, closes and confirms with a toast; the dialog opens empty again', async () => {
    const { user } = await openDialog();
    await user.type(field('Current password'), MOCK_PASSWORD);
    await user.type(field('New password'), 'Harbour#2026');
    await user.type(field('Repeat new password'), 'Harbour#2026');
    await user.click(submit());

    expect(await screen.findByText('Your password has been changed. Your other sessions have been signed out.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('change-password-form')).toBeNull());
    expect(api.requests('/user/password', 'PUT')[0].body).toEqual({ currentPassword: MOCK_PASSWORD, newPassword: 'Harbour#2026' });
    expect(api.db.users[1].password).toBe('Harbour#2026');

    await user.click(screen.getByTestId('user-menu'));
    await user.click(await screen.findByTestId('menu-change-password'));
    const form = await screen.findByTestId('change-password-form');
    expect(within(form).getAllByDisplayValue('')).toHaveLength(3);
  });

  it('keeps this session with the token the answer carries, while the earlier token stops working', async () => {
    const before = mockToken('nora');
    const { user, store, reload } = await openDialog(before);
    // A call already on its way with the earlier token when the password changes: refused, then sent again.
    let changed = () => {};
    const passwordChanged = new Promise<void>((resolve) => {
      changed = resolve;
    });
    api.server.use(
      http.get('*/reseller-info/list', async () => {
        await passwordChanged;
      }),
    );
    const inFlight = store.dispatch(authApi.endpoints.getResellerInfoList.initiate());

    await user.type(field('Current password'), MOCK_PASSWORD);
    await user.type(field('New password'), 'Harbour#2026');
    await user.type(field('Repeat new password'), 'Harbour#2026');
    await user.click(submit());
    await waitFor(() => expect(store.getState().auth.token).not.toBe(before));
    const after = store.getState().auth.token!;
    expect(sessionStorage.getItem('portal.token')).toBe(after);
    changed();

    expect((await inFlight).data).toBeTruthy();
    const retried = api.requests('/reseller-info/list');
    expect(retried.map((r) => r.headers.get('authorization'))).toEqual([`Bearer ${before}`, `Bearer ${after}`]);
    expect((await fetch('/portal/user', { headers: { authorization: `Bearer ${before}` } })).status).toBe(401);
    expect((await fetch('/portal/user', { headers: { authorization: `Bearer ${after}` } })).status).toBe(200);
    expect(store.getState().auth.token).toBe(after);
    expect(reload).not.toHaveBeenCalled();
    inFlight.unsubscribe();
  });

  it('cancels without calling the server', async () => {
    const { user } = await openDialog();
    await user.type(field('Current password'), MOCK_PASSWORD);
    await user.click(screen.getByTestId('change-password-cancel'));
    await waitFor(() => expect(screen.queryByTestId('change-password-form')).toBeNull());
    expect(api.requests('/user/password')).toHaveLength(0);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('user-menu')));
  });
});
