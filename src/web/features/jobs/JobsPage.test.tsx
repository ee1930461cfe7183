// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { mockToken } from '../../../../mocks/token';
import type { Job } from './jobsApi';

const api = setupMockApi();

const running: Job = { id: 7, kind: 'subscribers.bulk', status: 'running', total: 200, done: 50, failed: 0, params: { action: 'suspend' }, createdAt: '2026-11-20T10:00:00Z', startedAt: '2026-11-20T10:00:01Z', finishedAt: null };
const finished: Job = { id: 6, kind: 'custom.kind', status: 'done', total: 10, done: 8, failed: 2, params: {}, createdAt: '2026-11-19T10:00:00Z', startedAt: '2026-11-19T10:00:01Z', finishedAt: '2026-11-19T10:00:03Z' };

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
    expect(within(first).getByTestId('job-counts').textContent).toBe('50 of 200 done, 0 failed');
    expect(within(first).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25');
    expect(within(first).queryByRole('button', { name: 'Failures (CSV)' })).toBeNull();

    const second = screen.getByTestId('job-6');
    expect(within(second).getByTestId('job-status').textContent).toBe('Done');
    expect(within(second).queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(within(second).getByRole('button', { name: 'Failures (CSV)' })).toBeTruthy();
    // A kind named in the catalogue says what it does; one without a name of its own shows as stored.
    expect(screen.getAllByTestId('admin-row')[0].textContent).toContain('Subscribers in bulk: Suspend');
    expect(screen.getAllByTestId('admin-row')[1].textContent).toContain('custom.kind');

    await userEvent.setup().click(within(first).getByRole('button', { name: 'Cancel' }));
    expect(api.requests('/jobs/7/cancel', 'POST')).toHaveLength(1);
    await waitFor(() => expect(within(screen.getByTestId('job-7')).getByTestId('job-status').textContent).toBe('Cancelled'));
  });
});
