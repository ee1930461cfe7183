import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, browserSession, setDarkMode, SHOTS, signIn } from './harness';

const nameCells = (page: import('playwright-core').Page) => page.getByTestId('grid-reseller').locator('[role="gridcell"][col-id="name"]');

/** The reseller list and page: a new sub-reseller, its standing, and a credit limit set and refused. */
describe('resellers in the browser', () => {
  const session = browserSession();

  it('lists resellers, creates one under another, and sets its credit limit from above', async () => {
    const { page, portal } = session;
    await signIn(page, portal, 'admin', ADMIN_PASSWORD);
    await page.getByTestId('menu-Resellers').click();
    await nameCells(page).first().waitFor();
    expect(await nameCells(page).allInnerTexts()).toEqual(expect.arrayContaining(['Northwind Mobile', 'Northwind IoT', 'Blue Sky Telecom']));
    await expect.poll(() => page.title()).toMatch(/^Resellers · /);
    await page.screenshot({ path: `${SHOTS}/resellers.png` });

    // A new reseller under Northwind Mobile.
    await page.getByTestId('list-create').click();
    await page.locator('#root_name').waitFor();
    await page.locator('#root_name').fill('Northwind Retail');
    await page.locator('#root_email').fill('retail@northwind.example');
    await page.locator('#root_tadigCode').fill('gb1');
    await expect.poll(() => page.getByText('TADIG code must be 5 characters').count()).toBeGreaterThan(0);
    await page.locator('#root_tadigCode').fill('GBRNR');
    await page.locator('#root_parentId').selectOption({ label: 'Northwind Mobile' });
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.title()).toMatch(/^Northwind Retail · /);
    await page.getByTestId('reseller-figures').waitFor();
    expect(await page.getByTestId('figure-availableCredit').innerText()).toBe('$0.00');

    // Its credit limit, set from above: the available credit follows.
    await page.locator('#reseller-credit-limit').fill('1,500');
    await page.getByTestId('reseller-credit-limit-save').click();
    await expect.poll(() => page.getByTestId('figure-availableCredit').innerText()).toBe('$1,500.00');
    await page.locator('#reseller-credit-limit').fill('12.345');
    await page.getByTestId('reseller-credit-limit-save').click();
    await expect.poll(() => page.getByText('Credit limit must be an amount').count()).toBeGreaterThan(0);
    await page.screenshot({ path: `${SHOTS}/reseller.png`, fullPage: true });
    await setDarkMode(page, true);
    await page.screenshot({ path: `${SHOTS}/reseller-dark.png`, fullPage: true });
    await setDarkMode(page, false);

    // Northwind Mobile's sub-resellers, from its page.
    await page.locator('.portal-breadcrumbs').getByRole('link', { name: 'Resellers' }).click();
    await nameCells(page).first().waitFor();
    await nameCells(page)
      .filter({ hasText: /^Northwind Mobile$/ })
      .click();
    // Its balance over the last 90 days, drawn from the ledger.
    await page.getByTestId('reseller-balance-history').waitFor();
    expect(await page.getByTestId('reseller-balance-history').getAttribute('data-points')).toBe('90');
    await page.getByTestId('reseller-standing').screenshot({ path: `${SHOTS}/reseller-standing.png` });
    await setDarkMode(page, true);
    await page.getByTestId('reseller-standing').screenshot({ path: `${SHOTS}/reseller-standing-dark.png` });
    await setDarkMode(page, false);
    await page.getByTestId('reseller-children').click();
    await expect.poll(async () => (await nameCells(page).allInnerTexts()).sort()).toEqual(['Northwind IoT', 'Northwind Retail']);
    expect(session.errors).toEqual([]);
  });
});
