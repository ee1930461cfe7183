// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { seedResellerPricing } from '../../../../mocks/resellerPricingHandlers';
import { mockToken } from '../../../../mocks/token';

const api = setupMockApi();

function render(route: string, granted = true) {
  seedResellerPricing(api.db);
  if (granted) api.db.users.find((u) => u.username === 'nora')!.privileges.push({ privilege: 'Pricing', subPrivileges: [] });
  return renderWithProviders(<AppRoutes />, { route, preloadedState: signedIn(mockToken('nora')) });
}

describe('the my pricing screen', () => {
  it('shows the plan, the prices per network from the server page, then per country and per zone in their tabs', async () => {
    const { user } = render('/my-pricing');
    const summary = await screen.findByTestId('plan-summary');
    expect(summary.textContent).toContain('Provider Standard');
    expect(summary.textContent).toContain("Networks without a roaming rule of the plan are priced at the plan's default prices.");
    expect(document.title.startsWith('My pricing · ')).toBe(true);
    const grid = await screen.findByTestId('grid-networkPrice');
    await waitFor(() => expect(within(grid).getAllByText('Telekom Deutschland').length).toBeGreaterThan(0));
    expect(within(grid).getAllByText('€0.002').length).toBeGreaterThan(0);
    expect(within(grid).getAllByText('Default').length).toBeGreaterThan(0);
    expect(api.requests('/reseller-pricing/paged', 'POST')[0].body).toMatchObject({ sortBy: 'country', sortDir: 'asc', page: { page: 0, size: 50 } });
    expect(api.requests('/reseller-pricing/countries')).toHaveLength(0);

    await user.click(screen.getByRole('tab', { name: 'Per country' }));
    expect(screen.getByTestId('location').textContent).toContain('view=countries');
    const countries = await screen.findByTestId('grid-countryPrice');
    const swiss = await within(countries).findByText('CH · Switzerland');
    expect(within(swiss.closest('[role="row"]') as HTMLElement).getByText('€0.018')).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: 'Location zones' }));
    const zones = await screen.findByTestId('zones-location-zones');
    await waitFor(() => expect(within(zones).getAllByTestId('zone-row')).toHaveLength(1));
    // Europe: Swisscom's 0.018 is the dearest of its networks.
    expect(within(zones).getByText('€0.018')).toBeTruthy();
  });

  it('searches by network on the server and keeps the search in the address', async () => {
    const { user } = render('/my-pricing');
    await screen.findByTestId('grid-networkPrice');
    await user.selectOptions(screen.getByTestId('list-search-by'), 'network');
    await user.type(screen.getByTestId('list-search'), 'swiss{Enter}');
    await waitFor(() => expect(api.requests('/reseller-pricing/paged', 'POST').at(-1)?.body).toMatchObject({ searchBy: 'network', searchKey: 'swiss' }));
    expect(screen.getByTestId('location').textContent).toContain('searchKey=swiss');
    await waitFor(() => expect(within(screen.getByTestId('grid-networkPrice')).queryByText('Telekom Deutschland')).toBeNull());
  });

  it("previews a sub-reseller's margins and marks the negative ones", async () => {
    const { user } = render('/my-pricing');
    const panel = await screen.findByTestId('margin-preview');
    expect((within(panel).getByTestId('margin-reseller') as HTMLSelectElement).value).toBe('11');
    await user.selectOptions(within(panel).getByTestId('margin-plan'), '2');
    await user.click(within(panel).getByTestId('margin-run'));
    expect((await within(panel).findByTestId('margin-summary')).textContent).toBe('2 networks sell data below what you pay.');
    expect(api.requests('/reseller-pricing/margin-preview', 'POST')[0].body).toEqual({ resellerId: 11, pricingPlanId: 2 });
    const grid = within(panel).getByTestId('grid-margin');
    // Telekom: 0.0035 − 0.002 = 0.0015, 75 %; Swisscom: 0.015 − 0.018 = −0.003, −16.67 %; Orange at the parent's default 0.008 is the other loss.
    await waitFor(() => expect(within(grid).getAllByText('75%').length).toBeGreaterThan(0));
    const negative = within(grid).getAllByText('-16.67%')[0];
    expect(negative.closest('.portal-margin-negative')).not.toBeNull();
    expect(within(grid).getAllByText('-€0.003')[0].closest('.portal-margin-negative')).not.toBeNull();
    expect(within(grid).getAllByText('75%')[0].closest('.portal-margin-negative')).toBeNull();
    // Without Resellers, the plan is only previewed.
    expect(within(panel).queryByTestId('margin-assign')).toBeNull();
    expect(api.requests('/reseller-pricing/plan')).toHaveLength(0);
  });

  it("shows an account user its prices but no margin preview of its reseller's sub-resellers", async () => {
    api.db.users.find((u) => u.username === 'nora')!.accountId = 101;
    render('/my-pricing');
    expect(await screen.findByTestId('prices-networks')).toBeTruthy();
    expect(screen.queryByTestId('margin-preview')).toBeNull();
  });

  it('assigns the previewed plan for a user who manages resellers', async () => {
    api.db.users.find((u) => u.username === 'nora')!.privileges.push({ privilege: 'Resellers', subPrivileges: [] });
    const { user } = render('/my-pricing');
    const panel = await screen.findByTestId('margin-preview');
    await user.selectOptions(within(panel).getByTestId('margin-plan'), '3');
    await user.click(within(panel).getByTestId('margin-run'));
    await user.click(await within(panel).findByTestId('margin-assign'));
    await waitFor(() => expect(api.requests('/reseller-pricing/plan', 'PUT')[0]?.body).toEqual({ resellerId: 11, pricingPlanId: 3 }));
    expect(await within(panel).findByTestId('margin-current')).toBeTruthy();
  });

  it('says so when the role lacks Pricing, without prices', async () => {
    render('/my-pricing', false);
    expect(await screen.findByText(/not available|privileges/i)).toBeTruthy();
    expect(api.requests('/reseller-pricing/paged')).toHaveLength(0);
  });
});
