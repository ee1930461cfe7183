// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { normaliseListRequest, pageInMemory } from '@shared/schema';
import type { ListRequest } from '@shared/wire';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { mockToken } from '../../../mocks/token';
import { findSchema } from '@web/core/schemas';

const api = setupMockApi();

function renderAccounts(route = '/accounts') {
  return renderWithProviders(<AppRoutes />, { route, preloadedState: signedIn(mockToken('nora')) });
}

/** The text of every cell of one column, in row order, as the grid renders it. */
function columnTexts(grid: HTMLElement, colId: string): string[] {
  return within(grid)
    .queryAllByRole('gridcell')
    .filter((cell) => cell.getAttribute('col-id') === colId)
    .sort((a, b) => rowIndex(a) - rowIndex(b))
    .map((cell) => cell.textContent ?? '');
}

function rowIndex(cell: HTMLElement): number {
  return Number(cell.closest('[role="row"]')?.getAttribute('row-index'));
}

async function gridWithNames(expected: string[]) {
  const grid = await screen.findByTestId('grid-account');
  await waitFor(() => expect(columnTexts(grid, 'name')).toEqual(expected));
  return grid;
}

function lastBody(suffix: string) {
  const found = api.requests(suffix, 'POST');
  return found[found.length - 1]?.body;
}

const location = () => screen.getByTestId('location').textContent;

describe('accounts list', () => {
  it('renders the rows the server sends, formatted by the schema', async () => {
    renderAccounts();
    // Nora's reseller (10) and its child (11); Delta Rail belongs to another reseller.
    const grid = await gridWithNames(['Alpha Logistics', 'Beacon Fleet', 'Cobalt Sensors', 'Echo Metering', 'Northwind Stock']);
    expect(columnTexts(grid, 'usageCredit')[0]).toBe('$1,250.50');
    const credit = within(grid)
      .getAllByRole('gridcell')
      .find((c) => c.getAttribute('col-id') === 'usageCredit');
    expect(credit?.classList.contains('ag-right-aligned-cell')).toBe(true);
    expect(columnTexts(grid, 'inventoryAccount')).toEqual(['No', 'No', 'No', 'No', 'Yes']);
    // Row selection is for lists with bulk actions only.
    expect(grid.querySelector('input[type="checkbox"]')).toBeNull();
    expect(screen.queryByTestId('list-selection')).toBeNull();
    expect(columnTexts(grid, 'resellerName')[2]).toBe('Harbor IoT');
    expect(screen.getByTestId('list-total').textContent).toBe('5 items');
    expect(screen.getByTestId('list-page').textContent).toBe('Page 1 of 1');

    const [paged] = api.requests('/portal/accounts/paged', 'POST');
    expect(paged.url.searchParams.get('include_inventory')).toBe('true');
    expect(paged.body).toEqual({ sortBy: 'accountId', sortDir: 'asc', page: { page: 0, size: 50 } });
    expect(paged.headers.get('authorization')).toMatch(/^Bearer /);
    expect(paged.headers.get('x-time-zone')).toBeTruthy();
  });

  it('searches by name on the server, shows only the matches and writes the search to the address', async () => {
    const { user } = renderAccounts();
    await gridWithNames(['Alpha Logistics', 'Beacon Fleet', 'Cobalt Sensors', 'Echo Metering', 'Northwind Stock']);

    await user.selectOptions(screen.getByTestId('list-search-by'), 'name');
    await user.type(screen.getByTestId('list-search'), '  alpha {Enter}');

    await gridWithNames(['Alpha Logistics']);
    expect(lastBody('/portal/accounts/search')).toEqual({
      sortBy: 'accountId',
      sortDir: 'asc',
      searchBy: 'name',
      searchKey: 'alpha',
      page: { page: 0, size: 50 },
    });
    expect(location()).toBe('/accounts?searchKey=alpha&searchBy=name&page=1');
    expect(screen.getByTestId('list-total').textContent).toBe('1 item');
  });

  it('reads searchKey, searchBy and page from the address', async () => {
    renderAccounts('/accounts?searchKey=Hamburg&searchBy=city&page=1');
    await gridWithNames(['Alpha Logistics', 'Echo Metering', 'Northwind Stock']);
    expect(lastBody('/portal/accounts/search')).toMatchObject({ searchBy: 'city', searchKey: 'Hamburg', page: { page: 0 } });
    expect((screen.getByTestId('list-search') as HTMLInputElement).value).toBe('Hamburg');
    expect((screen.getByTestId('list-search-by') as HTMLSelectElement).value).toBe('city');
    expect(api.requests('/portal/accounts/paged')).toHaveLength(0);
  });

  it('offers the admin-only filters to the admin only', async () => {
    const filters = () =>
      within(screen.getByTestId('list-search-by'))
        .getAllByRole('option')
        .map((o) => o.getAttribute('value'));
    const nora = renderAccounts();
    // The list page loads lazily: wait for it, not for the shell.
    await screen.findByTestId('list-search-by', {}, { timeout: 5000 });
    expect(filters()).toEqual(['multi', 'accountId', 'name', 'address', 'city']);
    nora.unmount();

    renderWithProviders(<AppRoutes />, { route: '/accounts', preloadedState: signedIn(mockToken('admin')) });
    await screen.findByTestId('list-search-by', {}, { timeout: 5000 });
    await waitFor(() => expect(filters()).toEqual(['multi', 'accountId', 'name', 'address', 'city', 'resellerId', 'resellerName']));
  });

  it('sorts on the server when a header is clicked', async () => {
    const { user } = renderAccounts();
    const grid = await gridWithNames(['Alpha Logistics', 'Beacon Fleet', 'Cobalt Sensors', 'Echo Metering', 'Northwind Stock']);
    const header = within(grid)
      .getAllByRole('columnheader')
      .find((h) => h.getAttribute('col-id') === 'city');
    await user.click(within(header!).getByText('City'));
    await waitFor(() => expect(lastBody('/portal/accounts/paged')).toMatchObject({ sortBy: 'city', sortDir: 'asc' }));
    // Haifa, Hamburg x3 (then by id), Madrid: the server's order, kept by the grid.
    await gridWithNames(['Cobalt Sensors', 'Alpha Logistics', 'Echo Metering', 'Northwind Stock', 'Beacon Fleet']);
    expect(location()).toBe('/accounts?page=1&sortBy=city&sortDir=asc');
  });

  it('opens the detail route when a row is clicked', async () => {
    const { user } = renderAccounts();
    const grid = await gridWithNames(['Alpha Logistics', 'Beacon Fleet', 'Cobalt Sensors', 'Echo Metering', 'Northwind Stock']);
    await user.click(within(grid).getByText('Beacon Fleet'));
    await waitFor(() => expect(location()).toBe('/account/102'));
  });

  it('creates from the Create button route', async () => {
    const { user } = renderAccounts();
    await screen.findByTestId('grid-account');
    await user.click(screen.getByTestId('list-create'));
    await waitFor(() => expect(location()).toBe('/account/new'));
  });
});

