// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { seedCustomFields } from '../../../mocks/customFieldHandlers';
import { mockToken } from '../../../mocks/token';

const api = setupMockApi();
const location = () => screen.getByTestId('location').textContent;

describe('top bar', () => {
  it('searches the list being looked at, with the trimmed text, the filter and page 1', async () => {
    const { user } = renderWithProviders(<AppRoutes />, { route: '/accounts', preloadedState: signedIn(mockToken('nora')) });
    await user.click(await screen.findByTestId('search-popup-open'));
    expect((screen.getByTestId('search-popup-page') as HTMLSelectElement).value).toBe('Accounts');
    // Nora is not an admin: no reseller filters.
    const filters = within(screen.getByTestId('search-popup-by'))
      .getAllByRole('option')
      .map((o) => o.getAttribute('value'));
    expect(filters).toEqual(['multi', 'accountId', 'name', 'address', 'city']);
    await user.selectOptions(screen.getByTestId('search-popup-by'), 'city');
    expect(location()).toBe('/accounts'); // no text yet: changing the filter does not search
    await user.type(screen.getByTestId('search-popup-text'), '  Hamburg {Enter}');
    await waitFor(() => expect(location()).toBe('/accounts?searchKey=Hamburg&searchBy=city&page=1'));
  });

  it("offers the custom fields of the page's entity as filters, by their labels", async () => {
    seedCustomFields(api.db);
    const { user } = renderWithProviders(<AppRoutes />, { route: '/subscribers', preloadedState: signedIn(mockToken('admin')) });
    await user.click(await screen.findByTestId('search-popup-open'));
    const by = screen.getByTestId('search-popup-by');
    await waitFor(() => expect(within(by).getByRole('option', { name: 'Contract ref' })).toBeTruthy());
    await user.selectOptions(by, 'custom.contractRef');
    await user.type(screen.getByTestId('search-popup-text'), 'B-9{Enter}');
    await waitFor(() => expect(location()).toBe('/subscribers?searchKey=B-9&searchBy=custom.contractRef&page=1'));
    // Accounts have no custom fields here: only the page's own filters.
    await user.click(await screen.findByTestId('search-popup-open'));
    await user.selectOptions(screen.getByTestId('search-popup-page'), 'Accounts');
    expect(
      within(screen.getByTestId('search-popup-by'))
        .queryAllByRole('option')
        .some((o) => o.getAttribute('value')?.startsWith('custom.')),
    ).toBe(false);
  });

  it('re-runs a search when the filter changes, and says a page is not searchable yet', async () => {
    const { user } = renderWithProviders(<AppRoutes />, { route: '/', preloadedState: signedIn(mockToken('admin')) });
    await user.click(await screen.findByTestId('search-popup-open'));
    await user.selectOptions(screen.getByTestId('search-popup-page'), 'RoamingProfiles');
    await user.type(screen.getByTestId('search-popup-text'), 'EU-1');
    await user.selectOptions(screen.getByTestId('search-popup-by'), 'reference');
    await waitFor(() => expect(location()).toBe('/profiles?tab=1&reference=EU-1&page=1'));
    await user.selectOptions(screen.getByTestId('search-popup-page'), 'Network');
    expect(screen.getByTestId('search-popup-soon').textContent).toBe('This feature will come soon.');
  });

  it('gives the admin the settings links and notifications, and a reseller neither', async () => {
    const { user } = renderWithProviders(<AppRoutes />, { route: '/', preloadedState: signedIn(mockToken('admin')) });
    await user.click(await screen.findByTestId('settings-open'));
    const settings = await screen.findByTestId('settings-menu');
    expect(
      within(settings)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual([
      'Manage users',
      'Custom styles',
      'Product and billing',
      'Chart of accounts',
      'Labs',
      'Custom fields',
      'Payment methods',
      'Account and settings',
      'Join requests',
      'Outgoing mail',
      'Finance',
      'Bank wires to confirm',
    ]);
    await user.click(within(settings).getByText('Manage users'));
    await waitFor(() => expect(location()).toBe('/users'));
    expect(screen.getByTestId('notifications-open')).toBeTruthy();
  });

  it('keeps the settings and notifications from a reseller', async () => {
    renderWithProviders(<AppRoutes />, { route: '/', preloadedState: signedIn(mockToken('nora')) });
    await screen.findByTestId('user-menu');
    expect(screen.queryByTestId('settings-open')).toBeNull();
    expect(screen.queryByTestId('notifications-open')).toBeNull();
  });

  it('saves the chosen currency and shows its dated rate', async () => {
    const { user, store } = renderWithProviders(<AppRoutes />, { route: '/', preloadedState: signedIn(mockToken('nora')) });
    await user.click(await screen.findByTestId('user-menu'));
    expect(screen.getAllByTestId('avatar').map((a) => a.textContent)).toEqual(['N', 'N']);
    await user.click(screen.getByTestId('menu-currency'));
    await user.click(await screen.findByTestId('menu-currency-EUR'));
    expect(store.getState().preferences.currency).toBe('EUR');
    await waitFor(() => expect(api.requests('/portal/user/preferences', 'POST')).toHaveLength(1));
    const saved = JSON.parse((api.requests('/portal/user/preferences')[0].body as { preferences: string }).preferences);
    expect(saved).toContainEqual({ type: 'currency', value: 'EUR' });
    if (!screen.queryByTestId('exchange-rate')) await user.click(screen.getByTestId('user-menu'));
    expect((await screen.findByTestId('exchange-rate')).textContent).toBe('1 USD = 0.9334 EUR (rate of Jul 1, 2024)');
    expect(screen.getByTestId('versions').textContent).toMatch(/^Client \d+\.\d+\.\d+ · Server mock$/);
  });

  it('opens the command palette with Ctrl+K and jumps to an account found by name', async () => {
    const { user } = renderWithProviders(<AppRoutes />, { route: '/', preloadedState: signedIn(mockToken('nora')) });
    await screen.findByTestId('side-menu');
    await user.keyboard('{Control>}k{/Control}');
    const input = await screen.findByPlaceholderText('Screen, or a record by ID or name');
    await user.type(input, 'beacon');
    await user.click(await screen.findByTestId('palette-account:102'));
    await waitFor(() => expect(location()).toBe('/account/102'));
    const search = api.requests('/portal/accounts/search', 'POST').at(-1)?.body;
    expect(search).toMatchObject({ searchKey: 'beacon', searchBy: 'multi' });
  });
});
