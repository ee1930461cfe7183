// @vitest-environment happy-dom
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeStore } from '@web/app/store';
import { enhancedApi as inventoryApi } from '@web/core/inventoryApi.gen';
import '@web/core/inventoryApi';
import { packagesApi } from '@web/core/packagesApi';
import { setupMockApi } from '@web/test/mockApi';
import { signedIn } from '@web/test/renderWithProviders';
import { mockToken } from '../../../../mocks/token';
import { enhancedApi as ordersApi } from './ordersApi.gen';
import './ordersApi';

const api = setupMockApi();
const UUID = '0b5e2c1a-1111-4222-8333-944455556666';

describe('the SIM order calls', () => {
  it('read the balance again after an order moves the credit, and the inventory after delivery', async () => {
    const reads = { balance: 0, inventory: 0 };
    api.server.use(
      http.get('/portal/ledger/balance', () => {
        reads.balance++;
        return HttpResponse.json({ resellerId: 10, balance: 100, currency: 'USD', creditLimit: 1000, held: 0, availableCredit: 1100 });
      }),
      http.get('/portal/inventory/ranges', () => {
        reads.inventory++;
        return HttpResponse.json({ ranges: [], lowStock: [] });
      }),
      http.post('/portal/sim-orders/submit', () => HttpResponse.json({ uuid: UUID }, { status: 201 })),
      http.post(`/portal/sim-orders/${UUID}/cancel`, () => HttpResponse.json({ uuid: UUID })),
      http.post(`/portal/sim-orders/${UUID}/deliver`, () => HttpResponse.json({ uuid: UUID })),
    );
    const store = makeStore(signedIn(mockToken('nora')), { reload: () => {}, navigateHome: () => {} });
    // The dashboard's balance and the inventory screen, both on show.
    store.dispatch(packagesApi.endpoints.getLedgerBalance.initiate(undefined));
    store.dispatch(inventoryApi.endpoints.getInventoryRanges.initiate(undefined));
    await expect.poll(() => [reads.balance, reads.inventory]).toEqual([1, 1]);

    const body = { simType: 'physical', simSize: 'triple', amount: 500, sponsorIds: [1], providerId: 1, serviceProviderName: 'N', currency: 'USD' };
    await store.dispatch(ordersApi.endpoints.postSimOrdersSubmit.initiate(body as never)).unwrap();
    await expect.poll(() => reads.balance).toBe(2);
    await store.dispatch(ordersApi.endpoints.postSimOrdersByUuidCancel.initiate({ uuid: UUID, body: { reason: 'No' } })).unwrap();
    await expect.poll(() => reads.balance).toBe(3);
    expect(reads.inventory).toBe(1);
    await store.dispatch(ordersApi.endpoints.postSimOrdersByUuidDeliver.initiate(UUID)).unwrap();
    await expect.poll(() => [reads.balance, reads.inventory]).toEqual([4, 2]);
  });
});
