// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { mockToken } from '../../../../mocks/token';
import type { Job, JobItem } from '@web/core/jobsApi';

const api = setupMockApi();

const base = { skipped: 0, waiting: 0, retryOf: null, startedAt: '2026-11-20T10:00:01Z' };
const running: Job = {
  ...base,
  id: 7,
  kind: 'subscribers.bulk',
  status: 'running',
  total: 200,
  succeeded: 50,
  failed: 0,
  params: { action: 'suspend' },
  createdAt: '2026-11-20T10:00:00Z',
  finishedAt: null,
};
const finished: Job = {
  ...base,
  id: 6,
  kind: 'custom.kind',
  status: 'done',
  total: 10,
  succeeded: 8,
  failed: 2,
  params: {},
  createdAt: '2026-11-19T10:00:00Z',
  finishedAt: '2026-11-19T10:00:03Z',
};
const refused: Job = {
  ...base,
  id: 12,
  kind: 'subscribers.bulk',
  status: 'failed',
  total: 3,
  succeeded: 0,
  failed: 3,
  params: { action: 'suspend', params: {} },
  createdAt: '2026-11-21T10:00:00Z',
  finishedAt: '2026-11-21T10:00:05Z',
};
const failedItem = (seq: number, key: string): JobItem => ({
  seq,
  key,
  status: 'failed',
  messageId: 'subscriberOperation.failed.network',
  message: 'The core network refused the operation',
  detail: 'Diameter 5012 DIAMETER_UNABLE_TO_COMPLY',
});

describe('jobs screen', () => {
  it('shows each job with its progress, and cancels a running one', async () => {
    let jobs = [running, finished];
    api.server.use(
      http.get('*/portal/jobs', () => HttpResponse.json({ items: jobs, totalPageCount: 1, totalItemsCount: jobs.length, currentPage: 0 })),
      http.post('*/portal/jobs/:id/cancel', ({ params }) => {
        jobs = jobs.map((j) => (j.id === Number(params.id) ? { ...j, status: 'cancelled' } : j));
        return HttpResponse.json(jobs.find((j) => j.id === Number(params.id)));
      }),
    );
    renderWithProviders(<AppRoutes />, { route: '/jobs', preloadedState: signedIn(mockToken('nora')) });

    const first = await screen.findByTestId('job-7');
    expect(within(first).getByTestId('job-status').textContent).toBe('Running');
    expect(within(first).getByTestId('job-succeeded').textContent).toBe('50 succeeded');
    expect(within(first).getByTestId('job-failed').textContent).toBe('0 failed');
    expect(within(first).getByTestId('job-skipped').textContent).toBe('0 skipped');
    expect(within(first).getByTestId('job-total').textContent).toBe('50 of 200 processed');
    expect(within(first).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25');
    expect(within(first).queryByRole('button', { name: 'Failures (CSV)' })).toBeNull();
    expect(within(first).queryByRole('button', { name: 'Retry the failed' })).toBeNull();

    // Done with two failures: it says so, offers the failed rows and their retry, and cannot be cancelled.
    const second = screen.getByTestId('job-6');
    expect(within(second).getByTestId('job-status').textContent).toBe('Done with failures');
    expect(within(second).queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(within(second).getByRole('button', { name: 'Failures (CSV)' })).toBeTruthy();
    expect(within(second).getByRole('button', { name: 'Retry the failed' })).toBeTruthy();
    // A kind named in the catalogue says what it does; one without a name of its own shows as stored.
    expect(screen.getAllByTestId('admin-row')[0].textContent).toContain('Subscribers in bulk: Suspend');
    expect(screen.getAllByTestId('admin-row')[1].textContent).toContain('custom.kind');

    await userEvent.setup().click(within(first).getByRole('button', { name: 'Cancel' }));
    expect(api.requests('/jobs/7/cancel', 'POST')).toHaveLength(1);
    await waitFor(() => expect(within(screen.getByTestId('job-7')).getByTestId('job-status').textContent).toBe('Cancelled'));
  });

  it('shows a job every row of which failed, the reason of each paged from the server, and retries the failed', async () => {
    const retried: Job = { ...refused, id: 13, status: 'waiting', failed: 0, waiting: 3, retryOf: 12, finishedAt: null };
    let jobs = [refused];
    const items = Array.from({ length: 12 }, (_, i) => failedItem(i, String(100 + i)));
    api.server.use(
      http.get('*/portal/jobs', () => HttpResponse.json({ items: jobs, totalPageCount: 1, totalItemsCount: jobs.length, currentPage: 0 })),
      http.get('*/portal/jobs/12/items', ({ request }) => {
        const url = new URL(request.url);
        const page = Number(url.searchParams.get('page'));
        const size = Number(url.searchParams.get('size'));
        return HttpResponse.json({
          items: items.slice(page * size, (page + 1) * size),
          totalPageCount: Math.ceil(items.length / size),
          totalItemsCount: items.length,
          currentPage: page,
        });
      }),
      http.post('*/portal/jobs/12/retry', () => {
        jobs = [retried, refused];
        return HttpResponse.json({ jobId: 13, total: 3, leftOut: 0 }, { status: 202 });
      }),
    );
    const { user } = renderWithProviders(<AppRoutes />, { route: '/jobs', preloadedState: signedIn(mockToken('nora')) });

    const job = await screen.findByTestId('job-12');
    expect(within(job).getByTestId('job-status').textContent).toBe('Failed');
    expect(within(job).getByTestId('job-failed').textContent).toBe('3 failed');
    expect(within(job).getByTestId('job-succeeded').textContent).toBe('0 succeeded');

    await user.click(within(job).getByTestId('job-show-reasons'));
    const reasons = await within(job).findByTestId('job-reasons');
    expect(within(reasons).getByRole('tab').textContent).toBe('Failed (3)');
    await waitFor(() => expect(within(reasons).getAllByTestId('job-item')).toHaveLength(10));
    const first = within(reasons).getAllByTestId('job-item')[0];
    expect(within(first).getByRole('link').getAttribute('href')).toBe('/subscriber/100');
    expect(within(first).getByTestId('job-item-reason').textContent).toBe('The core network refused the operation');
    expect(within(first).getByTestId('job-item-detail').textContent).toBe('Diameter 5012 DIAMETER_UNABLE_TO_COMPLY');
    // The next page comes from the server.
    await user.click(within(reasons).getByRole('button', { name: 'Next page' }));
    await waitFor(() =>
      expect(
        within(reasons)
          .getAllByTestId('job-item')
          .map((r) => r.getAttribute('data-key')),
      ).toEqual(['110', '111']),
    );
    expect(api.requests('/jobs/12/items', 'GET').map((r) => [r.url.searchParams.get('status'), r.url.searchParams.get('page')])).toEqual([
      ['failed', '0'],
      ['failed', '1'],
    ]);

    await user.click(within(job).getByRole('button', { name: 'Retry the failed' }));
    expect(api.requests('/jobs/12/retry', 'POST')).toHaveLength(1);
    const again = await screen.findByTestId('job-13');
    expect(within(again).getByTestId('job-status').textContent).toBe('Waiting for the network');
    expect(within(again).getByTestId('job-waiting').textContent).toBe("3 wait for the core network's answer");
    expect(within(again).getByTestId('job-retry-of').textContent).toBe('Retry of job 12');
  });
});
