// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { mockToken } from '../../../../mocks/token';

const api = setupMockApi();

const range = (batchId: number, name: string, allocated: number, total: number) => ({
  batchId,
  name,
  resellerId: 10,
  resellerName: 'Northwind',
  simType: 'physical',
  rangeStart: '8988228000000000012',
  rangeEnd: '8988228000000005003',
  total,
  allocated,
  available: total - allocated,
  firstAvailable: null,
  serviceProviderName: 'Connectivity Provider',
  createdAt: '2026-01-02T00:00:00.000Z',
});

function render(route: string) {
  api.db.users.find((u) => u.username === 'nora')!.privileges = [{ privilege: 'Inventory', subPrivileges: [] }];
  api.server.use(
    http.get('*/portal/inventory/ranges', () =>
      HttpResponse.json({
        ranges: [range(4, 'NW-2026-01', 450, 500), range(5, 'NW-2026-02', 0, 300)],
        stock: [
          { resellerId: 10, resellerName: 'Northwind', available: 350, perDay: 20, daysLeft: 17, nextRange: 'NW-2026-01', nextRangeDaysLeft: 2, low: true },
        ],
      }),
    ),
    http.post('*/portal/inventory/sim-cards', () =>
      HttpResponse.json({
        items: [
          {
            iccid: '8988228000000000012',
            simType: 'physical',
            status: 'inventory',
            statusDate: '2026-01-02T00:00:00.000Z',
            batch: 'NW-2026-01',
            cost: 2.5,
            resellerName: 'Northwind',
          },
        ],
        totalItemsCount: 1,
        totalPageCount: 1,
        currentPage: 0,
      }),
    ),
    http.get('*/portal/inventory/msisdn-countries', () => HttpResponse.json([{ country: 'SE', total: 95, free: 94 }])),
    http.get('*/portal/inventory/msisdn-suppliers', () => HttpResponse.json([{ id: 1, name: 'Telia Carrier Numbering', country: 'SE', total: 95, free: 94 }])),
    http.post('*/portal/inventory/msisdn-list', () =>
      HttpResponse.json({
        items: [
          {
            msisdn: '46701740605',
            country: 'SE',
            supplierId: 1,
            supplierName: 'Telia Carrier Numbering',
            resellerId: 10,
            resellerName: 'Northwind',
            subscriberId: null,
            assigned: false,
          },
          {
            msisdn: '46701740606',
            country: 'SE',
            supplierId: 1,
            supplierName: 'Telia Carrier Numbering',
            resellerId: 10,
            resellerName: 'Northwind',
            subscriberId: 7,
            assigned: true,
          },
        ],
        totalItemsCount: 2,
        totalPageCount: 1,
        currentPage: 0,
      }),
    ),
  );
  return renderWithProviders(<AppRoutes />, { route, preloadedState: signedIn(mockToken('nora')) });
}

describe('the inventory screen', () => {
  it('shows the ranges with their counts and the low-stock warning, and opens a batch with its SIM cards', async () => {
    const { user } = render('/inventory');
    const row = await screen.findByTestId('range-NW-2026-01');
    expect(within(row).getByTestId('range-allocated').textContent).toBe('450');
    expect(within(row).getByTestId('range-available').textContent).toBe('50');
    expect(within(row).getByTestId('range-total').textContent).toBe('500');
    expect(screen.getByTestId('low-stock-10').textContent).toBe(
      'Northwind: at this rate (20 SIM cards a day), range NW-2026-01 runs out in about 2 days and the whole stock in about 17 days.',
    );
    // Only the administrator adds batches.
    expect(screen.queryByTestId('add-batch')).toBeNull();

    await user.click(within(row).getByRole('button', { name: 'NW-2026-01' }));
    await screen.findByTestId('inventory-sims');
    await waitFor(() => expect(screen.getByText('8988228000000000012')).toBeTruthy());
    const request = api.requests('/portal/inventory/sim-cards', 'POST').at(-1)!;
    expect(request.url.searchParams.get('batch_id')).toBe('4');
  });

  it('lists the MSISDN pool with free and assigned numbers, in international format', async () => {
    render('/inventory?tab=msisdn');
    const free = await screen.findByTestId('msisdn-46701740605');
    expect(free.textContent).toContain('+46 70 174 06 05');
    expect(free.textContent).toContain('Free');
    expect(screen.getByTestId('msisdn-46701740606').textContent).toContain('Subscriber 7');
    expect(within(screen.getByTestId('msisdn-country')).getByText('Sweden (94 free of 95)')).toBeTruthy();
  });
});
