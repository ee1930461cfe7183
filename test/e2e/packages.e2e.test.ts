import { mkdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiToken, demoPassword, openBrowser, setDarkMode, signIn, startPortal, type Browser, type Portal } from './harness';

const SHOTS = process.env.SHOTS_DIR ?? 'test-results';
const TEMPLATE = 'Baltic month 3 GB';

describe('prepaid templates and package sales in the browser', () => {
  let portal: Portal;
  let browser: Browser;
  let page: Page;
  let subscriberId: number;
  const errors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal({ DEMO_SUBSCRIBERS: '300' });
    browser = await openBrowser();
    page = browser.page;
    page.on('pageerror', (e) => errors.push(String(e)));
    // The first subscriber Northwind Mobile sees, read through the API as the user would.
    const jwt = await apiToken(portal, 'northwind', demoPassword(portal));
    const page0 = await (
      await fetch(`${portal.url}/portal/subscribers/paged`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${jwt}` },
        body: JSON.stringify({ sortBy: 'subscriberId', sortDir: 'asc', page: { page: 0, size: 1 } }),
      })
    ).json();
    subscriberId = page0.items[0].subscriberId;
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  const grid = (entity: string) => page.getByTestId(`grid-${entity}`);

  it('creates a template choosing its zones, and lists it', async () => {
    await signIn(page, portal, 'northwind', demoPassword(portal));
    await page.goto(`${portal.url}/#/templates`);
    await grid('prepaidTemplate').locator('[role="gridcell"][col-id="name"]').first().waitFor();
    await page.getByTestId('list-create').click();
    await page.getByRole('heading', { name: 'New Prepaid template' }).waitFor();
    await page.locator('#root_name').fill('Short');
    await page.getByText('Template name must be more than 5 characters').waitFor();
    await page.locator('#root_name').fill(TEMPLATE);
    await page.locator('#root_locationZoneId').selectOption({ label: 'Europe' });
    await page.locator('#root_destinationZoneId').selectOption({ label: 'EU calls' });
    await page.locator('#root_periodDays').fill('30');
    await page.locator('#root_price').fill('12.50');
    await page.locator('#root_dataMb').fill('3072');
    await page.screenshot({ path: `${SHOTS}/template-form.png`, fullPage: true });
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => new URL(page.url()).hash).toMatch(/^#\/template\/\d+$/);

    await page.goto(`${portal.url}/#/templates?searchBy=name&searchKey=baltic&page=1`);
    const row = grid('prepaidTemplate').locator('[role="row"]', { hasText: TEMPLATE });
    await row.waitFor();
    expect(await row.locator('[col-id="locationZoneName"]').innerText()).toBe('Europe');
    expect(await row.locator('[col-id="price"]').innerText()).toBe('$12.50');
    await page.screenshot({ path: `${SHOTS}/templates-light.png`, fullPage: true });
  });

  it('sells a package from the template to a subscriber through the packages panel, debiting the balance', async () => {
    await page.goto(`${portal.url}/#/packages`);
    await page.getByTestId('package-sales').waitFor();
    await expect.poll(() => page.getByTestId('reseller-balance').innerText()).toBe('Balance: $5,000.00');
    await page.getByTestId('sales-subscriber').fill(String(subscriberId));
    await page.getByTestId('sales-subscriber-open').click();
    await page.getByText('This subscriber has no packages.').waitFor();
    await page.getByTestId('package-purchase').click();
    const select = page.getByTestId('package-template');
    await select.selectOption({ label: `${TEMPLATE} · 30 days · $12.50` });
    expect(await page.getByTestId('package-hint').innerText()).toBe("$12.50 is debited from the reseller's balance.");
    await page.screenshot({ path: `${SHOTS}/package-purchase-dialog.png` });
    await page.getByTestId('package-confirm').click();
    const row = page.getByTestId('package-row').first();
    await row.waitFor();
    expect(await row.getByTestId('package-status').innerText()).toBe('Active');
    expect(await row.innerText()).toContain(TEMPLATE);
    await expect.poll(() => page.getByTestId('reseller-balance').innerText()).toBe('Balance: $4,987.50');
    const sale = grid('prepaidPackage').locator('[role="row"]', { hasText: TEMPLATE });
    await sale.waitFor();
    expect(await sale.locator('[col-id="saleKind"]').innerText()).toBe('Purchased');
    expect(await sale.locator('[col-id="subscriberId"]').innerText()).toBe(String(subscriberId));
    await page.screenshot({ path: `${SHOTS}/packages-light.png`, fullPage: true });
  });

  it('downloads the sales history as CSV', async () => {
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('list-download').click()]);
    expect(file.suggestedFilename()).toMatch(/^package-sales-\d{4}-\d{2}-\d{2}\.csv$/);
    const [header, ...rows] = readFileSync((await file.path())!, 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(header.split(',')).toEqual(expect.arrayContaining(['templateName', 'price', 'status']));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain(TEMPLATE);
  });

  it('expires the package and shows it again with the expired ones', async () => {
    await page.getByTestId('package-expire').click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Expire' }).click();
    await page.getByText('This subscriber has no packages.').waitFor();
    await page.getByText('Show expired').click();
    expect(await page.getByTestId('package-row').first().getByTestId('package-status').innerText()).toBe('Expired');
  });

  it('renders dark mode and Hebrew right-to-left', async () => {
    await setDarkMode(page, true);
    await page.screenshot({ path: `${SHOTS}/packages-dark.png`, fullPage: true });
    await page.getByTestId('language-select').selectOption('he');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await page.getByText('חבילות בתשלום מראש').first().waitFor();
    await page.screenshot({ path: `${SHOTS}/packages-he-dark.png`, fullPage: true });
    await page.goto(`${portal.url}/#/templates`);
    await grid('prepaidTemplate').locator('[role="gridcell"]').first().waitFor();
    await page.getByRole('row', { name: new RegExp(TEMPLATE) }).click();
    await page.locator('#root_name').waitFor();
    await page.screenshot({ path: `${SHOTS}/template-he-dark.png`, fullPage: true });
    await page.getByTestId('language-select').selectOption('en');
    await setDarkMode(page, false);
  });

  it('purchases through the same panel on the subscriber page', async () => {
    await page.goto(`${portal.url}/#/subscriber/${subscriberId}`);
    const panel = page.getByTestId('panel-packages');
    await panel.getByText('This subscriber has no packages.').waitFor();
    await panel.getByTestId('package-purchase').click();
    await page.getByTestId('package-template').selectOption({ label: `${TEMPLATE} · 30 days · $12.50` });
    await page.getByTestId('package-confirm').click();
    await expect.poll(() => panel.getByTestId('package-status').first().innerText()).toBe('Active');
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/subscriber-packages.png` });
    await page.goto(`${portal.url}/#/packages`);
    await expect.poll(() => page.getByTestId('reseller-balance').innerText()).toBe('Balance: $4,975.00');
    expect(errors).toEqual([]);
  });
});
