// @vitest-environment happy-dom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { PRIVILEGE_CATALOGUE } from '@shared/privileges';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { mockToken } from '../../../../mocks/token';
import DashboardPage from './DashboardPage';

// Canvas drawing is the browser test's: here the charts show what they were given.
vi.mock('@web/ui/CountryMap', () => ({
  default: ({ values }: { values?: Record<string, number> }) => <div data-testid="country-map" data-countries={Object.keys(values ?? {}).join(',')} />,
}));
vi.mock('@web/ui/charts/SeriesChart', () => ({
  default: ({ points, testId }: { points: unknown[]; testId?: string }) => <div data-testid={testId} data-points={points.length} />,
}));

const api = setupMockApi();

/** A reseller's user holding `privileges`, added to the mock backend. */
function addUser(username: string, privileges: string[]) {
  api.db.users.push({
    id: 90 + api.db.users.length,
    username,
    password: 'x',
    email: null,
    firstName: 'Rita',
    lastName: null,
    accountId: null,
    resellerId: 10,
    privileges: PRIVILEGE_CATALOGUE.filter((p) => privileges.includes(p.privilege)).map((p) => ({ ...p, subPrivileges: [...p.subPrivileges] })),
    preferences: '[]',
  });
}

const render = (user: string, route = '/') =>
  renderWithProviders(<DashboardPage isRouted={() => true} balance={<div data-testid="balance-slot" />} />, {
    route,
    preloadedState: signedIn(mockToken(user)),
  });

const state = (id: string) => screen.getByTestId(id).dataset.state;
const ready = (id: string) => waitFor(() => expect(state(id)).toBe('ready'));

