// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { seedPackages } from '../../../../mocks/packageHandlers';
import { seedSubscribers } from '../../../../mocks/subscriberHandlers';
import { mockToken } from '../../../../mocks/token';

const api = setupMockApi();

function render(route: string, subPrivileges: string[]) {
  seedSubscribers(api.db);
  seedPackages(api.db);
  api.db.users.find((u) => u.username === 'nora')!.privileges.push({ privilege: 'PrePaidPackages', subPrivileges });
  return renderWithProviders(<AppRoutes />, { route, preloadedState: signedIn(mockToken('nora')) });
}

describe('the package sales screen', () => {
  it("lists the sales with the balance, and opens a subscriber's packages from a sale", async () => {
    const { user } = render('/packages', ['Sales']);
    expect((await screen.findByTestId('reseller-balance')).textContent).toBe('Balance: $5,000.00');
    const grid = await screen.findByTestId('grid-prepaidPackage');
    await waitFor(() => expect(within(grid).getAllByText('Europe 30 days 5 GB').length).toBeGreaterThan(0));
    expect(api.requests('/pre-paid-packages/sales', 'POST')[0].body).toMatchObject({ sortBy: 'purchaseDate', sortDir: 'desc', page: { page: 0, size: 50 } });
    await user.click(within(grid).getAllByText('Europe 30 days 5 GB')[0]);
    const panel = await screen.findByTestId('sales-panel');
    expect(within(panel).getByText('Packages of subscriber 7')).toBeTruthy();
    await waitFor(() => expect(within(panel).getAllByTestId('package-row')).toHaveLength(1));
    expect(screen.getByTestId('location').textContent).toContain('subscriber=7');
  });

  it('refuses the screen without the Sales sub-privilege', async () => {
    render('/packages', []);
    await screen.findByTestId('no-privilege');
    expect(api.requests('/pre-paid-packages/sales')).toHaveLength(0);
  });
});
