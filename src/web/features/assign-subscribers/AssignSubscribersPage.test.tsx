// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { mockToken } from '../../../../mocks/token';

const api = setupMockApi();

const profiles = [
  { id: 7, name: 'Europe IoT', slots: 1, resellerId: 10, resellerName: 'Northwind' },
  { id: 8, name: 'Global dual IMSI', slots: 2, resellerId: 10, resellerName: 'Northwind' },
];

/** Nora may move subscribers; `more` grants her further privileges. */
function render(tab = '', more: { privilege: string; subPrivileges: string[] }[] = []) {
  api.db.users.find((u) => u.username === 'nora')!.privileges = [
    { privilege: 'MoveSubscribers', subPrivileges: [] },
    { privilege: 'Accounts', subPrivileges: [] },
    ...more,
  ];
  api.server.use(http.get('*/portal/roaming-profiles', () => HttpResponse.json(profiles)));
  return renderWithProviders(<AppRoutes />, { route: `/assign-subscribers${tab}`, preloadedState: signedIn(mockToken('nora')) });
}

const SUBSCRIBERS = { privilege: 'Subscribers', subPrivileges: [] };
const MIGRATION = { privilege: 'SubscriberDetails', subPrivileges: ['MigrationStatus'] };
const refused = (fields: object[]) =>
  HttpResponse.json({ statusCode: 400, code: 'VALIDATION_FAILED', message: 'Some fields are not valid', fields }, { status: 400 });

