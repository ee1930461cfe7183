// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { mockToken } from '../../../../mocks/token';

const api = setupMockApi();

const germany = { country: 'DE', moCall: 0.05, mtCall: 0.01, moSms: 0.02, mtSms: 0, data: 0.0125 };

function render(user: string) {
  api.db.tables.roamingProfile = [
    { id: 7, name: 'Europe IoT', reference: 'EU-IOT-01', slots: 1, resellerId: 10, reviewState: 'pending', sponsorIds: [], allowedListIds: [], rates: [germany] },
  ];
  api.db.users.find((u) => u.username === 'nora')!.privileges = [{ privilege: 'RoamingProfile', subPrivileges: [] }];
  api.server.use(
    http.post('*/portal/admin/roaming-profiles/7/approve', () => {
      api.db.tables.roamingProfile[0].reviewState = 'approved';
      return HttpResponse.json(api.db.tables.roamingProfile[0]);
    }),
  );
  return renderWithProviders(<AppRoutes />, { route: '/roaming-profile/7', preloadedState: signedIn(mockToken(user)) });
}

const button = (testId: string) => screen.getByTestId(testId) as HTMLButtonElement;

describe('roaming profile detail', () => {
  it('adds and removes countries of the price table and saves it through the profile update', async () => {
    const { user } = render('nora');
    const grid = await screen.findByTestId('grid-rates');
    await waitFor(() => expect(within(grid).getByText('Germany (DE)')).toBeTruthy());
    expect(button('price-table-save').disabled).toBe(true);
    expect(screen.queryByTestId('profile-approve')).toBeNull();

    await user.selectOptions(screen.getByTestId('price-table-country'), 'FR');
    await user.click(screen.getByTestId('price-table-add'));
    await waitFor(() => expect(within(grid).getByText('France (FR)')).toBeTruthy());
    const germanyRow = within(grid).getByText('Germany (DE)').closest('[role="row"]') as HTMLElement;
    await user.click(within(germanyRow).getByRole('button', { name: 'Remove country' }));
    await waitFor(() => expect(within(grid).queryByText('Germany (DE)')).toBeNull());

    await user.click(button('price-table-save'));
    await waitFor(() => expect(api.requests('/portal/roaming-profiles/7', 'PUT')).toHaveLength(1));
    expect(api.requests('/portal/roaming-profiles/7', 'PUT')[0].body).toMatchObject({
      id: 7,
      name: 'Europe IoT',
      rates: [{ country: 'FR', moCall: 0, mtCall: 0, moSms: 0, mtSms: 0, data: 0 }],
    });
    await waitFor(() => expect(button('price-table-save').disabled).toBe(true));
  });

  it('shows the review state and lets the administrator approve', async () => {
    const { user } = render('admin');
    const state = await screen.findByTestId('profile-review-state');
    expect(state.textContent).toBe('Waiting for review');
    await user.click(screen.getByTestId('profile-approve'));
    await waitFor(() => expect(screen.getByTestId('profile-review-state').getAttribute('data-state')).toBe('approved'));
    expect(screen.getByTestId('profile-review-state').textContent).toBe('Approved');
    expect(screen.queryByTestId('profile-approve')).toBeNull();
  });
});
