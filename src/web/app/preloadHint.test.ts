// @vitest-environment happy-dom
import { waitFor } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { readOpeningHint, writeOpeningHint } from '@web/core/openingHint';
import { signOut } from '@web/core/session';
import { setupMockApi } from '@web/test/mockApi';
import { signedIn } from '@web/test/renderWithProviders';
import { mockToken } from '../../../mocks/token';
import { preloadSignedIn } from './preload';
import { makeStore } from './store';

const api = setupMockApi();
const session = () => makeStore(signedIn(mockToken('admin')), { reload: () => undefined, navigateHome: () => undefined });

/** Holds the privileges' answer back until `release` is called. */
function holdPrivileges() {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  // Answering nothing after the wait hands the request on to the mock's own handler.
  api.server.use(http.get('/portal/user/ui-privileges', async () => void (await held)));
  return release;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('a page load of a list, with what the last page load learnt', () => {
  it('keeps the privileges and preferences for the signed-in user, and forgets them on signing out', async () => {
    const store = session();
    const token = store.getState().auth.token!;
    preloadSignedIn(store, '#/');
    await waitFor(() => expect(readOpeningHint(token)?.isAdmin).toBe(true));
    expect(readOpeningHint(token)?.privileges.map((p) => p.privilege)).toContain('Subscribers');
    expect(readOpeningHint(token)?.preferences).toBe('[]');
    // Another user's token finds nothing.
    expect(readOpeningHint(mockToken('nora'))).toBeUndefined();
    await store.dispatch(signOut());
    expect(readOpeningHint(token)).toBeUndefined();
  });

  it('asks for the first page beside the privileges, and once', async () => {
    const token = mockToken('admin');
    writeOpeningHint(token, false, { privileges: [{ privilege: 'Subscribers', subPrivileges: [] }], isAdmin: true, preferences: '[]' });
    const release = holdPrivileges();
    const store = session();
    preloadSignedIn(store, '#/subscribers');
    await waitFor(() => expect(api.requests('/portal/subscribers/paged')).toHaveLength(1));
    expect(store.getState().auth.privileges).toBeNull();
    release();
    await waitFor(() => expect(store.getState().auth.privileges).not.toBeNull());
    await settle();
    // The fresh privileges and profile ask for the same page: the one request stands.
    expect(api.requests('/portal/subscribers/paged')).toHaveLength(1);
  });

  it('waits for the privileges without a hint, or when the hint says the screen does not open', async () => {
    for (const hint of [undefined, { privileges: [{ privilege: 'Dashboard', subPrivileges: [] }], isAdmin: false, preferences: null }]) {
      api.server.resetHandlers();
      writeOpeningHint(mockToken('admin'), false, hint);
      const release = holdPrivileges();
      const store = session();
      const before = api.requests('/portal/subscribers/paged').length;
      preloadSignedIn(store, '#/subscribers');
      await settle();
      expect(api.requests('/portal/subscribers/paged')).toHaveLength(before);
      release();
      // The fresh privileges open it (the administrator's): the page is asked for then.
      await waitFor(() => expect(api.requests('/portal/subscribers/paged')).toHaveLength(before + 1));
    }
  });

  it('asks with the saved sort the hint holds', async () => {
    const token = mockToken('admin');
    const preferences = JSON.stringify([{ type: 'grid.subscriber', value: JSON.stringify({ columns: [], sort: { sortBy: 'name', sortDir: 'desc' } }) }]);
    writeOpeningHint(token, false, { privileges: [{ privilege: 'Subscribers', subPrivileges: [] }], isAdmin: true, preferences });
    holdPrivileges();
    preloadSignedIn(session(), '#/subscribers');
    await waitFor(() => expect(api.requests('/portal/subscribers/paged')).toHaveLength(1));
    expect(api.requests('/portal/subscribers/paged')[0].body).toMatchObject({ sortBy: 'name', sortDir: 'desc' });
  });
});