describe('assign subscribers', () => {
  it('checks the range before moving it, naming the field, shows the quantity, and moves it to the chosen account', async () => {
    api.server.use(
      http.post('*/portal/subscribers/move', () => HttpResponse.json({ accountId: 102, total: 12, changed: 11, unchanged: 1, subscriberIds: [] })),
    );
    const { user } = render();
    const form = await screen.findByTestId('assign-move');
    // Only what Nora holds: no roaming profile or migration tab without the Subscribers privilege.
    expect(screen.queryByTestId('assign-tab-roaming')).toBeNull();
    expect(screen.queryByTestId('assign-tab-migrate')).toBeNull();
    expect(screen.getByTestId('assign-tab-inventory')).toBeTruthy();

    await user.click(within(form).getByTestId('move-submit'));
    expect(within(form).getByText('Range start is required')).toBeTruthy();
    expect(within(form).getByText('Range end is required')).toBeTruthy();
    expect(within(form).getByText('Please choose the target account')).toBeTruthy();

    await user.type(screen.getByTestId('move-rangeStart'), '20');
    await user.type(screen.getByTestId('move-rangeEnd'), '9');
    expect(within(form).getByText('Range end must be larger than range start')).toBeTruthy();
    expect(screen.getByTestId('move-quantity').textContent).toBe('–');
    await user.clear(screen.getByTestId('move-rangeEnd'));
    await user.type(screen.getByTestId('move-rangeEnd'), '31');
    expect(within(form).queryByText('Range end must be larger than range start')).toBeNull();
    expect(screen.getByTestId('move-quantity').textContent).toBe('12 SIMs in the range');
    expect(api.requests('/portal/subscribers/move')).toHaveLength(0);

    await waitFor(() => expect(within(screen.getByTestId('move-account')).getByText('Beacon Fleet')).toBeTruthy());
    await user.selectOptions(screen.getByTestId('move-account'), '102');
    await user.click(within(form).getByTestId('move-submit'));
    const done = await screen.findByTestId('move-done');
    expect(done.textContent).toContain('11 subscribers moved (12 in the range, 1 already there).');
    expect(api.requests('/portal/subscribers/move', 'POST')[0].body).toEqual({
      accountId: 102,
      range: { rangeStart: '20', rangeEnd: '31' },
      rangeType: 'SUBSCRIBER_ID',
    });
    expect(within(done).getByTestId('move-show').getAttribute('href')).toBe('/subscribers?searchBy=accountId&searchKey=102&page=1');
  });

  it("shows the server's refusal of a move under the field it names, and one naming subscribers with links to them", async () => {
    let answer = refused([{ field: 'accountId', rule: 'exists', messageId: 'validation.move.account', message: 'Please choose an account you can see' }]);
    api.server.use(http.post('*/portal/subscribers/move', () => answer));
    const { user } = render();
    await user.type(await screen.findByTestId('move-rangeStart'), '1');
    await user.type(screen.getByTestId('move-rangeEnd'), '3');
    await waitFor(() => expect(within(screen.getByTestId('move-account')).getByText('Beacon Fleet')).toBeTruthy());
    await user.selectOptions(screen.getByTestId('move-account'), '102');
    await user.click(screen.getByTestId('move-submit'));
    expect(await screen.findByText('Please choose an account you can see')).toBeTruthy();
    expect(screen.queryByTestId('move-refusal')).toBeNull();

    answer = refused([
      {
        field: 'subscriberIds',
        rule: 'outsideReseller',
        messageId: 'bulk.reason.outsideReseller',
        message: 'x',
        subscriberIds: [2, 3],
        count: 2,
      },
    ]);
    await user.click(screen.getByTestId('move-submit'));
    const refusal = await screen.findByTestId('move-refusal');
    expect(refusal.textContent).toContain('Nothing was changed');
    expect(refusal.textContent).toContain("Its pricing plan or roaming profile cannot be used under the new account's reseller2 subscribers:");
    expect(
      within(refusal)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')),
    ).toEqual(['/subscriber/2', '/subscriber/3']);
  });

  it('gives a range a roaming profile and shows the 1000 limit and the multi-IMSI refusal as the server words them', async () => {
    let answer = refused([{ field: 'range', rule: 'maximum', messageId: 'validation.range.max', message: 'A range change covers at most 1000 subscribers' }]);
    api.server.use(http.post('*/portal/subscribers/roaming-profile', () => answer));
    const { user } = render('?tab=roaming', [SUBSCRIBERS]);
    const form = await screen.findByTestId('assign-roaming');
    await user.selectOptions(screen.getByTestId('roaming-rangeType'), 'IMSI');
    await user.type(screen.getByTestId('roaming-rangeStart'), '901280000000001');
    await user.type(screen.getByTestId('roaming-rangeEnd'), '901280000001001');
    expect(screen.getByTestId('roaming-quantity').textContent).toBe('1,001 SIMs in the range');
    await waitFor(() => expect(within(screen.getByTestId('roaming-target')).getByText('Europe IoT (single IMSI)')).toBeTruthy());
    await user.selectOptions(screen.getByTestId('roaming-target'), '7');
    await user.selectOptions(screen.getByTestId('roaming-source'), '8');
    await user.click(within(form).getByTestId('roaming-submit'));
    expect((await screen.findByTestId('roaming-refusal')).textContent).toContain('A range change covers at most 1000 subscribers');
    expect(api.requests('/portal/subscribers/roaming-profile', 'POST')[0].body).toEqual({
      roamingProfileId: 7,
      range: { rangeStart: '901280000000001', rangeEnd: '901280000001001' },
      rangeType: 'IMSI',
      sourceRoamingProfileId: 8,
    });

    answer = refused([
      {
        field: 'roamingProfileId',
        rule: 'singleImsi',
        messageId: 'validation.roamingProfile.singleImsi',
        message: 'x',
        subscriberIds: [5],
        count: 1,
      },
    ]);
    await user.click(within(form).getByTestId('roaming-submit'));
    await waitFor(() =>
      expect(screen.getByTestId('roaming-refusal').textContent).toContain('A multi-IMSI subscriber cannot be changed to a single-IMSI profile1 subscriber:'),
    );
    expect(within(screen.getByTestId('roaming-refusal')).getByRole('link').getAttribute('href')).toBe('/subscriber/5');
  });

  it('starts a migration and follows each subscriber from pending to success or error without a reload', async () => {
    const statuses: Record<number, string> = { 41: 'pending', 42: 'pending' };
    let job = {
      id: 9,
      kind: 'subscribers.migrate',
      status: 'running',
      total: 2,
      succeeded: 0,
      failed: 0,
      skipped: 0,
      waiting: 0,
      retryOf: null,
      params: {},
      createdAt: '2026-11-20T10:00:00Z',
      startedAt: null,
      finishedAt: null,
    };
    api.server.use(
      http.post('*/portal/summa/subscriber-migration/range', () =>
        HttpResponse.json({ jobId: 9, total: 2, migrationStatus: 'pending', subscriberIds: [41, 42] }, { status: 202 }),
      ),
      http.get('*/portal/jobs/9', () => HttpResponse.json(job)),
      http.get('*/portal/summa/subscriber-migration/:id', ({ params }) =>
        HttpResponse.json({ subscriberId: Number(params.id), migrationStatus: statuses[Number(params.id)] }),
      ),
    );
    const { user } = render('?tab=migrate', [SUBSCRIBERS, MIGRATION]);
    const form = await screen.findByTestId('assign-migrate');
    await user.type(screen.getByTestId('migrate-rangeStart'), '41');
    await user.type(screen.getByTestId('migrate-rangeEnd'), '42');
    await user.click(within(form).getByTestId('migrate-submit'));
    expect((await screen.findByTestId('migrate-started')).textContent).toBe('Migration started for 2 subscribers.');
    await waitFor(() => expect(screen.getByTestId('migration-41').getAttribute('data-status')).toBe('pending'));
    expect(screen.getByTestId('migration-counts').textContent).toBe('Migrating: 0 of 2 answered');

    // The platform answers: the job ends, one migrated, one refused.
    Object.assign(statuses, { 41: 'success', 42: 'error' });
    job = { ...job, status: 'done', succeeded: 1, failed: 1 };
    await waitFor(() => expect(screen.getByTestId('migration-42').getAttribute('data-status')).toBe('error'), { timeout: 4000 });
    expect(screen.getByTestId('migration-41').getAttribute('data-status')).toBe('success');
    expect(within(screen.getByTestId('migration-42')).getByText('Error')).toBeTruthy();
    expect(screen.getByTestId('migration-counts').textContent).toBe('Migration finished: 2 of 2 answered');
    // The refusal counts as the job's failure, with the retry of it.
    const summary = screen.getByTestId('job-9');
    expect(within(summary).getByTestId('job-status').textContent).toBe('Done with failures');
    expect(within(summary).getByTestId('job-failed').textContent).toBe('1 failed');
    expect(within(summary).getByRole('button', { name: 'Retry the failed' })).toBeTruthy();
    expect(api.requests('/portal/summa/subscriber-migration/range', 'POST')[0].body).toEqual({ rangeStart: '41', rangeEnd: '42' });
  });

  it('assigns a range from the inventory: the range fills the first ICCID, the quantity the last, and a refusal shows under its field', async () => {
    const first = '8988228000000000012';
    const ranges = {
      ranges: [
        {
          batchId: 4,
          name: 'NW-2026-01',
          resellerId: 10,
          resellerName: 'Northwind',
          simType: 'physical',
          rangeStart: first,
          rangeEnd: '8988228000000005003',
          total: 500,
          allocated: 0,
          available: 500,
          firstAvailable: first,
          serviceProviderName: null,
          createdAt: '2026-01-02T00:00:00.000Z',
        },
        {
          batchId: 6,
          name: 'HI-2026-02',
          resellerId: 11,
          resellerName: 'Harbor IoT',
          simType: 'physical',
          rangeStart: '8988228000000020001',
          rangeEnd: '8988228000000020100',
          total: 10,
          allocated: 0,
          available: 10,
          firstAvailable: '8988228000000020001',
          serviceProviderName: null,
          createdAt: '2026-01-03T00:00:00.000Z',
        },
        {
          batchId: 5,
          name: 'Used up',
          resellerId: 10,
          resellerName: 'Northwind',
          simType: 'esim',
          rangeStart: '8988228000000010003',
          rangeEnd: '8988228000000010011',
          total: 2,
          allocated: 2,
          available: 0,
          firstAvailable: null,
          serviceProviderName: null,
          createdAt: '2026-01-02T00:00:00.000Z',
        },
      ],
      stock: [],
    };
    let answer = refused([
      {
        field: 'quantity',
        rule: 'count',
        messageId: 'inventory.assign.quantityMismatch',
        message: 'The quantity must equal the number of SIM cards in the range',
      },
    ]);
    api.server.use(
      http.get('*/portal/inventory/ranges', () => HttpResponse.json(ranges)),
      http.post('*/portal/inventory/assign', () => answer),
    );
    const { user } = render('?tab=inventory');
    const form = await screen.findByTestId('assign-inventory');
    await user.click(within(form).getByTestId('inventory-submit'));
    expect(within(form).getByText('Please choose the target account')).toBeTruthy();
    expect(api.requests('/portal/inventory/assign')).toHaveLength(0);

    await waitFor(() => expect(within(screen.getByTestId('inventory-range')).getByText('NW-2026-01: 500 of 500 available')).toBeTruthy());
    // A range without cards left is not offered.
    expect(within(screen.getByTestId('inventory-range')).queryByText(/Used up/)).toBeNull();
    await user.selectOptions(screen.getByTestId('inventory-range'), '4');
    expect((screen.getByTestId('inventory-iccidStart') as HTMLInputElement).value).toBe(first);
    await user.type(screen.getByTestId('inventory-quantity'), '120');
    const end = (screen.getByTestId('inventory-iccidEnd') as HTMLInputElement).value;
    expect(BigInt(end.slice(0, -1)) - BigInt(first.slice(0, -1))).toBe(119n);
    await waitFor(() => expect(within(screen.getByTestId('inventory-account')).getByText('Beacon Fleet')).toBeTruthy());
    const accountId = within(screen.getByTestId('inventory-account')).getByText('Beacon Fleet').getAttribute('value')!;
    // Harbor IoT's cards go to its own accounts, not to one of Northwind above it; with no account chosen, every range.
    expect(within(screen.getByTestId('inventory-range')).getByText('HI-2026-02: 10 of 10 available')).toBeTruthy();
    await user.selectOptions(screen.getByTestId('inventory-account'), accountId);
    expect(within(screen.getByTestId('inventory-range')).queryByText(/HI-2026-02/)).toBeNull();
    const harborAccount = within(screen.getByTestId('inventory-account')).getByText('Cobalt Sensors').getAttribute('value')!;
    await user.selectOptions(screen.getByTestId('inventory-account'), harborAccount);
    expect(within(screen.getByTestId('inventory-range')).getByText('NW-2026-01: 500 of 500 available')).toBeTruthy();
    await user.selectOptions(screen.getByTestId('inventory-range'), '6');
    await user.selectOptions(screen.getByTestId('inventory-account'), accountId);
    expect((screen.getByTestId('inventory-range') as HTMLSelectElement).value).toBe('');
    await user.selectOptions(screen.getByTestId('inventory-range'), '4');
    await user.clear(screen.getByTestId('inventory-quantity'));
    await user.type(screen.getByTestId('inventory-quantity'), '120');
    await user.click(within(form).getByTestId('inventory-submit'));
    expect(await within(form).findByText('The quantity must equal the number of SIM cards in the range')).toBeTruthy();
    expect(api.requests('/portal/inventory/assign', 'POST')[0].body).toEqual({ accountId: Number(accountId), iccidStart: first, iccidEnd: end, quantity: 120 });

    answer = HttpResponse.json({ accountId: Number(accountId), assigned: 120, firstSubscriberId: 900, lastSubscriberId: 1019 });
    await user.click(within(form).getByTestId('inventory-submit'));
    expect((await screen.findByTestId('inventory-done')).textContent).toContain('120 SIM cards were assigned to the account.');
    expect(screen.getByTestId('inventory-show').getAttribute('href')).toBe(`/subscribers?searchBy=accountId&searchKey=${accountId}&page=1`);
  });
});
