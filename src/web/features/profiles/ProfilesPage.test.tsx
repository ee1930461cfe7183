// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { mockToken } from '../../../../mocks/token';

const api = setupMockApi();

function seed() {
  api.db.tables.allowedList = [
    { allowedListId: 1, name: 'Europe standard', reference: 'NW-EU-01', uuid: '11111111-1111-4111-8111-111111111111', sponsorId: 1, resellerId: 10 },
    { allowedListId: 2, name: 'IoT worldwide', reference: 'NW-IOT-01', uuid: '22222222-2222-4222-8222-222222222222', sponsorId: 1, resellerId: 10 },
  ];
  api.db.tables.roamingProfile = [
    { id: 1, name: 'Europe IoT', reference: 'EU-IOT-01', slots: 1, resellerId: 10, reviewState: 'approved' },
    { id: 2, name: 'Americas', reference: 'AMER-001', slots: 2, resellerId: 10, reviewState: 'pending' },
  ];
}

function render(route: string, user = 'admin') {
  seed();
  return renderWithProviders(<AppRoutes />, { route, preloadedState: signedIn(mockToken(user)) });
}

const location = () => screen.getByTestId('location').textContent;

function names(grid: HTMLElement): string[] {
  return within(grid)
    .queryAllByRole('gridcell')
    .filter((c) => c.getAttribute('col-id') === 'name')
    .map((c) => c.textContent ?? '');
}

function lastBody(suffix: string) {
  const found = api.requests(suffix, 'POST');
  return found[found.length - 1]?.body;
}

describe('profiles screen', () => {
  it('opens on allowed lists and follows the tab in the address', async () => {
    const { user } = render('/profiles');
    const lists = await screen.findByTestId('grid-allowedList');
    await waitFor(() => expect(names(lists).sort()).toEqual(['Europe standard', 'IoT worldwide']));

    await user.click(screen.getByRole('tab', { name: 'Roaming profiles' }));
    const profiles = await screen.findByTestId('grid-roamingProfile');
    await waitFor(() => expect(names(profiles).sort()).toEqual(['Americas', 'Europe IoT']));
    expect(location()).toBe('/profiles?tab=1');
    expect(screen.getByRole('tab', { name: 'Roaming profiles' }).getAttribute('aria-selected')).toBe('true');
  });

  it('searches with the filter name as the query key, as the search popup writes it', async () => {
    const { user } = render('/profiles?tab=1&profileId=2&page=1');
    const profiles = await screen.findByTestId('grid-roamingProfile');
    await waitFor(() => expect(names(profiles)).toEqual(['Americas']));
    expect(lastBody('/portal/roaming-profiles/paged')).toMatchObject({ searchBy: 'id', searchKey: '2' });
    expect((screen.getByTestId('list-search-by') as HTMLSelectElement).value).toBe('id');

    await user.selectOptions(screen.getByTestId('list-search-by'), 'reference');
    await user.clear(screen.getByTestId('list-search'));
    await user.type(screen.getByTestId('list-search'), 'eu-iot{Enter}');
    await waitFor(() => expect(names(profiles)).toEqual(['Europe IoT']));
    expect(location()).toBe('/profiles?tab=1&reference=eu-iot&page=1');
    expect(lastBody('/portal/roaming-profiles/paged')).toMatchObject({ searchBy: 'reference', searchKey: 'eu-iot' });
  });

  it('shows only the tabs the user holds the privilege of', async () => {
    seed();
    api.db.users.find((u) => u.username === 'nora')!.privileges = [{ privilege: 'AllowedLists', subPrivileges: [] }];
    renderWithProviders(<AppRoutes />, { route: '/profiles?tab=1', preloadedState: signedIn(mockToken('nora')) });
    await screen.findByTestId('grid-allowedList');
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Allowed lists']);
    expect(api.requests('/portal/roaming-profiles/paged')).toHaveLength(0);
  });
});