describe('accounts list paging', () => {
  it('pages on the server, from the address and with the pager', async () => {
    for (let i = 0; i < 60; i++) {
      api.db.tables.account.push({ accountId: 1000 + i, name: `Fleet ${1000 + i}`, city: 'Oslo', resellerId: 10, inventoryAccount: false, usageCredit: 0 });
    }
    const { user } = renderWithProviders(<AppRoutes />, { route: '/accounts?page=2', preloadedState: signedIn(mockToken('nora')) });
    const grid = await screen.findByTestId('grid-account');
    // 65 rows, 50 a page: page 2 holds the last 15.
    await waitFor(() => expect(columnTexts(grid, 'name')).toHaveLength(15));
    expect(api.requests('/portal/accounts/paged')[0].body).toMatchObject({ page: { page: 1, size: 50 } });
    expect(screen.getByTestId('list-page').textContent).toBe('Page 2 of 2');
    expect(screen.getByTestId('list-total').textContent).toBe('65 items');

    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    await waitFor(() => expect(columnTexts(grid, 'name')).toHaveLength(50));
    expect(location()).toBe('/accounts?page=1');
    expect(screen.getByRole('button', { name: 'Previous page' })).toHaveProperty('disabled', true);
    expect(lastBody('/portal/accounts/paged')).toEqual({ sortBy: 'accountId', sortDir: 'asc', page: { page: 0, size: 50 } });

    // Next starts after the last row on screen: the server walks its index from there instead of counting past page 1.
    const lastOfFirst = columnTexts(grid, 'name')[49];
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(columnTexts(grid, 'name')).toHaveLength(15));
    const sent = lastBody('/portal/accounts/paged') as { page: { page: number; size: number; after?: number } };
    expect(sent.page).toMatchObject({ page: 1, size: 50 });
    expect(api.db.tables.account.find((a) => a.accountId === sent.page.after)?.name).toBe(lastOfFirst);
    expect(location()).toBe('/accounts?page=2');
    expect(screen.getByTestId('list-page').textContent).toBe('Page 2 of 2');
  });

  it("never starts the next page after a row of the last search, still on screen while the new search's answer is on its way", async () => {
    for (let i = 0; i < 60; i++) {
      api.db.tables.account.push({ accountId: 1000 + i, name: `Fleet ${1000 + i}`, city: 'Oslo', resellerId: 10, inventoryAccount: false, usageCredit: 0 });
    }
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    // The new search's first page is held, then answered by the mock API as usual.
    api.server.use(
      http.post('*/portal/accounts/search', async ({ request }) => {
        const body = (await request.clone().json()) as ListRequest;
        if (body.searchKey === 'Fleet 10' && body.page?.page === 0) await held;
      }),
    );
    const { user } = renderAccounts('/accounts?searchKey=Fleet&searchBy=name&page=1');
    const grid = await screen.findByTestId('grid-account');
    await waitFor(() => expect(columnTexts(grid, 'name')).toHaveLength(50));

    await user.clear(screen.getByTestId('list-search'));
    await user.type(screen.getByTestId('list-search'), 'Fleet 10{Enter}');
    await waitFor(() => expect(api.requests('/portal/accounts/search', 'POST').some((r) => (r.body as ListRequest).searchKey === 'Fleet 10')).toBe(true));
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    release();
    await waitFor(() => expect(location()).toContain('page=2'));
    await waitFor(() => expect(lastBody('/portal/accounts/search')).toMatchObject({ searchKey: 'Fleet 10', page: { page: 1 } }));
    expect((lastBody('/portal/accounts/search') as ListRequest).page?.after).toBeUndefined();
  });

  it('takes an estimated total as one and pages past it while pages come back full, until a short one ends the list', async () => {
    const schema = findSchema('account')!;
    const visible = () => api.db.tables.account.filter((a) => a.resellerId === 10 || a.resellerId === 11);
    for (let i = visible().length; i < 130; i++) {
      api.db.tables.account.push({ accountId: 1000 + i, name: `Fleet ${1000 + i}`, city: 'Oslo', resellerId: 10, inventoryAccount: false, usageCredit: 0 });
    }
    // The server's estimate of a big list can fall short of the rows it holds: here 60 of 130.
    api.server.use(
      http.post('*/portal/accounts/paged', async ({ request }) => {
        const page = pageInMemory(schema, visible(), normaliseListRequest(schema, (await request.json()) as ListRequest, false));
        return HttpResponse.json({ ...page, totalItemsCount: 60, totalPageCount: 2, totalIsEstimate: true });
      }),
    );
    const { user } = renderAccounts();
    const grid = await screen.findByTestId('grid-account');
    await waitFor(() => expect(columnTexts(grid, 'name')).toHaveLength(50));
    expect(screen.getByTestId('list-page').textContent).toBe('Page 1 of about 2');
    expect(screen.getByTestId('list-total').textContent).toBe('about 60 items');
    const next = () => screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement;

    await user.click(next());
    await waitFor(() => expect(screen.getByTestId('list-page').textContent).toBe('Page 2 of about 3'));
    expect(columnTexts(grid, 'name')).toHaveLength(50);
    // The estimated last page is full: there may be more, so Next stays open.
    expect(next().disabled).toBe(false);

    await user.click(next());
    await waitFor(() => expect(columnTexts(grid, 'name')).toHaveLength(30));
    expect((lastBody('/portal/accounts/paged') as { page: { page: number } }).page).toMatchObject({ page: 2, size: 50 });
    expect(location()).toBe('/accounts?page=3');
    // A short page is the last one, and every row before it is known: the count is exact.
    expect(screen.getByTestId('list-page').textContent).toBe('Page 3 of 3');
    expect(screen.getByTestId('list-total').textContent).toBe('130 items');
    expect(next().disabled).toBe(true);
  });

  it('hides a column from the chooser, saves the layout to the preferences, and resets it', async () => {
    const { user } = renderAccounts();
    const grid = await gridWithNames(['Alpha Logistics', 'Beacon Fleet', 'Cobalt Sensors', 'Echo Metering', 'Northwind Stock']);
    await user.click(screen.getByTestId('list-columns'));
    await user.click(await screen.findByTestId('column-choice-city'));
    await waitFor(() =>
      expect(
        within(grid)
          .queryAllByRole('columnheader')
          .some((h) => h.getAttribute('col-id') === 'city'),
      ).toBe(false),
    );
    await waitFor(() => expect(lastBody('/portal/user/preferences')).toBeDefined());
    const items = JSON.parse((lastBody('/portal/user/preferences') as { preferences: string }).preferences) as { type: string; value: string }[];
    const layout = JSON.parse(items.find((i) => i.type === 'grid.account')!.value);
    expect(layout.columns.find((c: { colId: string }) => c.colId === 'city')).toMatchObject({ hide: true });
    expect(items.some((i) => i.type === 'darkMode')).toBe(true); // other preferences kept
    await user.click(screen.getByTestId('column-reset'));
    await waitFor(() =>
      expect(
        within(grid)
          .queryAllByRole('columnheader')
          .some((h) => h.getAttribute('col-id') === 'city'),
      ).toBe(true),
    );
  });
});
