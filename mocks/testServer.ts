import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createMockDatabase, type MockDatabase } from './data';
import { createHandlers } from './handlers';

/** Node has no page origin to resolve a relative path against: the handlers get an absolute base. */
export const MOCK_BASE = 'http://localhost/portal';

/** The mock backend for a test file of the mocks themselves: a fresh database per test, unhandled requests fail. */
export function useMockServer(): { readonly db: MockDatabase } {
  const state = { db: createMockDatabase() };
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  beforeEach(() => {
    state.db = createMockDatabase();
    server.resetHandlers(...createHandlers(state.db, MOCK_BASE));
  });
  afterAll(() => server.close());
  return state;
}
