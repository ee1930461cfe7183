// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { mockToken } from '../../../../mocks/token';
import type { ListNetwork, StateCounts } from './profilesApi';

const api = setupMockApi();

const counts = (states: Partial<StateCounts>): StateCounts => ({
  pending: 0,
  blocked: 0,
  preferred: 0,
  removed: 0,
  pendingRemoval: 0,
  pendingChanges: 0,
  ...states,
});
const network = (plmn: string, state: ListNetwork['state'], operator: string): ListNetwork => ({
  networkId: Number(plmn),
  plmn,
  mcc: plmn.slice(0, 3),
  mnc: plmn.slice(3),
  country: 'GB',
  operator,
  brand: null,
  state,
  inFlight: false,
});

const noImpact = { allowedListId: 1, plmns: [], total: 0, countries: [], subscribers: { items: [], totalItemsCount: 0, totalPageCount: 1, currentPage: 0 } };

/** A list with two British networks, one blocked; the core network's side is played by the handlers. */
function render(user: string, impact: object = noImpact) {
  api.db.tables.allowedList = [
    {
      allowedListId: 1,
      name: 'Europe standard',
      reference: 'NW-EU-01',
      uuid: '11111111-1111-4111-8111-111111111111',
      sponsorId: 1,
      resellerId: 10,
      syncStartedAt: null,
      syncFinishedAt: null,
    },
  ];
  api.db.users.find((u) => u.username === 'nora')!.privileges = [{ privilege: 'AllowedLists', subPrivileges: [] }];
  let gb = [network('23415', 'preferred', 'Vodafone'), network('23420', 'blocked', 'Three')];
  const summary = () => ({
    allowedListId: 1,
    counts: counts({ preferred: 1, blocked: 1 }),
    countries: [{ country: 'GB', states: counts({ preferred: 1, blocked: 1 }) }],
  });
  api.server.use(
    http.post('*/portal/allowed-lists/1/impact', () => HttpResponse.json(impact)),
    http.get('*/portal/allowed-lists/1/networks', () => HttpResponse.json(summary())),
    http.get('*/portal/allowed-lists/1/networks/GB', () => HttpResponse.json(gb)),
    http.post('*/portal/admin/block-networks', () => {
      gb = [network('23415', 'pending', 'Vodafone'), gb[1]];
      return HttpResponse.json({ ...summary(), changed: 1 });
    }),
    http.post('*/portal/allowed-lists/1/sync', () => {
      Object.assign(api.db.tables.allowedList[0], { syncTotal: 1, syncDone: 0, syncFailed: 0, syncStartedAt: '2026-01-01T10:00:00Z', syncFinishedAt: null });
      return HttpResponse.json({ allowedListId: 1, sent: 1 }, { status: 202 });
    }),
  );
  return renderWithProviders(<AppRoutes />, { route: '/allowed-list/1', preloadedState: signedIn(mockToken(user)) });
}

