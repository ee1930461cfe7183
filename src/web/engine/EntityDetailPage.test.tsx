// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { Link } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { mockToken } from '../../../mocks/token';

const api = setupMockApi();

function renderDetail(route: string) {
  return renderWithProviders(<AppRoutes />, { route, preloadedState: signedIn(mockToken('nora')) });
}

const location = () => screen.getByTestId('location').textContent;
const breadcrumbs = () => document.querySelector('.portal-breadcrumbs') as HTMLElement;

describe('account detail', () => {
  it('loads the row into the form and saves changes with PUT', async () => {
    const { user } = renderDetail('/account/102');
    const name = (await screen.findByLabelText(/^Name/, undefined, { timeout: 15000 })) as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('Beacon Fleet'));
    // Titled by its name, on the page and in the window's title.
    expect(screen.getByRole('heading', { name: 'Beacon Fleet' })).toBeTruthy();
    expect(document.title).toBe('Beacon Fleet · Connectivity Portal');
    // Where the row sits: its list, a link, then the row itself.
    const crumbs = [...document.querySelectorAll('.portal-breadcrumbs li')].map((li) => li.textContent);
    expect(crumbs).toEqual(['Accounts', 'Beacon Fleet']);
    expect(within(breadcrumbs()).getByRole('link', { name: 'Accounts' }).getAttribute('href')).toBe('#/accounts');

    await user.clear(name);
    await user.type(name, 'Beacon Fleet Services');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(api.requests('/portal/accounts/', 'PUT')).toHaveLength(1));
    expect(api.requests('/portal/accounts/', 'PUT')[0].body).toMatchObject({ accountId: 102, name: 'Beacon Fleet Services' });
    expect(api.db.tables.account.find((r) => r.accountId === 102)?.name).toBe('Beacon Fleet Services');
  });

  it('shows nothing of the last row while the next one, opened from the same page, is on its way', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    // Held, then answered by the mock API as usual.
    api.server.use(http.get('*/portal/accounts/101', async () => void (await held)));
    const { user } = renderWithProviders(
      <>
        <AppRoutes />
        <Link to="/account/101">next</Link>
      </>,
      { route: '/account/102', preloadedState: signedIn(mockToken('nora')) },
    );
    const first = (await screen.findByLabelText(/^Name/, undefined, { timeout: 15000 })) as HTMLInputElement;
    await waitFor(() => expect(first.value).toBe('Beacon Fleet'));
    await user.type(first, ' (edited)');

    await user.click(screen.getByRole('link', { name: 'next' }));
    await waitFor(() => expect(location()).toBe('/account/101'));
    // Neither the last row nor what was typed into it stands under the new address, where Save would write it.
    expect(screen.queryByRole('heading', { name: /Beacon Fleet/ })).toBeNull();
    expect(screen.queryByDisplayValue(/Beacon Fleet/)).toBeNull();
    release();
    await waitFor(() => expect((screen.getByLabelText(/^Name/) as HTMLInputElement).value).toBe('Alpha Logistics'));
    expect(api.requests('/portal/accounts/', 'PUT')).toEqual([]);
  });

  it('creates with POST and moves to the new row', async () => {
    const { user } = renderDetail('/account/new');
    expect(await screen.findByRole('heading', { name: 'New Account' })).toBeTruthy();
    await user.type(await screen.findByLabelText(/^Name/, undefined, { timeout: 15000 }), 'Gamma Ports');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(location()).toBe('/account/107'));
    expect(api.requests('/portal/accounts/', 'POST')[0].body).toMatchObject({ name: 'Gamma Ports' });
    // The reseller choices come from the reseller list call.
    expect(api.requests('/portal/reseller-info/list', 'GET').length).toBeGreaterThan(0);
  });

  it('shows the server’s 409 under the field', async () => {
    const { user } = renderDetail('/account/new');
    await user.type(await screen.findByLabelText(/^Name/, undefined, { timeout: 15000 }), 'Alpha Logistics');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('account name already exists')).toBeTruthy();
    expect(location()).toBe('/account/new');
  });

  it('names plans from the lists loaded after sign-in: N/D for none, "Set by admin" for one set above the reseller', async () => {
    renderDetail('/account/102');
    const roaming = (await screen.findByLabelText(/^Roaming plan/, undefined, { timeout: 15000 })) as HTMLSelectElement;
    await waitFor(() => expect(roaming.selectedOptions[0]?.textContent).toBe('Set by admin'));
    expect([...roaming.options].map((o) => o.textContent)).toEqual(['Choose…', 'N/D', 'Northwind Europe', 'Set by admin']);
    const international = screen.getByLabelText(/^International pricing plan/) as HTMLSelectElement;
    expect(international.selectedOptions[0]?.textContent).toBe('N/D');
    expect(api.requests('/portal/pricing-plans/', 'GET').length).toBeGreaterThan(0);
  });

  it('stands in the id for the name only while the row loads', async () => {
    renderDetail('/account/102');
    expect(await screen.findByRole('heading', { name: 'Account 102' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Beacon Fleet' }, { timeout: 15000 })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Account 102' })).toBeNull();
  });

  it('says the row does not exist for another tenant’s row (403)', async () => {
    renderDetail('/account/104');
    expect((await screen.findByTestId('detail-not-found')).textContent).toBe('This record does not exist or you may not see it.');
  });

  it('offers to reload when someone saved the row since it was opened, and keeps their change', async () => {
    const { user } = renderDetail('/account/102');
    const city = (await screen.findByLabelText(/^City/, undefined, { timeout: 15000 })) as HTMLInputElement;
    await waitFor(() => expect(city.value).toBe('Madrid'));
    // Someone else saves the row meanwhile.
    Object.assign(
      api.db.tables.account.find((r) => r.accountId === 102)!,
      { name: 'Beacon Fleet Group', version: 2 },
    );
    await user.clear(city);
    await user.type(city, 'Bilbao');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByTestId('stale-row')).textContent).toContain('Someone else saved this record after you opened it.');
    // What was typed stays until the user chooses to reload.
    expect((screen.getByLabelText(/^City/) as HTMLInputElement).value).toBe('Bilbao');
    expect(api.db.tables.account.find((r) => r.accountId === 102)).toMatchObject({ name: 'Beacon Fleet Group', city: 'Madrid' });
    await user.click(screen.getByTestId('stale-reload'));
    await waitFor(() => expect((screen.getByLabelText(/^Name/) as HTMLInputElement).value).toBe('Beacon Fleet Group'));
    expect(screen.queryByTestId('stale-row')).toBeNull();
    // The reloaded row saves.
    await user.clear(screen.getByLabelText(/^City/));
    await user.type(screen.getByLabelText(/^City/), 'Bilbao');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.db.tables.account.find((r) => r.accountId === 102)).toMatchObject({ name: 'Beacon Fleet Group', city: 'Bilbao', version: 3 }),
    );
  });

  it("shows an account user its account's commercial fields read-only, and no way to create an account", async () => {
    Object.assign(
      api.db.users.find((u) => u.username === 'viewer')!,
      { accountId: 104, privileges: [{ privilege: 'Accounts', subPrivileges: [] }] },
    );
    const { user } = renderWithProviders(<AppRoutes />, { route: '/account/104', preloadedState: signedIn(mockToken('viewer')) });
    const name = (await screen.findByLabelText(/^Name/, undefined, { timeout: 15000 })) as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('Delta Rail'));
    expect(name.readOnly || name.disabled).toBe(false);
    const credit = screen.getByLabelText(/^Usage credit/) as HTMLInputElement;
    expect(credit.readOnly || credit.disabled).toBe(true);
    expect((screen.getByLabelText(/^Roaming plan/) as HTMLSelectElement).disabled).toBe(true);
    await user.click(within(breadcrumbs()).getByRole('link', { name: /^Accounts$/ }));
    await screen.findByTestId('grid-account', {}, { timeout: 15000 });
    expect(screen.queryByTestId('list-create')).toBeNull();
  });

  it('says the row does not exist for an unknown id (404)', async () => {
    renderDetail('/account/999');
    expect(await screen.findByTestId('detail-not-found')).toBeTruthy();
  });
});
