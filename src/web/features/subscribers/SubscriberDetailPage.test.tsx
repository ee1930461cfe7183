// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { failNextNetworkOperation, pendingOperation, seedSubscribers } from '../../../../mocks/subscriberHandlers';
import { mockToken } from '../../../../mocks/token';

const api = setupMockApi();

function render(route: string, user = 'admin') {
  seedSubscribers(api.db);
  return renderWithProviders(<AppRoutes />, { route, preloadedState: signedIn(mockToken(user)) });
}

const panelIds = () =>
  within(screen.getByTestId('subscriber-panels'))
    .queryAllByTestId(/^panel-/)
    .map((p) => p.dataset.testid);
const outcome = () => screen.findByTestId('operation-outcome');

describe('subscriber detail page', () => {
  it('shows the header and every panel to the administrator', async () => {
    render('/subscriber/7');
    expect((await screen.findByTestId('subscriber-name')).textContent).toContain('Forklift 7');
    expect(screen.getByTestId('subscriber-iccid').textContent).toContain('8988228000000000079');
    expect(screen.getByTestId('subscriber-msisdn').textContent).toContain('882280000007');
    const status = within(screen.getByTestId('subscriber-header')).getByTestId('subscriber-status');
    expect(status.textContent).toContain('Active');
    expect(status.className).toContain('bp6-intent-success');
    await waitFor(() => expect(panelIds()).toHaveLength(22));
    expect(panelIds()).toEqual(
      expect.arrayContaining(['panel-qos', 'panel-daily-limit', 'panel-audit-logs', 'panel-network-events', 'panel-services', 'panel-packages']),
    );
  });

  it('shows only the panels the role grants, and asks only for their data', async () => {
    api.db.users.find((u) => u.username === 'nora')!.privileges = [
      { privilege: 'Subscribers', subPrivileges: [] },
      { privilege: 'SubscriberDetails', subPrivileges: ['Status', 'AuditLogs'] },
    ];
    render('/subscriber/7', 'nora');
    await screen.findByTestId('subscriber-name');
    await waitFor(() => expect(panelIds().sort()).toEqual(['panel-audit-logs', 'panel-daily-limit', 'panel-details', 'panel-qos', 'panel-status']));
    expect(screen.queryByTestId('action-refresh-sim')).toBeNull();
    expect(screen.queryByTestId('action-credit')).toBeNull();
    expect(screen.getAllByTestId('action-suspend').length).toBeGreaterThan(0);
    expect(api.requests('/portal/subscriber-info/usage-logs/7')).toHaveLength(0);
    expect(api.requests('/portal/msisdn/7')).toHaveLength(0);
  });

  it('suspends and reactivates, showing the pending state and then the new status', async () => {
    const { user } = render('/subscriber/7');
    await screen.findByTestId('subscriber-name');
    await user.click(within(screen.getByTestId('subscriber-header')).getByTestId('action-suspend'));
    await screen.findByTestId('suspend-confirm');
    await user.click(document.querySelector<HTMLElement>('.portal-suspend-alert .bp6-alert-footer .bp6-intent-warning')!);
    expect((await outcome()).dataset.status).toBe('pending');
    expect(screen.getByTestId('operation-outcome').textContent).toContain('Suspend: waiting for the core network');
    await waitFor(() => expect(screen.getByTestId('operation-outcome').dataset.status).toBe('success'));
    const header = screen.getByTestId('subscriber-header');
    await waitFor(() => expect(within(header).getByTestId('subscriber-status').textContent).toContain('Suspended'));
    expect(within(header).getByTestId('subscriber-status').className).toContain('bp6-intent-warning');
    expect(api.requests('/portal/subscriber-info/api/', 'POST')[0].body).toEqual({ operation: 'suspend', subscriberId: 7 });

    await user.click(within(header).getByTestId('action-reactivate'));
    await waitFor(() => expect(within(header).getByTestId('subscriber-status').textContent).toContain('Active'));
    expect(screen.getByTestId('operation-outcome').textContent).toContain('Reactivate done.');
    // Both changes are in the audit log, newest first.
    const audit = await screen.findByTestId('audit-table');
    await waitFor(() => expect(within(audit).getAllByRole('row')).toHaveLength(3));
    expect(within(audit).getAllByRole('row')[1].textContent).toContain('Reactivate');
  });

  it('follows an operation that was already under way when the page opened', async () => {
    seedSubscribers(api.db);
    pendingOperation(api.db, 7, 'suspend', { status: 'suspended' });
    renderWithProviders(<AppRoutes />, { route: '/subscriber/7', preloadedState: signedIn(mockToken('admin')) });
    await waitFor(() => expect(screen.getByTestId('operation-outcome').dataset.status).toBe('pending'));
    expect((screen.getByTestId('action-suspend') as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(screen.getByTestId('operation-outcome').dataset.status).toBe('success'));
    await waitFor(() => expect(within(screen.getByTestId('subscriber-header')).getByTestId('subscriber-status').textContent).toBe('Suspended'));
  });

  it('shows a failed SIM refresh as an error and leaves the subscriber as it was', async () => {
    const { user } = render('/subscriber/7');
    await screen.findByTestId('subscriber-name');
    failNextNetworkOperation(api.db, 'OTA delivery failed: SMS-PP not acknowledged by the SIM');
    await user.click(within(screen.getByTestId('subscriber-header')).getByTestId('action-refresh-sim'));
    await waitFor(() => expect(screen.getByTestId('operation-outcome').dataset.status).toBe('failed'));
    expect(screen.getByTestId('operation-outcome').textContent).toContain('SIM refresh failed: OTA delivery failed');
    expect(screen.getByRole('alert').textContent).toContain('OTA delivery failed');
    expect(within(screen.getByTestId('subscriber-header')).getByTestId('subscriber-status').textContent).toContain('Active');
  });

  it('offers the free numbers of the MSISDN pool in the change-MSISDN dialog and sends the one picked', async () => {
    const { user } = render('/subscriber/7');
    await screen.findByTestId('subscriber-name');
    await user.click(screen.getAllByTestId('action-change-msisdn')[0]);
    const dialog = await screen.findByTestId('msisdn-dialog');
    const pool = await within(dialog).findByTestId('pool-msisdn');
    await user.selectOptions(pool, '46701740606');
    expect((within(dialog).getByTestId('new-msisdn') as HTMLInputElement).value).toBe('46701740606');
    await user.click(within(dialog).getByRole('button', { name: /change|save|apply/i }));
    await waitFor(() => expect(api.requests('/portal/subscriber-info/api/', 'POST')).toHaveLength(1));
    expect(api.requests('/portal/subscriber-info/api/', 'POST')[0].body).toEqual({ operation: 'modify-msisdn', subscriberId: 7, msisdn: '46701740606' });
    const listed = api.requests('/portal/inventory/msisdn-list', 'POST')[0].body;
    expect(listed).toMatchObject({ assigned: false, subscriberResellerId: 10 });
  });

  it('checks the daily limit before sending it, then sets it with a throttle speed', async () => {
    const { user } = render('/subscriber/7');
    await screen.findByTestId('subscriber-name');
    await user.click(within(screen.getByTestId('subscriber-header')).getByTestId('action-daily-limit'));
    const dialog = await screen.findByTestId('daily-limit-dialog');
    await user.click(within(dialog).getByTestId('daily-limit-dialog-submit'));
    expect(dialog.textContent).toContain('Daily limit is required');
    await user.type(within(dialog).getByTestId('daily-limit-amount'), '0');
    expect(dialog.textContent).toContain('Daily limit must be greater than 0');
    await user.clear(within(dialog).getByTestId('daily-limit-amount'));
    await user.type(within(dialog).getByTestId('daily-limit-amount'), '-5');
    expect(dialog.textContent).toContain('Daily limit must be greater than 0');
    expect(api.requests('/portal/subscriber-info/daily-limit', 'POST')).toHaveLength(0);

    await user.clear(within(dialog).getByTestId('daily-limit-amount'));
    await user.type(within(dialog).getByTestId('daily-limit-amount'), '500');
    await user.click(within(dialog).getByLabelText('Throttle to a lower speed'));
    await user.click(within(dialog).getByTestId('daily-limit-dialog-submit'));
    expect(dialog.textContent).toContain('Please choose a speed');
    await user.selectOptions(within(dialog).getByTestId('daily-limit-speed'), '256kbps');
    await user.click(within(dialog).getByTestId('daily-limit-dialog-submit'));
    await waitFor(() => expect(screen.queryByTestId('daily-limit-dialog')).toBeNull());
    expect(api.requests('/portal/subscriber-info/daily-limit', 'POST')[0].body).toEqual({
      subscriberId: 7,
      dailyLimitBytes: 500 * 1024 * 1024,
      qosThrottling: '256kbps',
    });
    await waitFor(() => expect(screen.getByTestId('daily-limit-facts').textContent).toContain('500 MB'));
    expect(screen.getByTestId('qos-facts').textContent).toContain('Throttle to 256 kbit/s');
  });

  it('refuses credit until a pricing plan is chosen, and says why', async () => {
    render('/subscriber/8');
    await screen.findByTestId('subscriber-name');
    expect((screen.getByTestId('action-credit') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('credit-needs-plan').textContent).toContain('A pricing plan must be chosen before adding credit');
  });

  it('offers only the plans the server accepts for the subscriber, the current one chosen', async () => {
    // A manager of Northwind: the provider's own plan is not its to give, though the subscriber's reseller is below the provider.
    Object.assign(
      api.db.users.find((u) => u.username === 'nora')!,
      {
        privileges: [
          { privilege: 'Subscribers', subPrivileges: [] },
          { privilege: 'SubscriberDetails', subPrivileges: ['Services'] },
        ],
      },
    );
    const { user } = render('/subscriber/7', 'nora');
    await screen.findByTestId('subscriber-name');
    await user.click(screen.getByTestId('action-pricing-plan'));
    const plans = await screen.findByTestId('pricing-plan-dialog');
    const select = within(plans).getByTestId('pricing-plan-select') as HTMLSelectElement;
    await waitFor(() => expect([...select.options].map((o) => o.textContent)).toEqual(['Choose…', 'Northwind Europe']));
    expect(select.value).toBe('2');
  });

  it('adds credit once a pricing plan is chosen', async () => {
    const { user } = render('/subscriber/8');
    await screen.findByTestId('subscriber-name');
    await user.click(screen.getByTestId('action-pricing-plan'));
    const plans = await screen.findByTestId('pricing-plan-dialog');
    await user.click(within(plans).getByTestId('pricing-plan-dialog-submit'));
    expect(plans.textContent).toContain('Please choose a pricing plan');
    await user.selectOptions(within(plans).getByTestId('pricing-plan-select'), 'Northwind Europe');
    await user.click(within(plans).getByTestId('pricing-plan-dialog-submit'));
    await waitFor(() => expect((screen.getByTestId('action-credit') as HTMLButtonElement).disabled).toBe(false));
    expect(screen.getByTestId('pricing-plan-name').textContent).toBe('Northwind Europe');
    expect(screen.queryByTestId('credit-needs-plan')).toBeNull();

    await user.click(screen.getByTestId('action-credit'));
    const credit = await screen.findByTestId('credit-dialog');
    await user.type(within(credit).getByTestId('credit-amount'), '2,555');
    await user.click(within(credit).getByTestId('credit-dialog-submit'));
    expect(credit.textContent).toContain('Please enter a valid $ amount.');
    await user.clear(within(credit).getByTestId('credit-amount'));
    await user.type(within(credit).getByTestId('credit-amount'), '2,5');
    await user.click(within(credit).getByTestId('credit-dialog-submit'));
    await waitFor(() => expect(screen.queryByTestId('credit-dialog')).toBeNull());
    expect(api.requests('/portal/subscriber-info/api/', 'POST').at(-1)!.body).toEqual({ operation: 'credit', subscriberId: 8, amount: 2.5 });
    expect((await screen.findByTestId('charges-table')).textContent).toContain('$2.50');
    expect(screen.getByTestId('operation-outcome').textContent).toBe('Credit done.');
  });

  it('edits the device with the schema rules and names the device by its IMEI', async () => {
    const { user } = render('/subscriber/7');
    const device = await screen.findByTestId('panel-device');
    const imei = await within(device).findByLabelText(/IMEI/);
    await user.clear(imei);
    await user.type(imei, '12ab');
    expect(await within(device).findByText('IMEI must be 14 to 16 digits')).toBeTruthy();
    await user.clear(imei);
    await user.type(imei, '864239040000008');
    await user.click(within(device).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.requests('/portal/subscriber-info/7', 'POST')).toHaveLength(1));
    expect(api.requests('/portal/subscriber-info/7', 'POST')[0].body).toMatchObject({ imei: '864239040000008', groupName: 'Warehouse', subscriberId: 7 });
    await user.click(within(device).getByTestId('equipment-lookup'));
    expect((await within(device).findByTestId('equipment')).textContent).toContain('Teltonika RUT240');
  });

  it('draws the eSIM activation code as a QR code and mails it', async () => {
    const { user } = render('/subscriber/7');
    await user.click(await screen.findByTestId('action-pair-device'));
    const dialog = await screen.findByTestId('pair-device-dialog');
    expect((await within(dialog).findByTestId('activation-code')).textContent).toContain('LPA:1$smdp.example.com$ACT-0007');
    await waitFor(() => expect(within(dialog).getByTestId('esim-qr').getAttribute('src')).toMatch(/^data:image\/png;base64,/));
    await user.type(within(dialog).getByTestId('qr-email'), 'field@example.com');
    await user.click(within(dialog).getByTestId('qr-send'));
    expect((await within(dialog).findByTestId('qr-sent')).textContent).toBe('The QR code was sent to field@example.com.');
    expect(api.requests('/portal/sim-cards/8988228000000000079', 'POST')[0].body).toEqual({ email: 'field@example.com' });
  });
});
