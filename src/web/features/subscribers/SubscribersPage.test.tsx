// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { mockToken } from '../../../../mocks/token';
import type { Job } from '@web/core/jobsApi';

const api = setupMockApi();

/** 60 of Northwind's subscribers: more than one page of 50. */
function seed() {
  api.db.tables.subscriber = Array.from({ length: 60 }, (_, i) => ({
    subscriberId: i + 1,
    name: `Sensor ${i + 1}`,
    status: 'active',
    imsi: `9012800000000${String(i + 1).padStart(2, '0')}`,
    iccid: `89882280000000000${String(i + 1).padStart(2, '0')}`,
    msisdn: null,
    deviceType: null,
    device: null,
    imei: null,
    country: null,
    network: null,
    lastLocationAt: null,
    balance: 0,
    accountId: 101,
    resellerId: 10,
    groupName: null,
    apn: null,
    dailyLimitBytes: null,
    qosThrottling: null,
    usageTodayBytes: 0,
    pricingPlanId: null,
    roamingProfileId: null,
    migrationStatus: null,
  }));
}

function render() {
  seed();
  return renderWithProviders(<AppRoutes />, { route: '/subscribers', preloadedState: signedIn(mockToken('admin')) });
}

/** The checkbox of a row of the grid, by subscriber id. */
async function rowCheckbox(id: number) {
  const grid = await screen.findByTestId('grid-subscriber');
  return waitFor(() => {
    const box = grid.querySelector<HTMLInputElement>(`[row-id="${id}"] input[type="checkbox"]`);
    expect(box).toBeTruthy();
    return box!;
  });
}

const job = (over: Partial<Job>): Job => ({
  id: 41,
  kind: 'subscribers.bulk',
  status: 'running',
  total: 2,
  succeeded: 0,
  failed: 0,
  skipped: 0,
  waiting: 0,
  retryOf: null,
  params: { action: 'suspend', params: {} },
  createdAt: '2026-11-20T10:00:00Z',
  startedAt: '2026-11-20T10:00:01Z',
  finishedAt: null,
  ...over,
});

