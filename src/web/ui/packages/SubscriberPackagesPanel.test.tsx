// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { seedPackages } from '../../../../mocks/packageHandlers';
import { seedSubscribers } from '../../../../mocks/subscriberHandlers';
import { mockToken } from '../../../../mocks/token';
import { SubscriberPackagesPanel } from './SubscriberPackagesPanel';

const api = setupMockApi();

function render(subscriberId = 7) {
  seedSubscribers(api.db);
  seedPackages(api.db);
  // Nora sells packages for Northwind (reseller 10).
  api.db.users.find((u) => u.username === 'nora')!.privileges.push({ privilege: 'PrePaidPackages', subPrivileges: ['Sales'] });
  return renderWithProviders(<SubscriberPackagesPanel subscriberId={subscriberId} />, { preloadedState: signedIn(mockToken('nora')) });
}

const rows = () => screen.queryAllByTestId('package-row');
const balanceOf = (resellerId: number) => api.db.tables.ledgerBalance.find((b) => b.resellerId === resellerId)?.balance;
const dialog = () => screen.findByRole('dialog');

describe("a subscriber's packages panel", () => {
  it('lists the packages with their use of each allowance', async () => {
    render();
    await waitFor(() => expect(rows()).toHaveLength(1));
    const row = rows()[0];
    expect(row.textContent).toContain('Europe 30 days 5 GB');
    expect(within(row).getByTestId('package-status').textContent).toBe('Active');
    expect(row.textContent).toContain('1,200.5 of 5,120');
    expect(row.textContent).toContain('4 of 20');
    expect(row.textContent).toContain('$19.99');
    expect(row.textContent).toContain('UTC');
  });

  it('purchases a package from a chosen template, debiting the reseller', async () => {
    const { user } = render();
    await waitFor(() => expect(rows()).toHaveLength(1));
    await user.click(screen.getByTestId('package-purchase'));
    const box = await dialog();
    const select = await within(box).findByTestId('package-template');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Europe 30 days 5 GB · 30 days · $19.99', 'Europe week pass 1 GB · 7 days · $6.50']);
    await user.selectOptions(select, '2');
    expect(within(box).getByTestId('package-hint').textContent).toBe("$6.50 is debited from the reseller's balance.");
    await user.click(within(box).getByTestId('package-confirm'));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(api.requests('/pre-paid-packages/purchase', 'POST')[0].body).toEqual({ subscriberId: 7, templateId: 2, activateUponFirstUse: false });
    expect(balanceOf(10)).toBe(4993.5);
    expect(rows()[0].textContent).toContain('Europe week pass 1 GB');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('assigns a package that starts on first use, free of charge', async () => {
    const { user } = render();
    await waitFor(() => expect(rows()).toHaveLength(1));
    await user.click(screen.getByTestId('package-assign'));
    const box = await dialog();
    await within(box).findByTestId('package-template');
    expect(within(box).getByTestId('package-hint').textContent).toBe('The package is given free of charge.');
    await user.click(within(box).getByRole('checkbox'));
    await user.click(within(box).getByTestId('package-confirm'));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(api.requests('/pre-paid-packages/assign', 'POST')[0].body).toEqual({ subscriberId: 7, templateId: 1, activateUponFirstUse: true });
    const row = rows()[0];
    expect(within(row).getByTestId('package-status').textContent).toBe('Pending');
    expect(row.textContent).toContain('On first use');
    expect(row.textContent).toContain('$0.00');
    expect(balanceOf(10)).toBe(5000);
  });

  it('says why a purchase the balance cannot cover is refused, and adds nothing', async () => {
    const { user } = render();
    api.db.tables.ledgerBalance.find((b) => b.resellerId === 10)!.balance = 5;
    await waitFor(() => expect(rows()).toHaveLength(1));
    await user.click(screen.getByTestId('package-purchase'));
    const box = await dialog();
    await within(box).findByTestId('package-template');
    await user.click(within(box).getByTestId('package-confirm'));
    expect((await within(box).findByTestId('package-error')).textContent).toBe("The reseller's balance is too low for this purchase");
    expect(rows()).toHaveLength(1);
    expect(balanceOf(10)).toBe(5);
  });

  it('expires a package after confirmation and shows it again only with expired ones', async () => {
    const { user } = render();
    await waitFor(() => expect(rows()).toHaveLength(1));
    await user.click(within(rows()[0]).getByTestId('package-expire'));
    const alert = await screen.findByRole('alertdialog');
    expect(alert.textContent).toContain('Expire package 1 now?');
    await user.click(within(alert).getByRole('button', { name: 'Expire' }));
    await waitFor(() => expect(rows()).toHaveLength(0));
    expect(screen.getByText('This subscriber has no packages.')).toBeTruthy();
    expect(api.requests('/pre-paid-packages/api/expire', 'POST')[0].body).toEqual({ packageId: 1 });
    await user.click(screen.getByRole('checkbox', { name: 'Show expired' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(within(rows()[0]).getByTestId('package-status').textContent).toBe('Expired');
    expect(within(rows()[0]).queryByTestId('package-expire')).toBeNull();
    expect(api.requests('/pre-paid-packages/list/7').at(-1)!.url.searchParams.get('show_expired')).toBe('true');
  });
});
