// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { errorResponse } from '../../../../mocks/http';
import { labSwitches } from '../../../../mocks/labsHandlers';
import { seedSubscribers } from '../../../../mocks/subscriberHandlers';
import { mockToken } from '../../../../mocks/token';

const api = setupMockApi();

const renderAs = (username: string, route = '/labs') => renderWithProviders(<AppRoutes />, { route, preloadedState: signedIn(mockToken(username)) });

/** Nora, Northwind Mobile's manager (reseller 10), with the Labs privilege and the subscriber screens. */
function noraManagesLabs() {
  api.db.users
    .find((u) => u.username === 'nora')!
    .privileges.push(
      { privilege: 'Labs', subPrivileges: [] },
      { privilege: 'Subscribers', subPrivileges: [] },
      { privilege: 'SubscriberDetails', subPrivileges: ['NetworkEvents'] },
    );
}

const switchOff = (resellerId: number, lab: string) =>
  labSwitches(api.db).set(`${resellerId}/${lab}`, { enabled: false, updatedBy: 'admin', updatedAt: '2026-11-20T10:00:00Z' });

/** The switch's checkbox (Blueprint puts the test id on the input itself). */
const labSwitch = async (key: string) => {
  const found = await screen.findByTestId(`lab-switch-${key}`);
  return (found instanceof HTMLInputElement ? found : found.querySelector('input')) as HTMLInputElement;
};

