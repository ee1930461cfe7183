// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { mockToken } from '../../../../mocks/token';

const api = setupMockApi();

describe("an account's page", () => {
  it('shows the payments made for the account under its form, and only those', async () => {
    api.db.tables.payment = [
      {
        id: 1,
        resellerId: 10,
        accountId: 102,
        method: 'CREDIT_CARD',
        status: 'confirmed',
        amount: 51.5,
        paidAmount: 51.5,
        fee: 1.5,
        creditedAmount: 50,
        currency: 'USD',
        date: '2026-11-20T10:00:00Z',
        confirmationCode: 'OK-1',
      },
      {
        id: 2,
        resellerId: 10,
        accountId: 101,
        method: 'CREDIT_CARD',
        status: 'confirmed',
        amount: 10,
        paidAmount: 10,
        fee: 0,
        creditedAmount: 10,
        currency: 'USD',
        date: '2026-11-21T10:00:00Z',
        confirmationCode: 'OTHER',
      },
    ];
    renderWithProviders(<AppRoutes />, { route: '/account/102', preloadedState: signedIn(mockToken('admin')) });
    const table = await screen.findByTestId('account-payments-table');
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(within(table).getByText('OK-1')).toBeTruthy();
    expect(within(table).queryByText('OTHER')).toBeNull();
  });
});
