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

const noImpact = { roamingProfileId: 7, plmns: [], total: 0, countries: [], subscribers: { items: [], totalItemsCount: 0, totalPageCount: 1, currentPage: 0 } };

function render(user: string, impact: object = noImpact, allowedListIds: number[] = []) {
  api.db.tables.roamingProfile = [
    {
      id: 7,
      name: 'Europe IoT',
      reference: 'EU-IOT-01',
      slots: 1,
      resellerId: 10,
      reviewState: 'pending',
      sponsorIds: [],
      allowedListIds,
      rates: [germany],
    },
  ];
  api.db.users.find((u) => u.username === 'nora')!.privileges = [{ privilege: 'RoamingProfile', subPrivileges: [] }];
  api.server.use(
    http.post('*/portal/roaming-profiles/7/impact', () => HttpResponse.json(impact)),
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
    // Germany left the table: its impact was asked first, and nobody seen there let the save go ahead.
    expect(api.requests('/portal/roaming-profiles/7/impact', 'POST')[0].body).toEqual({ countries: ['DE'], page: { page: 0, size: 100 } });
    expect(api.requests('/portal/roaming-profiles/7', 'PUT')[0].body).toMatchObject({
      id: 7,
      name: 'Europe IoT',
      rates: [{ country: 'FR', moCall: 0, mtCall: 0, moSms: 0, mtSms: 0, data: 0 }],
    });
    await waitFor(() => expect(button('price-table-save').disabled).toBe(true));
  });

  it('asks before a save drops a country where subscribers were seen, and saves nothing on cancel', async () => {
    const impact = {
      roamingProfileId: 7,
      plmns: ['26201'],
      total: 1,
      countries: [{ country: 'DE', count: 1 }],
      subscribers: {
        items: [
          {
            subscriberId: 12,
            name: 'Tracker 00012',
            imsi: '901280000000012',
            iccid: '',
            accountId: 101,
            country: 'DE',
            network: 'Telekom.de',
            lastSeenAt: '2026-01-02T10:00:00Z',
          },
        ],
        totalItemsCount: 1,
        totalPageCount: 1,
        currentPage: 0,
      },
    };
    const { user } = render('nora', impact);
    const grid = await screen.findByTestId('grid-rates');
    await waitFor(() => expect(within(grid).getByText('Germany (DE)')).toBeTruthy());
    const germanyRow = within(grid).getByText('Germany (DE)').closest('[role="row"]') as HTMLElement;
    await user.click(within(germanyRow).getByRole('button', { name: 'Remove country' }));
    await user.click(button('price-table-save'));
    const dialog = await screen.findByTestId('impact-dialog');
    expect(within(dialog).getByTestId('impact-countries').textContent).toBe('Germany (DE): 1');
    expect(within(dialog).getByRole('link', { name: '12' }).getAttribute('href')).toBe('/subscriber/12');
    await user.click(screen.getByTestId('impact-cancel'));
    await waitFor(() => expect(screen.queryByTestId('impact-dialog')).toBeNull());
    expect(api.requests('/portal/roaming-profiles/7', 'PUT')).toHaveLength(0);
    // The edit stays, unsaved, to save later.
    expect(button('price-table-save').disabled).toBe(false);

    await user.click(button('price-table-save'));
    await user.click(await screen.findByTestId('impact-confirm'));
    await waitFor(() => expect(api.requests('/portal/roaming-profiles/7', 'PUT')).toHaveLength(1));
    expect(api.requests('/portal/roaming-profiles/7', 'PUT')[0].body).toMatchObject({ id: 7, rates: [] });
    await waitFor(() => expect(document.querySelector('.portal-impact-dialog')).toBeNull());
  });

  it('asks before a save removes an allowed list whose networks subscribers used, and saves nothing on cancel', async () => {
    const impact = {
      roamingProfileId: 7,
      plmns: ['26201'],
      total: 1,
      countries: [{ country: 'DE', count: 1 }],
      subscribers: {
        items: [
          {
            subscriberId: 12,
            name: 'Tracker 00012',
            imsi: '901280000000012',
            iccid: '',
            accountId: 101,
            country: 'DE',
            network: 'Telekom.de',
            lastSeenAt: '2026-01-02T10:00:00Z',
          },
        ],
        totalItemsCount: 1,
        totalPageCount: 1,
        currentPage: 0,
      },
    };
    // The profile holds the list from its first read.
    api.db.tables.allowedList = [{ allowedListId: 3, name: 'EU core networks', resellerId: 10 }];
    const { user } = render('nora', impact, [3]);
    // The profile's form is a chunk of its own, loaded with its pickers' lists: slower than the price table on a busy machine.
    const tag = await screen.findByText('EU core networks', { selector: '.bp6-tag *, .bp6-tag' }, { timeout: 15000 });
    await user.click(within(tag.closest('.bp6-tag') as HTMLElement).getByRole('button'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByTestId('impact-dialog');
    expect(api.requests('/portal/roaming-profiles/7/impact', 'POST')[0].body).toMatchObject({ allowedListIds: [3] });
    expect(within(dialog).getByTestId('impact-countries').textContent).toBe('Germany (DE): 1');
    await user.click(screen.getByTestId('impact-cancel'));
    await waitFor(() => expect(screen.queryByTestId('impact-dialog')).toBeNull());
    expect(api.requests('/portal/roaming-profiles/7', 'PUT')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await user.click(await screen.findByTestId('impact-confirm'));
    await waitFor(() => expect(api.requests('/portal/roaming-profiles/7', 'PUT')).toHaveLength(1));
    expect(api.requests('/portal/roaming-profiles/7', 'PUT')[0].body).toMatchObject({ id: 7, allowedListIds: [] });
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