describe('dashboard', () => {
  it('reads a trend with nothing in either period as none, and something after nothing as new', async () => {
    api.server.use(
      http.post('/portal/graphs/trends', () =>
        HttpResponse.json({
          usage: { last24Hours: 12, previousDailyAverage: 0, direction: 'up', percent: null, unit: 'MB' },
          sales: { last24Hours: 0, previousDailyAverage: 0, direction: 'flat', percent: null, unit: 'USD' },
        }),
      ),
    );
    render('nora');
    await waitFor(() => expect(screen.getByTestId('dashboard-trend-sales').textContent).toContain('none'));
    expect(screen.getByTestId('dashboard-trend-usage').textContent).toContain('new');
  });

  it('draws every graph of the range, and a new range is asked of the server and kept in the address', async () => {
    render('nora');
    for (const id of ['dashboard-map', 'dashboard-usage', 'dashboard-sales', 'dashboard-sales-by', 'dashboard-top']) await ready(id);
    expect(screen.getByTestId('dashboard-trend-usage').dataset.direction).toBe('up');
    expect(screen.getByTestId('dashboard-trend-sales').textContent).toContain('-20%');
    expect((await screen.findByTestId('country-map')).dataset.countries).toBe('DE,US,NL');
    expect(screen.getByTestId('dashboard-top-7').getAttribute('href')).toBe('/subscriber/7');
    // The default range, with the device's zone.
    const first = api.requests('/portal/graphs/usage')[0];
    expect(first.body).toEqual({ range: 'last7Days' });
    expect(first.headers.get('x-time-zone')).toBeTruthy();

    fireEvent.change(screen.getByTestId('dashboard-range-select'), { target: { value: 'last12Months' } });
    await waitFor(() => expect(api.requests('/portal/graphs/countries').some((r) => (r.body as { range: string }).range === 'last12Months')).toBe(true));
    expect(screen.getByTestId('location').textContent).toBe('/?range=last12Months');
    await ready('dashboard-usage');
    await waitFor(() => expect(screen.getByTestId('dashboard-usage-chart').dataset.points).toBe('12'));
    // Saved for the next visit.
    await waitFor(() => expect(api.requests('/portal/user/preferences').length).toBeGreaterThan(0));
    expect(JSON.parse((api.requests('/portal/user/preferences').at(-1)!.body as { preferences: string }).preferences)).toContainEqual({
      type: 'dashboardRange',
      value: JSON.stringify({ range: 'last12Months' }),
    });
  });

  it('waits for both dates of a custom range, then asks for it', async () => {
    render('nora', '/?range=custom&from=2026-10-01');
    await waitFor(() => expect(screen.getByTestId('dashboard-range-from')).toBeTruthy());
    expect(state('dashboard-usage')).toBe('loading');
    expect(api.requests('/portal/graphs/usage')).toHaveLength(0);
    fireEvent.change(screen.getByTestId('dashboard-range-to'), { target: { value: '2026-10-09' } });
    await ready('dashboard-usage');
    expect(api.requests('/portal/graphs/usage')[0].body).toEqual({ range: 'custom', from: '2026-10-01', to: '2026-10-09' });
  });

  it('says when a range has no data, and when the user lacks the privilege', async () => {
    api.db.tables.graphEmpty = [{}];
    const { unmount } = render('nora');
    for (const id of ['dashboard-map', 'dashboard-usage', 'dashboard-sales-by', 'dashboard-top']) await waitFor(() => expect(state(id)).toBe('empty-noData'));
    unmount();
    const asked = api.requests('/portal/graphs/usage').length;
    addUser('clerk', ['Accounts']);
    render('clerk');
    await waitFor(() => expect(state('dashboard-map')).toBe('empty-noPrivilege'));
    expect(state('dashboard-usage')).toBe('empty-noPrivilege');
    expect(state('dashboard-top')).toBe('empty-noPrivilege');
    expect(screen.getAllByText('Not available to you').length).toBeGreaterThan(2);
    expect(api.requests('/portal/graphs/usage')).toHaveLength(asked);
  });

  it("shows a paying reseller's balance, summary, latest invoices and balance history", async () => {
    addUser('rita', ['Dashboard', 'PaymentMethods', 'Resellers']);
    render('rita');
    await screen.findByTestId('balance-slot');
    await waitFor(() => expect(screen.getByTestId('dashboard-total-deposit').textContent).toBe('$1,500.00'));
    expect(screen.getByTestId('dashboard-open-balance').textContent).toBe('$75.50');
    expect(within(screen.getByTestId('dashboard-invoices')).getByRole('link').getAttribute('href')).toBe('/reseller/10?tab=invoices');
    await ready('dashboard-balance-history');
  });

  it('keeps the default shortcuts until the user edits them, and saves the new choice and order', async () => {
    render('nora');
    const shown = () =>
      [...screen.getByTestId('dashboard-welcome').parentElement!.querySelectorAll('[data-testid^="shortcut-"]')].map((e) => e.getAttribute('data-testid'));
    await waitFor(() => expect(shown()).toEqual(['shortcut-createPlan', 'shortcut-addSubscribers', 'shortcut-openTicket']));
    fireEvent.click(screen.getByTestId('shortcuts-edit'));
    fireEvent.click(await screen.findByTestId('shortcut-choose-createPlan'));
    fireEvent.click(screen.getByTestId('shortcut-choose-subscribers'));
    fireEvent.click(screen.getByTestId('shortcut-up-subscribers'));
    fireEvent.click(screen.getByTestId('shortcut-editor-save'));
    await waitFor(() => expect(shown()).toEqual(['shortcut-addSubscribers', 'shortcut-subscribers', 'shortcut-openTicket']));
    const saved = JSON.parse((api.requests('/portal/user/preferences').at(-1)!.body as { preferences: string }).preferences);
    expect(saved).toContainEqual({ type: 'dashboardShortcuts', value: 'addSubscribers,subscribers,openTicket' });
    expect(saved).toContainEqual({ type: 'darkMode', value: 'false' });
  });

  it('sends a support request from the Open ticket shortcut, checking its fields first', async () => {
    render('nora');
    fireEvent.click(await screen.findByTestId('shortcut-openTicket'));
    const dialog = await screen.findByTestId('ticket-dialog');
    fireEvent.click(within(dialog).getByTestId('ticket-send'));
    expect(await within(dialog).findByText('Enter a subject.')).toBeTruthy();
    expect(within(dialog).getByText('Describe what you need.')).toBeTruthy();
    expect(api.requests('/portal/support/tickets')).toHaveLength(0);
    fireEvent.change(within(dialog).getByTestId('ticket-subject'), { target: { value: 'Invoice question' } });
    fireEvent.change(within(dialog).getByTestId('ticket-category'), { target: { value: 'billing' } });
    fireEvent.change(within(dialog).getByTestId('ticket-message'), { target: { value: 'Why is October open?' } });
    fireEvent.click(within(dialog).getByTestId('ticket-send'));
    expect(await screen.findByText('Your request no. 1 was sent to the administrator.')).toBeTruthy();
    expect(api.requests('/portal/support/tickets')[0].body).toEqual({ subject: 'Invoice question', message: 'Why is October open?', category: 'billing' });
    await waitFor(() => expect(screen.queryByTestId('ticket-dialog')).toBeNull());
  });
});