describe('labs page', () => {
  it("lists every lab with its name, description and state, and switches the provider's for the administrator", async () => {
    const { user } = renderAs('admin');
    const row = await screen.findByTestId('lab-subscriberSms');
    expect(row.textContent).toContain('SMS to subscribers');
    expect(row.textContent).toContain("Send a text message to a subscriber's SIM");
    expect(row.textContent).toContain('Not switched here: on (default on)');
    expect(screen.getByTestId('lab-subscriberCsvUpdate').textContent).toContain('Subscriber update from CSV');
    expect(document.title).toBe('Labs · Connectivity Portal');
    expect((screen.getByTestId('labs-tenant') as HTMLSelectElement).value).toBe('-1');

    const sms = await labSwitch('subscriberSms');
    expect(sms.checked).toBe(true);
    await user.click(sms);
    await waitFor(() => expect(api.requests('/portal/labs/subscriberSms', 'PUT')).toHaveLength(1));
    expect(api.requests('/portal/labs/subscriberSms', 'PUT')[0].body).toEqual({ enabled: false, resellerId: -1 });
    await waitFor(() => expect(screen.getByTestId('lab-subscriberSms').textContent).toContain('Switched off by admin'));
    expect((await labSwitch('subscriberSms')).checked).toBe(false);
  });

  it('lets the administrator pick a reseller, where the provider switch shows locked', async () => {
    switchOff(-1, 'subscriberCsvUpdate');
    const { user } = renderAs('admin');
    await screen.findByTestId('lab-subscriberCsvUpdate');
    const tenant = screen.getByTestId('labs-tenant') as HTMLSelectElement;
    await waitFor(() =>
      expect(
        within(tenant)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toContain('Northwind Mobile'),
    );
    await user.selectOptions(tenant, '10');
    await waitFor(() => expect(api.requests('/portal/labs').some((r) => r.url.searchParams.get('resellerId') === '10')).toBe(true));
    expect(await screen.findByTestId('lab-locked-subscriberCsvUpdate')).toBeTruthy();
    expect((await labSwitch('subscriberCsvUpdate')).disabled).toBe(true);
    expect(screen.queryByTestId('lab-locked-subscriberSms')).toBeNull();
  });

  it("never offers the last tenant's switches while the picked tenant's are on their way: they would write to the last one", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    // Held, then answered by the mock API as usual.
    api.server.use(http.get('*/portal/labs', async ({ request }) => void (new URL(request.url).searchParams.get('resellerId') === '10' && (await held))));
    const { user } = renderAs('admin');
    await screen.findByTestId('lab-subscriberSms');
    const tenant = screen.getByTestId('labs-tenant') as HTMLSelectElement;
    await waitFor(() => expect(within(tenant).getAllByRole('option').length).toBeGreaterThan(1));
    await user.selectOptions(tenant, '10');
    await waitFor(() => expect(api.requests('/portal/labs').some((r) => r.url.searchParams.get('resellerId') === '10')).toBe(true));
    expect(screen.queryByTestId('lab-subscriberSms')).toBeNull();
    release();
    await user.click(await labSwitch('subscriberSms'));
    await waitFor(() => expect(api.requests('/portal/labs/subscriberSms', 'PUT')).toHaveLength(1));
    expect(api.requests('/portal/labs/subscriberSms', 'PUT')[0].body).toEqual({ enabled: false, resellerId: 10 });
  });

  it("lets a reseller's manager with Labs reach the page from the user menu and switch its own tenant", async () => {
    noraManagesLabs();
    switchOff(-1, 'subscriberCsvUpdate');
    const { user } = renderAs('nora', '/');
    await user.click(await screen.findByTestId('user-menu'));
    await user.click(await screen.findByTestId('menu-settings-labs'));
    expect(await screen.findByTestId('labs-page')).toBeTruthy();
    expect(screen.queryByTestId('labs-tenant')).toBeNull();
    expect(await screen.findByTestId('lab-locked-subscriberCsvUpdate')).toBeTruthy();
    expect(screen.getByTestId('lab-subscriberCsvUpdate').textContent).toContain('Locked: switched off above this organisation');

    await user.click(await labSwitch('subscriberSms'));
    await waitFor(() => expect(api.requests('/portal/labs/subscriberSms', 'PUT')).toHaveLength(1));
    expect(api.requests('/portal/labs/subscriberSms', 'PUT')[0].body).toEqual({ enabled: false, resellerId: 10 });
    expect(labSwitches(api.db).get('10/subscriberSms')?.enabled).toBe(false);
  });

  it("is not offered to an account's user, whose tenant's switches are its reseller's", async () => {
    noraManagesLabs();
    api.db.users.find((u) => u.username === 'nora')!.accountId = 101;
    const { user } = renderAs('nora', '/');
    await user.click(await screen.findByTestId('user-menu'));
    await screen.findByTestId('menu-change-password');
    expect(screen.queryByTestId('menu-settings-labs')).toBeNull();
  });

  it("opens from the administrator's settings menu", async () => {
    const { user } = renderAs('admin', '/');
    await user.click(await screen.findByTestId('settings-open'));
    await user.click(await screen.findByTestId('settings-labs'));
    expect(await screen.findByTestId('labs-page')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/labs');
  });

  it('is not offered to a user without the Labs privilege', async () => {
    const { user } = renderAs('nora', '/');
    await user.click(await screen.findByTestId('user-menu'));
    await screen.findByTestId('menu-change-password');
    expect(screen.queryByTestId('menu-settings-labs')).toBeNull();
    renderAs('nora');
    expect(await screen.findByTestId('no-privilege')).toBeTruthy();
  });
});

describe('a feature behind a lab', () => {
  it('hides the SMS action where the tenant switched SMS off, and shows it where it is on', async () => {
    noraManagesLabs();
    seedSubscribers(api.db);
    switchOff(10, 'subscriberSms');
    renderAs('nora', '/subscriber/7');
    await screen.findByTestId('subscriber-name');
    await waitFor(() => expect(api.requests('/portal/labs', 'GET').length).toBeGreaterThan(0));
    await waitFor(() => expect(screen.queryByTestId('action-send-sms')).toBeNull());
    expect(screen.getByTestId('action-daily-limit')).toBeTruthy();
    // The administrator's tenant (the provider) still has it.
    renderAs('admin', '/subscriber/7');
    expect(await screen.findAllByTestId('action-send-sms')).toHaveLength(1);
  });

  it('hides the CSV update where it is switched off above the tenant', async () => {
    noraManagesLabs();
    seedSubscribers(api.db);
    switchOff(-1, 'subscriberCsvUpdate');
    renderAs('nora', '/subscribers');
    await screen.findByTestId('grid-subscriber');
    await waitFor(() => expect(api.requests('/portal/labs', 'GET').length).toBeGreaterThan(0));
    await waitFor(() => expect(screen.queryByTestId('bulk-csv-open')).toBeNull());
  });

  it('reads the labs again when the server says a feature was switched off since, and hides it', async () => {
    noraManagesLabs();
    seedSubscribers(api.db);
    const { user } = renderAs('nora', '/subscriber/7');
    await user.click(await screen.findByTestId('action-send-sms'));
    await user.type(await screen.findByTestId('sms-text'), 'Hello');
    // Switched off elsewhere after this screen read the labs.
    switchOff(10, 'subscriberSms');
    api.server.use(http.post('/portal/subscriber-info/:id/sms', () => errorResponse(403, 'LAB_OFF', 'This feature is switched off (subscriberSms)')));
    const reads = api.requests('/portal/labs', 'GET').length;
    await user.click(screen.getByTestId('sms-dialog-submit'));
    await waitFor(() => expect(api.requests('/portal/labs', 'GET').length).toBeGreaterThan(reads));
    await waitFor(() => expect(screen.queryByTestId('action-send-sms')).toBeNull());
  });
});
