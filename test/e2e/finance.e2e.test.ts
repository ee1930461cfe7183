import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, browserSession, screenshotThemes, SHOTS, signIn, pickFromMenu } from './harness';

const account1020Type = (page: import('playwright-core').Page) =>
  page.getByTestId('trial-balance-row').filter({ hasText: '1020' }).locator('td').nth(2).innerText();

/** The chart of accounts: the trial balance balances, an account opens its journal, the drift check finds nothing. */
describe('chart of accounts in the browser', () => {
  const session = browserSession();

  it('shows the administrator a trial balance with difference 0.00, a journal and no drift', async () => {
    const { page, portal } = session;
    await signIn(page, portal, 'admin', ADMIN_PASSWORD);
    await pickFromMenu(page, 'settings-open', 'settings-chartOfAccount', () => page.getByTestId('trial-balance').waitFor({ timeout: 10_000 }));
    await expect.poll(() => page.title()).toMatch(/^Chart of accounts · /);

    const rows = page.getByTestId('trial-balance-row');
    await expect.poll(() => rows.count()).toBe(10);
    const difference = page.getByTestId('trial-balance-difference');
    expect(await difference.innerText()).toBe('Difference 0.00');
    expect(await difference.getAttribute('data-balanced')).toBe('true');
    expect(await difference.evaluate((el) => el.classList.contains('bp6-intent-success'))).toBe(true);
    // The demo's opening balances: equity on one side, the resellers' balances on the other.
    const equity = rows.filter({ hasText: 'Opening balance equity' });
    const held = rows.filter({ hasText: 'Reseller balances' });
    const cell = async (row: typeof equity, column: number) => (await row.locator('td').nth(column).innerText()).trim();
    // Debit equity, credit reseller balances (columns: code, name, type, debit, credit, balance).
    expect(await cell(equity, 3)).toBe(await cell(held, 4));
    expect(await cell(equity, 3)).not.toBe('0.00');
    await expect.poll(() => page.getByTestId('finance-no-drift').count()).toBe(1);

    // An account opens its journal: the demo's openings, each with its reseller.
    await held.click();
    await page.getByTestId('finance-journal').waitFor();
    await expect.poll(() => page.getByTestId('finance-line').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('finance-journal').innerText()).toContain('Opening balance');

    // A period in a past year: nothing moved, still balanced; a period ending before it starts is refused.
    await page.getByTestId('finance-from').fill('2001-01-01');
    await page.getByTestId('finance-to').fill('2001-12-31');
    await expect.poll(() => page.getByTestId('trial-balance').locator('caption').innerText()).toBe('From 2001-01-01 to 2001-12-31');
    await expect.poll(() => page.getByTestId('trial-balance-totals').locator('td').first().innerText()).toBe('0.00');
    expect(await difference.innerText()).toBe('Difference 0.00');
    await page.getByTestId('finance-from').fill('2002-01-01');
    await expect.poll(() => page.getByText('End date must be after the start date').count()).toBe(1);
    await page.getByRole('button', { name: 'All to date' }).click();
    await expect.poll(() => page.getByTestId('trial-balance').locator('caption').innerText()).toBe('Everything to date');
    // The chosen account's journal stays open across periods.
    await page.getByTestId('finance-journal').waitFor();
    await expect.poll(() => page.getByTestId('finance-line').count()).toBeGreaterThan(0);
    await screenshotThemes(page, `${SHOTS}/chart-of-account`);

    // The accounts behind the screen: a system account keeps its type, and the form says so beside the field.
    await page.getByRole('button', { name: 'Manage accounts' }).click();
    const accountCodes = page.getByTestId('grid-ledgerAccount').locator('[role="gridcell"][col-id="code"]');
    await expect.poll(() => accountCodes.count()).toBe(10);
    await accountCodes.filter({ hasText: /^1020$/ }).click();
    await page.locator('#root_type').waitFor();
    await page.locator('#root_type').selectOption('expense');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByText('A system account keeps its type').count()).toBeGreaterThan(0);
    await page.screenshot({ path: `${SHOTS}/ledger-account-system.png` });
    await pickFromMenu(page, 'settings-open', 'settings-chartOfAccount', () => page.getByTestId('trial-balance').waitFor({ timeout: 10_000 }));
    expect(await account1020Type(page)).toBe('Asset');

    // The products the portal sells, from their schema, and the accounts behind the screen.
    await page.getByRole('button', { name: 'Product and billing' }).click();
    const codes = page.getByTestId('grid-billingProduct').locator('[role="gridcell"][col-id="code"]');
    await expect.poll(async () => (await codes.allInnerTexts()).length).toBe(6);
    expect(await codes.allInnerTexts()).toEqual(['DATA_USAGE', 'ESIM', 'PAYMENT_FEE', 'PREPAID_PACKAGE', 'SIM_CARD', 'SUBSCRIPTION_FEE']);
    await page.screenshot({ path: `${SHOTS}/product-billing.png` });

    // The finance overview, from the settings menu: the resellers' money, nobody in debt in the demo.
    await pickFromMenu(page, 'settings-open', 'settings-finance', () => page.getByTestId('finance-overview').waitFor({ timeout: 10_000 }));
    expect(await page.getByTestId('finance-balances').innerText()).toMatch(/\$[\d,]+\.\d\d/);
    expect(await page.getByTestId('finance-pending').innerText()).toContain('0 bank wires');
    await screenshotThemes(page, `${SHOTS}/finance-overview`);
    expect(session.errors).toEqual([]);
  });
});
