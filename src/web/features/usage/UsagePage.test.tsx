// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { mockToken } from '../../../../mocks/token';

// The chart draws on canvas; here it only shows what it was given.
vi.mock('@web/ui/charts/BarChart', () => ({
  default: ({ bars }: { bars: { name: string; value: number }[] }) => (
    <ol data-testid="usage-chart">
      {bars.map((b) => (
        <li key={b.name}>{`${b.name}: ${b.value}`}</li>
      ))}
    </ol>
  ),
}));

const api = setupMockApi();

type Body = Record<string, unknown>;
const item = (key: string, label: string | null, mb: number, extra: Body = {}) => ({
  key,
  label,
  mb,
  bytesUp: Math.round(mb * 1_048_576 * 0.1),
  bytesDown: Math.round(mb * 1_048_576 * 0.9),
  records: 3,
  ...extra,
});

/** Answers usageBy with two items per dimension (none for the empty range). */
function answer(body: Body) {
  const items =
    body.range === 'day'
      ? []
      : ({
          account: [item('101', 'Harbor Logistics', 1500.5), item('102', 'Alpine Sensors', 20)],
          country: [item('DE', null, 900), item('', null, 2)],
          group: [item('7', 'Forklifts', 42, { activeSims: 3 })],
        }[body.dimension as string] ?? [item('1', 'One', 1)]);
  return {
    range: body.range ?? 'last7Days',
    timeZone: 'UTC',
    bucket: 'day',
    from: '2026-11-20T00:00:00Z',
    to: '2026-11-26T12:00:00Z',
    dimension: body.dimension ?? 'account',
    items,
    top: items,
    totalItemsCount: items.length,
    totalPageCount: 1,
    currentPage: 0,
  };
}

describe('the usage screen', () => {
  it('shows totals per dimension with a chart, sorts and switches on the server, and drills down to the subscribers', async () => {
    api.server.use(http.post('*/portal/graphs/usageBy', async ({ request }) => HttpResponse.json(answer((await request.json()) as Body))));
    const { user } = renderWithProviders(<AppRoutes />, { route: '/usage', preloadedState: signedIn(mockToken('admin')) });
    const grid = await screen.findByTestId('usage-grid', {}, { timeout: 10_000 });
    await waitFor(() => expect(within(grid).getAllByTestId('usage-row')).toHaveLength(2));
    expect(within(grid).getAllByTestId('usage-mb')[0].textContent).toBe('1,500.5');
    expect((await screen.findByTestId('usage-chart')).textContent).toContain('Harbor Logistics: 1500.5');
    expect(api.requests('/graphs/usageBy', 'POST')[0].body).toMatchObject({ dimension: 'account', range: 'last7Days', sortBy: 'mb', sortDir: 'desc', page: 0 });
    // An account's total opens the subscribers list filtered by it.
    expect(within(grid).getAllByTestId('usage-drill')[0].getAttribute('href')).toBe('/subscribers?searchBy=accountId&searchKey=101');

    // Sorting asks the server.
    await user.click(screen.getByTestId('usage-sort-label'));
    await waitFor(() => expect(api.requests('/graphs/usageBy', 'POST').at(-1)!.body).toMatchObject({ sortBy: 'label', sortDir: 'asc' }));

    // Countries are named in the reader's language; records without a network say so.
    await user.click(within(screen.getByTestId('usage-dimension')).getByText('Country'));
    await waitFor(() => expect(screen.getAllByTestId('usage-row')[0].textContent).toContain('Germany'));
    expect(screen.getAllByTestId('usage-row')[1].textContent).toContain('No network');
    expect(api.requests('/graphs/usageBy', 'POST').at(-1)!.body).toMatchObject({ dimension: 'country', sortBy: 'mb' });
    expect(screen.getAllByTestId('usage-drill')[0].getAttribute('href')).toBe('/subscribers?searchBy=country&searchKey=DE');

    // A group shows its active SIMs and drills down to the list filtered by the group.
    await user.click(within(screen.getByTestId('usage-dimension')).getByText('Group'));
    await waitFor(() => expect(screen.getAllByTestId('usage-row')[0].textContent).toContain('Forklifts'));
    expect(screen.getByTestId('usage-grid').textContent).toContain('Active SIMs');
    await user.click(screen.getAllByTestId('usage-drill')[0]);
    const asked = () => [...api.requests('/subscribers/paged', 'POST'), ...api.requests('/subscribers/search', 'POST')].map((r) => r.body as Body);
    await waitFor(() => expect(asked().some((b) => b.searchBy === 'groupId' && b.searchKey === '7')).toBe(true));
  });

  it("never shows the dimension left while the chosen one's totals are on the way: its keys would open the wrong subscribers", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    api.server.use(
      http.post('*/portal/graphs/usageBy', async ({ request }) => {
        const body = (await request.json()) as Body;
        if (body.dimension === 'subscriber') await held;
        return HttpResponse.json(answer(body));
      }),
    );
    const { user } = renderWithProviders(<AppRoutes />, { route: '/usage', preloadedState: signedIn(mockToken('admin')) });
    await waitFor(() => expect(screen.getAllByTestId('usage-row')).toHaveLength(2), { timeout: 10_000 });
    expect(screen.getByTestId('usage-grid').getAttribute('data-dimension')).toBe('account');

    await user.click(within(screen.getByTestId('usage-dimension')).getByText('Subscriber'));
    await waitFor(() => expect(api.requests('/graphs/usageBy', 'POST').at(-1)!.body).toMatchObject({ dimension: 'subscriber' }));
    // The accounts' rows and links are gone at once; placeholders stand in until the subscribers arrive.
    expect(screen.queryAllByTestId('usage-row')).toEqual([]);
    expect(screen.queryAllByTestId('usage-drill')).toEqual([]);
    expect(screen.getByTestId('usage-skeleton')).toBeTruthy();
    release();
    await waitFor(() => expect(screen.getByTestId('usage-grid').getAttribute('data-dimension')).toBe('subscriber'));
    expect(screen.getAllByTestId('usage-drill').map((a) => a.getAttribute('href'))).toEqual(['/subscriber/1']);
  });

  it('says when a range has no usage and downloads the whole table', async () => {
    api.server.use(
      http.post('*/portal/graphs/usageBy', async ({ request }) => HttpResponse.json(answer((await request.json()) as Body))),
      http.post('*/portal/graphs/usageBy/download', () => new HttpResponse('key,label\n', { headers: { 'content-type': 'text/csv' } })),
    );
    const { user } = renderWithProviders(<AppRoutes />, { route: '/usage?range=day', preloadedState: signedIn(mockToken('admin')) });
    expect(await screen.findByText('No data was used in this time range.', {}, { timeout: 10_000 })).toBeTruthy();
    await user.click(screen.getByTestId('usage-download'));
    await waitFor(() => expect(api.requests('/graphs/usageBy/download', 'POST')).toHaveLength(1));
    expect(api.requests('/graphs/usageBy/download', 'POST')[0].body).toEqual({ dimension: 'account', range: 'day', sortBy: 'mb', sortDir: 'desc' });
  });
});
