// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { seedSubscribers } from '../../../../../mocks/subscriberHandlers';
import { mockToken } from '../../../../../mocks/token';

const api = setupMockApi();

function render(route: string, user = 'admin') {
  seedSubscribers(api.db);
  return renderWithProviders(<AppRoutes />, { route, preloadedState: signedIn(mockToken(user)) });
}

const facts = async () => (await screen.findByTestId('sim-facts')).textContent;

describe('SIM card screen', () => {
  it('shows every field of an eSIM, the subscriber it serves, its QR code, and mails the code', async () => {
    const { user } = render('/sim/8988228000000000079');
    const shown = await facts();
    for (const text of ['8988228000000000079', 'eSIM', 'Active', 'consumer', 'B-1', '$2.50', 'Northwind', 'Northwind Mobile']) expect(shown).toContain(text);
    expect(screen.getByTestId('sim-subscriber-link').getAttribute('href')).toBe('/subscriber/7');
    expect(screen.getByTestId('sim-subscriber-link').textContent).toBe('Forklift 7');
    expect(screen.getByTestId('activation-code').textContent).toBe('LPA:1$smdp.example.com$ACT-0007');
    await waitFor(() => expect(screen.getByTestId('esim-qr').getAttribute('src')).toMatch(/^data:image\/png;base64,/));

    await user.click(screen.getByTestId('qr-send'));
    expect(await screen.findByText('E-mail is required')).toBeTruthy();
    expect(api.requests('/portal/sim-cards/8988228000000000079', 'POST')).toHaveLength(0);
    await user.type(screen.getByTestId('qr-email'), 'field@example.com');
    await user.click(screen.getByTestId('qr-send'));
    expect((await screen.findByTestId('qr-sent')).textContent).toBe('The QR code was sent to field@example.com.');
    expect(api.requests('/portal/sim-cards/8988228000000000079', 'POST')[0].body).toEqual({ email: 'field@example.com' });
  });

  it('says when the mail could not be sent', async () => {
    const { user } = render('/sim/8988228000000000079');
    await facts();
    await user.type(screen.getByTestId('qr-email'), 'a@b');
    await user.click(screen.getByTestId('qr-send'));
    expect(await screen.findByText('E-mail must be valid')).toBeTruthy();
    api.db.tables.simCard = api.db.tables.simCard.filter((c) => c.iccid !== '8988228000000000079');
    await user.clear(screen.getByTestId('qr-email'));
    await user.type(screen.getByTestId('qr-email'), 'ops@example.com');
    await user.click(screen.getByTestId('qr-send'));
    expect((await screen.findByTestId('qr-send-error')).textContent).toBe('The QR code could not be sent: No SIM card found for this ICCID');
  });

  it('shows a physical SIM without the eSIM panel and a card in inventory without a subscriber', async () => {
    render('/sim/8988228000000000087');
    expect(await facts()).toContain('Physical SIM');
    expect(screen.queryByTestId('panel-sim-esim')).toBeNull();
    expect(screen.getByTestId('sim-subscriber-link').textContent).toBe('Meter 8');

    render('/sim/8988228000000000095');
    await waitFor(() => expect(screen.getAllByTestId('sim-facts').at(-1)!.textContent).toContain('In inventory'));
    expect(screen.getAllByTestId('panel-sim-subscriber').at(-1)!.textContent).toContain('not in service with a subscriber');
  });

  it("refuses an address that is no ICCID and says when a card is unknown or another reseller's", async () => {
    render('/sim/12345');
    expect((await screen.findByTestId('sim-invalid')).textContent).toBe('ICCID must be 18 to 22 digits ending with its check digit');
    expect(api.requests('/portal/sim-cards/12345')).toHaveLength(0);

    // Blue Sky Telecom's user may open subscribers, but not Northwind's cards.
    api.db.users.find((u) => u.username === 'viewer')!.privileges = [{ privilege: 'Subscribers', subPrivileges: [] }];
    render('/sim/8988228000000000079', 'viewer');
    expect((await screen.findAllByTestId('detail-not-found')).at(-1)!.textContent).toContain('No SIM card found for this ICCID');
  });

  it('lists the SIM cards the user sees and narrows them by ICCID, type and status', async () => {
    const { user } = render('/sim/8988228000000000079');
    const table = await screen.findByTestId('sim-find-table');
    const iccids = () =>
      within(screen.getByTestId('sim-find-table'))
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.querySelector('td')!.textContent);
    expect(iccids()).toEqual(['8988228000000000079', '8988228000000000087', '8988228000000000095']);
    // The card shown is not a link; the others open their own screen.
    expect(within(table).queryByRole('link', { name: '8988228000000000079' })).toBeNull();
    expect(within(table).getByRole('link', { name: '8988228000000000087' }).getAttribute('href')).toBe('/sim/8988228000000000087');

    await user.type(screen.getByTestId('sim-find-text'), '87x');
    expect(await screen.findByText('Type digits of the ICCID only')).toBeTruthy();
    await user.type(screen.getByTestId('sim-find-text'), '{Backspace}{Enter}');
    await waitFor(() => expect(iccids()).toEqual(['8988228000000000087']));
    expect(api.requests('/portal/sim-cards').at(-1)!.url.searchParams.get('searchKey')).toBe('87');

    await user.clear(screen.getByTestId('sim-find-text'));
    await user.selectOptions(screen.getByTestId('sim-find-type'), 'esim');
    await waitFor(() => expect(iccids()).toEqual(['8988228000000000079', '8988228000000000095']));
    await user.selectOptions(screen.getByTestId('sim-find-status'), 'inventory');
    await waitFor(() => expect(iccids()).toEqual(['8988228000000000095']));
  });
});