describe('allowed list networks', () => {
  it('lets the administrator block a network, then follows the sync until it ends', async () => {
    const { user } = render('admin');
    // The form (RJSF) loads lazily and can take a while on a busy machine.
    await screen.findByDisplayValue('Europe standard', {}, { timeout: 15000 });
    await user.click(await screen.findByTestId('country-toggle-GB'));
    const row = await screen.findByTestId('network-23415');
    expect(row.getAttribute('data-state')).toBe('preferred');
    expect(within(row).getByText('Preferred')).toBeTruthy();
    expect((within(row).getByTestId('network-unblock') as HTMLButtonElement).disabled).toBe(true);
    expect((within(screen.getByTestId('network-23420')).getByTestId('network-block') as HTMLButtonElement).disabled).toBe(true);

    // Nobody was seen on the network lately: the block goes ahead without asking.
    await user.click(within(row).getByTestId('network-block'));
    await waitFor(() => expect(screen.getByTestId('network-23415').getAttribute('data-state')).toBe('pending'));
    expect(api.requests('/portal/allowed-lists/1/impact', 'POST')[0].body).toEqual({ plmns: ['23415'], page: { page: 0, size: 100 } });
    expect(screen.queryByTestId('impact-dialog')).toBeNull();
    expect(api.requests('/portal/admin/block-networks', 'POST')[0].body).toEqual({ allowedListId: 1, blocked: true, plmns: ['23415'] });

    await user.click(screen.getByTestId('allowed-list-sync'));
    await waitFor(() => expect(screen.getByTestId('sync-counts').textContent).toBe('Syncing: 0 of 1 answered, 0 failed'));
    expect((screen.getByTestId('allowed-list-sync') as HTMLButtonElement).disabled).toBe(true);
    // An edit of the form made while the sync is followed is not lost to the polling.
    await user.type(screen.getByDisplayValue('Europe standard'), ' EU');
    // The core network answers: the next poll of the list reads the finished sync.
    Object.assign(api.db.tables.allowedList[0], { syncDone: 1, syncFinishedAt: '2026-01-01T10:00:02Z' });
    await waitFor(() => expect(screen.getByTestId('sync-counts').textContent).toBe('Last sync: 1 of 1 answered, 0 failed'), { timeout: 4000 });
    expect(screen.getByTestId('sync-progress').getAttribute('data-running')).toBe('false');
    expect(screen.getByDisplayValue('Europe standard EU')).toBeTruthy();
  });

  it('shows who a block cuts off, per country and by name, and blocks only once the user confirms', async () => {
    const seen = (subscriberId: number, name: string) => ({
      subscriberId,
      name,
      imsi: `90128000000000${subscriberId}`,
      iccid: '',
      accountId: 101,
      country: 'GB',
      network: 'Vodafone UK',
      lastSeenAt: '2026-01-02T10:00:00Z',
    });
    const impact = {
      allowedListId: 1,
      plmns: ['23415'],
      total: 2,
      countries: [{ country: 'GB', count: 2 }],
      subscribers: { items: [seen(3, 'Tracker 00003'), seen(8, 'Meter 00008')], totalItemsCount: 2, totalPageCount: 1, currentPage: 0 },
    };
    const { user } = render('admin', impact);
    await user.click(await screen.findByTestId('country-toggle-GB', {}, { timeout: 15000 }));
    const row = await screen.findByTestId('network-23415');
    await user.click(within(row).getByTestId('network-block'));
    const dialog = await screen.findByTestId('impact-dialog');
    expect(within(dialog).getByTestId('impact-total').textContent).toBe('2 subscribers affected');
    expect(within(dialog).getByTestId('impact-countries').textContent).toBe('United Kingdom (GB): 2');
    const links = within(within(dialog).getByTestId('impact-subscribers')).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['3', '/subscriber/3'],
      ['8', '/subscriber/8'],
    ]);
    expect(within(dialog).getByText('Meter 00008')).toBeTruthy();

    await user.click(screen.getByTestId('impact-cancel'));
    await waitFor(() => expect(screen.queryByTestId('impact-dialog')).toBeNull());
    expect(api.requests('/portal/admin/block-networks')).toHaveLength(0);
    expect(screen.getByTestId('network-23415').getAttribute('data-state')).toBe('preferred');

    await user.click(within(screen.getByTestId('network-23415')).getByTestId('network-block'));
    await user.click(await screen.findByTestId('impact-confirm'));
    await waitFor(() => expect(screen.getByTestId('network-23415').getAttribute('data-state')).toBe('pending'));
    expect(api.requests('/portal/admin/block-networks', 'POST')[0].body).toEqual({ allowedListId: 1, blocked: true, plmns: ['23415'] });
    await waitFor(() => expect(document.querySelector('.portal-impact-dialog')).toBeNull());
  });

  it('offers no blocking to a reseller, whom the server refuses it', async () => {
    const { user } = render('nora');
    await user.click(await screen.findByTestId('country-toggle-GB'));
    await screen.findByTestId('network-23415');
    expect(screen.queryByTestId('network-block')).toBeNull();
    expect(screen.getByTestId('allowed-list-sync')).toBeTruthy();
  });
});