describe('subscriber bulk actions', () => {
  it('widens a selection of rows to the whole search and sends the search, not ids', async () => {
    api.server.use(
      http.post('*/portal/subscribers/bulk/preview', () => HttpResponse.json({ action: 'suspend', total: 60, willChange: 60, reasons: [], rows: [] })),
    );
    const { user } = render();
    await user.click(await rowCheckbox(3));
    await user.click(await rowCheckbox(5));

    const banner = await screen.findByTestId('list-selection');
    // The grid reports each tick as it lands: the banner counts the second a moment after the first.
    await waitFor(() => expect(within(banner).getByTestId('list-selection-count').textContent).toBe('2 selected'));
    const whole = within(banner).getByTestId('list-select-whole');
    expect(whole.textContent).toBe('Select all 60 subscribers matching this search');
    await user.click(whole);
    expect(within(banner).getByTestId('list-selection-count').textContent).toBe('All 60 subscribers matching this search are selected');
    expect(within(banner).queryByTestId('list-select-whole')).toBeNull();
    // Every row of the page shows ticked.
    await waitFor(async () => expect((await rowCheckbox(50)).checked).toBe(true));

    await user.click(within(banner).getByTestId('bulk-actions'));
    await user.click(await screen.findByTestId('bulk-suspend'));
    const dialog = await screen.findByTestId('bulk-dialog');
    expect(within(dialog).getByTestId('bulk-selection').textContent).toBe('All 60 subscribers matching the search');
    await waitFor(() => expect(api.requests('/subscribers/bulk/preview', 'POST')).toHaveLength(1));
    expect(api.requests('/subscribers/bulk/preview', 'POST')[0].body).toEqual({
      action: 'suspend',
      params: {},
      selection: { search: { searchBy: 'multi', searchKey: '' } },
    });

    // Clearing the selection unticks the rows and hides the banner.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(within(banner).getByTestId('list-selection-clear'));
    expect(screen.queryByTestId('list-selection')).toBeNull();
    await waitFor(async () => expect((await rowCheckbox(3)).checked).toBe(false));
  });

  it('confirms with the preview, naming those that will not change and why, then follows the job', async () => {
    let polls = 0;
    api.server.use(
      http.post('*/portal/subscribers/bulk/preview', () =>
        HttpResponse.json({
          action: 'daily-limit',
          total: 2,
          willChange: 1,
          reasons: [{ messageId: 'bulk.reason.unchanged', message: 'Already so: nothing to change', count: 1 }],
          rows: [{ subscriberId: 4, messageId: 'bulk.reason.unchanged', message: 'Already so: nothing to change' }],
        }),
      ),
      http.post('*/portal/subscribers/bulk', () => HttpResponse.json({ jobId: 41, total: 2 }, { status: 202 })),
      http.get('*/portal/jobs/41', () => {
        polls += 1;
        return HttpResponse.json(polls === 1 ? job({ skipped: 1 }) : job({ status: 'done', succeeded: 1, skipped: 1, finishedAt: '2026-11-20T10:00:05Z' }));
      }),
    );
    const { user } = render();
    await user.click(await rowCheckbox(4));
    await user.click(await rowCheckbox(9));
    await user.click(screen.getByTestId('bulk-actions'));
    await user.click(await screen.findByTestId('bulk-daily-limit'));
    const dialog = await screen.findByTestId('bulk-dialog');

    // A limit is required before anything is asked.
    await user.click(within(dialog).getByTestId('bulk-check'));
    expect(within(dialog).getByTestId('bulk-problem').textContent).toBe('Daily limit is required');
    expect(api.requests('/subscribers/bulk/preview', 'POST')).toHaveLength(0);

    await user.type(within(dialog).getByTestId('bulk-amount'), '1.5');
    await user.selectOptions(within(dialog).getByTestId('bulk-unit'), 'GB');
    await user.selectOptions(within(dialog).getByTestId('bulk-qos'), '256kbps');
    await user.click(within(dialog).getByTestId('bulk-check'));
    const preview = await within(dialog).findByTestId('bulk-preview');
    expect(api.requests('/subscribers/bulk/preview', 'POST')[0].body).toEqual({
      action: 'daily-limit',
      params: { dailyLimitBytes: 1.5 * 1024 ** 3, qosThrottling: '256kbps' },
      selection: { ids: [4, 9] },
    });
    expect(within(preview).getByTestId('bulk-will-change').textContent).toBe('1 subscriber of 2 will change.');
    const reason = within(preview).getByTestId('bulk-reasons').querySelector('[data-reason="bulk.reason.unchanged"]')!;
    expect(reason.textContent).toBe('Already so: nothing to change1');
    expect(within(preview).getByTestId('bulk-rows').textContent).toBe('4: Already so: nothing to change');
    expect(api.requests('/subscribers/bulk', 'POST')).toHaveLength(0);

    expect(within(dialog).getByTestId('bulk-apply').textContent).toBe('Apply to 1 subscriber');
    await user.click(within(dialog).getByTestId('bulk-apply'));
    await waitFor(() => expect(screen.queryByTestId('bulk-dialog')).toBeNull());
    expect(api.requests('/subscribers/bulk', 'POST')[0].body).toEqual(api.requests('/subscribers/bulk/preview', 'POST')[0].body);

    // The job's progress shows in the page until it is done; the selection is gone.
    const progress = await screen.findByTestId('job-41');
    await waitFor(() => expect(within(progress).getByTestId('job-status').textContent).toBe('Done'), { timeout: 5000 });
    expect(within(progress).getByTestId('job-counts').textContent).toBe('1 succeeded0 failed1 skipped2 of 2 processed');
    expect(screen.queryByTestId('list-selection')).toBeNull();
  });

  it('checks a CSV file here first, then shows the rejected lines with their reasons', async () => {
    api.server.use(
      http.post('*/portal/subscribers/bulk/csv', () =>
        HttpResponse.json({
          total: 3,
          valid: 1,
          unchanged: 1,
          rejected: [
            {
              line: 3,
              values: { iccid: '8988228000000000003', status: 'paused' },
              fields: [{ field: 'status', rule: 'enum', messageId: 'validation.status.invalid', message: 'Status must be active or suspended' }],
            },
          ],
        }),
      ),
    );
    const { user } = render();
    await user.click(await screen.findByTestId('bulk-csv-open'));
    const dialog = await screen.findByTestId('bulk-csv');
    await user.click(screen.getByTestId('bulk-csv-check'));
    expect(within(dialog).getByTestId('bulk-csv-problem').textContent).toBe('Please select a file.');

    const input = within(dialog).getByTestId('bulk-csv-input') as HTMLInputElement;
    const big = new File(['x'], 'big.csv', { type: 'text/csv' });
    Object.defineProperty(big, 'size', { value: 4 * 1024 * 1024 });
    await user.upload(input, big);
    expect(within(dialog).getByTestId('bulk-csv-problem').textContent).toBe('File size should be less than 4 MB!');
    await user.click(screen.getByTestId('bulk-csv-check'));
    expect(api.requests('/subscribers/bulk/csv', 'POST')).toHaveLength(0);

    await user.upload(input, new File(['iccid,status\n8988228000000000001,suspended\n8988228000000000003,paused\n'], 'subscribers.csv', { type: 'text/csv' }));
    expect(within(dialog).queryByTestId('bulk-csv-problem')).toBeNull();
    await user.click(screen.getByTestId('bulk-csv-check'));
    const report = await within(dialog).findByTestId('bulk-csv-report');
    const [sent] = api.requests('/subscribers/bulk/csv', 'POST');
    expect(sent.url.searchParams.get('confirm')).toBeNull();
    expect(within(report).getByTestId('bulk-csv-summary').textContent).toBe('3 lines: 1 will change, 1 unchanged, 1 rejected.');
    const line = within(report).getByTestId('bulk-csv-rejected').querySelector('[data-line="3"]')!;
    expect(line.textContent).toBe('38988228000000000003Status: Status must be active or suspended');
    expect(screen.getByTestId('bulk-csv-apply').textContent).toBe('Apply 1 line');
  });
});
