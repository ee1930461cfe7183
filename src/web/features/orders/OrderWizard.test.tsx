// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { mockToken } from '../../../../mocks/token';
import { WIZARD_KEY } from './OrderWizard';

const api = setupMockApi();
const UUID = '0b5e2c1a-1111-4222-8333-944455556666';

function mockOrders() {
  api.db.users.find((u) => u.username === 'nora')!.privileges.push({ privilege: 'SimOrders', subPrivileges: [] });
  api.db.tables.sponsor = [
    { id: 1, name: 'Orbit Home NL', plmn: '20404', imsiPrefix: '2040412', country: 'NL' },
    { id: 2, name: 'Orbit Home UK', plmn: '23410', imsiPrefix: '2341077', country: 'GB' },
  ];
  api.server.use(
    http.get('/portal/roaming-profiles', () => HttpResponse.json([{ id: 5, name: 'Europe IoT', reference: 'NW-EU', slots: 1, resellerId: 10 }])),
    http.get('/portal/sim-providers', () =>
      HttpResponse.json([{ id: 1, name: 'Orbit Cards', vendor: 'simulator', simTypes: ['physical', 'esim'], description: null }]),
    ),
    http.get('/portal/sim-providers/profiles', () => HttpResponse.json([])),
    http.get('/portal/sim-orders/ef-config', () => HttpResponse.json([{ id: 'standard', description: 'Defaults' }])),
    http.post('/portal/sim-orders/price', async ({ request }) => {
      const body = (await request.json()) as { amount: number };
      const total = body.amount * 1.8;
      return HttpResponse.json({
        currency: 'USD',
        unitPrice: 1.8,
        totalUnitPrice: total,
        additionalSlotCharge: 0,
        artworkCharge: 0,
        feeBelowMoq: 0,
        moq: 500,
        subtotal: total,
        discount: { description: null, rate: 0, value: 0 },
        total,
      });
    }),
    http.post('/portal/sim-orders/submit', () => HttpResponse.json({ uuid: UUID }, { status: 201 })),
    http.get(`/portal/sim-orders/${UUID}`, () => HttpResponse.json({ statusCode: 404, code: 'NOT_FOUND', message: 'Not found' }, { status: 404 })),
  );
}

const render = () => renderWithProviders(<AppRoutes />, { route: '/orders', preloadedState: signedIn(mockToken('nora')) });

