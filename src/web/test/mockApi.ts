/**
 * Starts the mock backend for a test file: a fresh database per test, unhandled requests fail the test, and
 * every request is recorded with its body so tests can assert what the app sent. A test may add rows to
 * `db` before it renders: the handlers read the same object.
 */
import { cleanup } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { disposeToaster } from '@web/ui/toaster';
import { createMockDatabase } from '../../../mocks/data';
import { createHandlers } from '../../../mocks/handlers';

export interface RecordedRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

export function setupMockApi() {
  const state = { db: createMockDatabase(), requests: [] as RecordedRequest[] };
  const server = setupServer();

  beforeAll(() => {
    server.listen({ onUnhandledRequest: 'error' });
    server.events.on('request:start', async ({ request }) => {
      const isJson = (request.headers.get('content-type') ?? '').includes('json');
      const text = isJson ? await request.clone().text() : '';
      state.requests.push({
        method: request.method,
        url: new URL(request.url),
        headers: request.headers,
        body: text ? JSON.parse(text) : undefined,
      });
    });
  });
  beforeEach(() => {
    state.db = createMockDatabase();
    state.requests = [];
    server.resetHandlers(...createHandlers(state.db));
    localStorage.clear();
    sessionStorage.clear();
  });
  afterEach(() => {
    cleanup();
    // The toaster lives in a root of its own: its closing timers would otherwise outlive the test file's window.
    disposeToaster();
  });
  afterAll(() => server.close());

  return {
    server,
    get db() {
      return state.db;
    },
    /** Requests so far whose path ends with `suffix`. */
    requests(suffix: string, method?: string) {
      return state.requests.filter((r) => r.url.pathname.endsWith(suffix) && (!method || r.method === method));
    },
  };
}
