// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { mockToken } from '../../../../mocks/token';

const api = setupMockApi();

/** 12 subscribers, 3 and 5 in group 7; two groups, one a saved search. */
function seed() {
  api.db.tables.subscriber = Array.from({ length: 12 }, (_, i) => ({
    subscriberId: i + 1,
    name: `Sensor ${i + 1}`,
    status: 'active',
    imsi: `9012800000000${String(i + 1).padStart(2, '0')}`,
    iccid: `89882280000000000${String(i + 1).padStart(2, '0')}`,
    accountId: 101,
    resellerId: 10,
    balance: 0,
    usageTodayBytes: 0,
    // The mocks match the list's `groupId` filter against this array, as the server does its membership rows.
    groupIds: [3, 5].includes(i + 1) ? [7] : [],
  }));
  api.db.tables.subscriberGroup = [
    { id: 7, name: 'Forklifts', kind: 'static', resellerId: 10, version: 1 },
    { id: 8, name: 'Roaming in Spain', kind: 'search', searchBy: 'network', searchKey: 'ES', resellerId: 10, version: 1 },
  ];
}

async function rowCheckbox(id: number) {
  const grid = await screen.findByTestId('grid-subscriber');
  return waitFor(() => {
    const box = grid.querySelector<HTMLInputElement>(`[row-id="${id}"] input[type="checkbox"]`);
    expect(box).toBeTruthy();
    return box!;
  });
}

const shownIds = () =>
  [...screen.getByTestId('grid-subscriber').querySelectorAll('[row-id]')]
    .map((r) => Number(r.getAttribute('row-id')))
    .filter((v, i, all) => all.indexOf(v) === i);

describe('subscriber groups on the subscribers screen', () => {
  it("offers an account user no way to add members to its reseller's groups, which the server refuses it", async () => {
    seed();
    const nora = api.db.users.find((u) => u.username === 'nora')!;
    nora.accountId = 101;
    nora.privileges.push({ privilege: 'Subscribers', subPrivileges: [] }, { privilege: 'SubscriberDetails', subPrivileges: ['Status'] });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/subscribers', preloadedState: signedIn(mockToken('nora')) });
    await user.click(await rowCheckbox(4));
    await user.click(screen.getByTestId('bulk-actions'));
    expect(await screen.findByTestId('bulk-menu')).toBeTruthy();
    expect(screen.queryByTestId('bulk-add-to-group')).toBeNull();
  });

  it('adds the ticked subscribers to a static group, says what happened to each, and filters the list by the group', async () => {
    api.server.use(
      http.post('*/portal/subscriber-groups/7/members', () =>
        HttpResponse.json({
          results: [
            { subscriberId: 4, outcome: 'added' },
            { subscriberId: 5, outcome: 'already' },
          ],
        }),
      ),
    );
    seed();
    const { user } = renderWithProviders(<AppRoutes />, { route: '/subscribers', preloadedState: signedIn(mockToken('admin')) });
    await user.click(await rowCheckbox(4));
    await user.click(await rowCheckbox(5));
    await user.click(screen.getByTestId('bulk-actions'));
    await user.click(await screen.findByTestId('bulk-add-to-group'));
    const dialog = await screen.findByTestId('add-to-group-dialog');
    // Only static groups take members.
    const select = within(dialog).getByTestId('add-to-group-select') as HTMLSelectElement;
    await waitFor(() => expect([...select.options].map((o) => o.textContent)).toEqual(['Choose a static group…', 'Forklifts']));
    await user.click(within(dialog).getByTestId('add-to-group-submit'));
    expect(within(dialog).getByText('Choose a group')).toBeTruthy();
    expect(api.requests('/subscriber-groups/7/members', 'POST')).toHaveLength(0);
    await user.selectOptions(select, '7');
    await user.click(within(dialog).getByTestId('add-to-group-submit'));
    const result = await within(dialog).findByTestId('add-to-group-result');
    expect(api.requests('/subscriber-groups/7/members', 'POST')[0].body).toEqual({ subscriberIds: [4, 5] });
    expect(result.textContent).toContain('1 added');
    expect(result.textContent).toContain('1 was a member already');
    await user.click(within(dialog).getByTestId('add-to-group-close'));

    // The group picker filters the list by the group: the list asks for searchBy groupId with the group's id.
    const picker = (await screen.findByTestId('subscriber-group-filter')) as HTMLSelectElement;
    await waitFor(() => expect([...picker.options].map((o) => o.textContent)).toEqual(['All groups', 'Forklifts', 'Roaming in Spain']));
    await user.selectOptions(picker, '7');
    await waitFor(() => expect(shownIds().sort((a, b) => a - b)).toEqual([3, 5]));
    const asked = [...api.requests('/subscribers/paged', 'POST'), ...api.requests('/subscribers/search', 'POST')].map((r) => r.body as Record<string, unknown>);
    expect(asked.some((b) => b.searchBy === 'groupId' && b.searchKey === '7')).toBe(true);
    // Back to every subscriber.
    await user.selectOptions(picker, '');
    await waitFor(() => expect(shownIds()).toHaveLength(12));
  });
});