describe('the SIM order wizard', () => {
  it('needs a SIM type before going on, keeps its state across a reload, prices live and submits', async () => {
    mockOrders();
    const { user, unmount } = render();
    await screen.findByTestId('order-wizard');
    await user.click(screen.getByTestId('wizard-next'));
    // The SIM type step refuses to go on without a type.
    await user.click(screen.getByTestId('wizard-next'));
    expect((await screen.findByTestId('wizard-problem')).textContent).toBe('Please choose a SIM type');
    await user.click(screen.getByLabelText('Physical SIM'));
    await user.click(screen.getByTestId('wizard-next'));
    await waitFor(() => expect(screen.getByTestId('order-sponsor-0').querySelectorAll('option').length).toBe(3));
    await user.selectOptions(screen.getByTestId('order-sponsor-0'), '1');
    await user.click(screen.getByTestId('wizard-next')); // roaming
    await user.click(screen.getByTestId('wizard-next')); // custom IMSI range
    await user.click(screen.getByTestId('wizard-next')); // provider profile
    await waitFor(() => expect(screen.getByTestId('order-provider').querySelectorAll('option').length).toBe(2));
    await user.selectOptions(screen.getByTestId('order-provider'), '1');
    // For its own reseller: that reseller's profiles (and the catalogue's), not its sub-resellers'.
    await waitFor(() => expect(api.requests('/sim-providers/profiles', 'GET').at(-1)?.url.searchParams.get('reseller_id')).toBe('10'));
    await user.click(screen.getByLabelText('Service provider name'));
    await user.type(screen.getByTestId('order-sp-name'), 'Fleet SP');
    await user.click(screen.getByTestId('wizard-next')); // amount
    await user.type(screen.getByTestId('order-batch'), 'Wizard batch');
    await user.click(screen.getByTestId('wizard-next')); // delivery
    await user.type(screen.getByTestId('order-email'), 'ops@northwind.test');
    await user.click(screen.getByTestId('wizard-next')); // artwork
    expect(screen.getByText(/CMYK or PANTONE/)).toBeTruthy();
    await user.click(screen.getByTestId('wizard-next')); // summary
    await screen.findByTestId('order-summary');
    expect(JSON.parse(sessionStorage.getItem(WIZARD_KEY)!)).toMatchObject({ step: 9, simType: 'physical', sponsorIds: [1], batchName: 'Wizard batch' });

    // A reload comes back to the summary with everything chosen.
    unmount();
    render();
    expect((await screen.findByTestId('order-total')).textContent).toBe('$900.00');
    expect(api.requests('/sim-orders/price', 'POST').at(-1)!.body).toMatchObject({
      simType: 'physical',
      simSize: 'triple',
      amount: 500,
      slots: 1,
      artwork: false,
    });

    await user.click(screen.getByTestId('wizard-submit'));
    await waitFor(() => expect(api.requests('/sim-orders/submit', 'POST')).toHaveLength(1));
    expect(api.requests('/sim-orders/submit', 'POST')[0].body).toEqual({
      batchName: 'Wizard batch',
      simType: 'physical',
      simSize: 'triple',
      amount: 500,
      sponsorIds: [1],
      providerId: 1,
      serviceProviderName: 'Fleet SP',
      deliveryEmail: 'ops@northwind.test',
      currency: 'USD',
    });
    await waitFor(() => expect(screen.getByTestId('location').textContent).toContain(`/orders/${UUID}`));
    expect(sessionStorage.getItem(WIZARD_KEY)).toBeNull();
  });

  it('offers only the roaming profiles of the order as it stands: another slot count forgets the pick and the last list', async () => {
    mockOrders();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    api.server.use(
      http.get('/portal/roaming-profiles', async ({ request }) => {
        if (new URL(request.url).searchParams.get('slot_count') !== '2')
          return HttpResponse.json([{ id: 5, name: 'Europe IoT', reference: 'NW-EU', slots: 1, resellerId: 10 }]);
        await held;
        return HttpResponse.json([{ id: 6, name: 'Two slots', reference: 'NW-2', slots: 2, resellerId: 10 }]);
      }),
    );
    const { user } = render();
    await screen.findByTestId('order-wizard');
    await user.click(screen.getByTestId('wizard-next'));
    await user.click(screen.getByLabelText('Physical SIM'));
    await user.click(screen.getByTestId('wizard-next'));
    await waitFor(() => expect(screen.getByTestId('order-sponsor-0').querySelectorAll('option').length).toBe(3));
    await user.selectOptions(screen.getByTestId('order-sponsor-0'), '1');
    await user.click(screen.getByTestId('wizard-next')); // roaming
    const roaming = () => screen.getByRole('combobox', { name: 'Roaming profile' }) as HTMLSelectElement;
    await waitFor(() => expect(roaming().querySelectorAll('option').length).toBe(2));
    await user.selectOptions(roaming(), '5');

    await user.click(screen.getByTestId('wizard-back'));
    await user.click(screen.getByRole('button', { name: 'Add a slot' }));
    await user.selectOptions(screen.getByTestId('order-sponsor-1'), '2');
    await user.click(screen.getByTestId('wizard-next'));
    // The one-slot profile is neither kept nor offered while the two-slot list is on its way.
    expect(roaming().value).toBe('');
    expect([...roaming().querySelectorAll('option')].map((o) => o.value)).toEqual(['']);
    release();
    await waitFor(() => expect([...roaming().querySelectorAll('option')].map((o) => o.value)).toEqual(['', '6']));
  });
});
