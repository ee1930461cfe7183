// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { MOCK_PASSWORD } from '../../../../mocks/data';

const api = setupMockApi();

describe('sign-in of a disabled user', () => {
  it('says the account is disabled rather than that the password is wrong', async () => {
    api.db.users[1].disabled = true;
    const { user, store } = renderWithProviders(<AppRoutes />, { route: '/login' });
    await user.type(await screen.findByLabelText('Username or e-mail'), api.db.users[1].username);
    await user.type(screen.getByLabelText('Password'), MOCK_PASSWORD);
    await user.click(screen.getByTestId('sign-in-submit'));

    expect((await screen.findByTestId('login-error')).textContent).toBe('This account is disabled. Ask your administrator to enable it.');
    expect(store.getState().auth.token).toBeNull();
  });
});
