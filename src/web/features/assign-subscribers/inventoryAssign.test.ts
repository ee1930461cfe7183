// @vitest-environment happy-dom
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeStore } from '@web/app/store';
import { entityEndpoints } from '@web/core/endpoints';
import { enhancedApi as inventoryApi } from '@web/core/inventoryApi.gen';
import '@web/core/inventoryApi';
import { findSchema } from '@web/core/schemas';
import { setupMockApi } from '@web/test/mockApi';
import { signedIn } from '@web/test/renderWithProviders';
import { mockToken } from '../../../../mocks/token';

const api = setupMockApi();

describe('assigning cards from the inventory', () => {
  it('reads the subscriber lists again, as each card became a subscriber', async () => {
    let listReads = 0;
    api.server.use(
      http.post('/portal/subscribers/paged', () => {
        listReads++;
        return HttpResponse.json({ items: [], currentPage: 0, totalPageCount: 0, totalItemsCount: 0 });
      }),
      http.post('/portal/inventory/assign', () => HttpResponse.json({ accountId: 7, assigned: 2, subscriberIds: [1, 2] })),
    );
    const store = makeStore(signedIn(mockToken('nora')), { reload: () => {}, navigateHome: () => {} });
    // The account's subscriber list, on show.
    store.dispatch(entityEndpoints(findSchema('subscriber')!).paged!.initiate({ searchBy: 'accountId', searchKey: '7', page: { page: 0, size: 25 } }));
    await expect.poll(() => listReads).toBe(1);
    const body = { accountId: 7, iccidStart: '8931123456000000004', iccidEnd: '8931123456000000012', quantity: 2 };
    await store.dispatch(inventoryApi.endpoints.postInventoryAssign.initiate(body)).unwrap();
    await expect.poll(() => listReads).toBe(2);
  });
});
