import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, callApi, openBrowser, setDarkMode, signIn, startPortal, type Browser, type Portal } from './harness';

const SHOTS = process.env.SHOTS_DIR ?? 'test-results';

interface Row {
  subscriberId: number;
  iccid: string;
  status: string;
  accountName: string;
  dailyLimitBytes: number | null;
  groupName: string | null;
}
interface Found {
  items: Row[];
  totalItemsCount: number;
}

const search = (page: Page, searchBy: string, searchKey: string, at = 0) =>
  callApi<Found>(page, 'POST', '/portal/subscribers/search', { sortBy: 'subscriberId', sortDir: 'asc', searchBy, searchKey, page: { page: at, size: 200 } });

/** Every row a search matches, page by page. */
async function searchAll(page: Page, searchBy: string, searchKey: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (let at = 0; ; at++) {
    const found = await search(page, searchBy, searchKey, at);
    rows.push(...found.items);
    if (rows.length >= found.totalItemsCount || !found.items.length) return rows;
  }
}

describe('bulk actions on subscribers in the browser', () => {
  let portal: Portal;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal({ DEMO_SUBSCRIBERS: '300', CORE_NETWORK_DELAY_MS: '300-700', CORE_NETWORK_FAILURE_RATE: '0' });
    browser = await openBrowser();
    page = browser.page;
    page.on('pageerror', (e) => errors.push(String(e)));
    await signIn(page, portal, 'admin', ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  const grid = () => page.getByTestId('grid-subscriber');
  const statusCell = (id: number) => grid().locator(`[row-id="${id}"] [col-id="status"]`);

  it('suspends ticked rows as a job, follows it to done and shows the new statuses in the grid', async () => {
    await page.goto(`${portal.url}/#/subscribers`);
    await grid().locator('[role="gridcell"][col-id="iccid"]').first().waitFor();
    const firstPage = await callApi<Found>(page, 'POST', '/portal/subscribers/paged', { sortBy: 'subscriberId', sortDir: 'asc', page: { page: 0, size: 50 } });
    const chosen = firstPage.items
      .filter((r) => r.status === 'active')
      .slice(0, 3)
      .map((r) => r.subscriberId);
    expect(chosen).toHaveLength(3);
    for (const id of chosen) await grid().locator(`[row-id="${id}"] input[type="checkbox"]`).first().check();
    await expect.poll(() => page.getByTestId('list-selection-count').textContent()).toBe('3 selected');

    await page.getByTestId('bulk-actions').click();
    await page.getByTestId('bulk-suspend').click();
    const dialog = page.getByTestId('bulk-dialog');
    await expect.poll(() => dialog.getByTestId('bulk-will-change').textContent()).toContain('3 subscribers of 3 will change.');
    // Nothing has happened yet.
    for (const id of chosen) expect(await statusCell(id).textContent()).toBe('Active');
    await dialog.getByTestId('bulk-apply').click();

    const jobs = page.getByTestId('bulk-jobs');
    await expect.poll(() => jobs.getByTestId('job-status').textContent(), { timeout: 30000 }).toBe('Done');
    expect(await jobs.getByTestId('job-counts').textContent()).toBe('3 succeeded0 failed0 skipped3 of 3 processed');
    expect(await jobs.getByTestId('job-kind').textContent()).toBe('Subscribers in bulk: Suspend');
    // The job ended once the network confirmed each one; the list shows them without a reload.
    for (const id of chosen) await expect.poll(() => statusCell(id).textContent(), { timeout: 30000 }).toBe('Suspended');
    await page.screenshot({ path: `${SHOTS}/subscriber-bulk-suspended.png` });
  });

  it('selects every subscriber a search matches, across pages, and sets their daily limit', async () => {
    const reseller = 'Northwind';
    const matching = await search(page, 'resellerName', reseller);
    // More than one page of the list (50 rows).
    expect(matching.totalItemsCount).toBeGreaterThan(50);
    await page.getByTestId('list-search-by').selectOption('resellerName');
    await page.getByTestId('list-search').fill(reseller);
    await page.getByTestId('list-search').press('Enter');
    await expect.poll(() => page.getByTestId('list-total').textContent()).toBe(`${matching.totalItemsCount} items`);

    await grid().locator(`[row-id="${matching.items[0].subscriberId}"] input[type="checkbox"]`).first().check();
    const whole = page.getByTestId('list-select-whole');
    expect(await whole.textContent()).toBe(`Select all ${matching.totalItemsCount} subscribers matching this search`);
    await whole.click();
    expect(await page.getByTestId('list-selection-count').textContent()).toBe(`All ${matching.totalItemsCount} subscribers matching this search are selected`);

    await setDarkMode(page, true);
    await page.getByTestId('bulk-actions').click();
    await page.getByTestId('bulk-daily-limit').click();
    const dialog = page.getByTestId('bulk-dialog');
    await dialog.getByTestId('bulk-amount').fill('2');
    await dialog.getByTestId('bulk-unit').selectOption('GB');
    await dialog.getByTestId('bulk-check').click();
    await expect.poll(() => dialog.getByTestId('bulk-will-change').textContent()).toMatch(new RegExp(`of ${matching.totalItemsCount} will change`));
    await page.screenshot({ path: `${SHOTS}/subscriber-bulk-daily-limit-dark.png` });
    await dialog.getByTestId('bulk-apply').click();

    const job = page
      .getByTestId('bulk-jobs')
      .locator('[data-testid^="job-"]')
      .filter({ has: page.getByTestId('job-kind').getByText('Set daily limit') });
    await expect.poll(() => job.getByTestId('job-status').textContent(), { timeout: 30000 }).toBe('Done');
    const after = await searchAll(page, 'resellerName', reseller);
    expect(after).toHaveLength(matching.totalItemsCount);
    expect(after.filter((r) => r.dailyLimitBytes !== 2 * 1024 ** 3)).toEqual([]);
    await setDarkMode(page, false);
  });

  it('checks a CSV file with one bad line, lists it with the reason, then applies the good one', async () => {
    const active = (await search(page, 'resellerName', 'Blue Sky')).items.filter((r) => r.status === 'active');
    const [good, bad] = active;
    await page.getByTestId('bulk-csv-open').click();
    const dialog = page.getByTestId('bulk-csv');
    await dialog.getByTestId('bulk-csv-input').setInputFiles({
      name: 'subscribers.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`iccid,status,groupName\n${good.iccid},,Bulk E2E\n${bad.iccid},paused,\n`),
    });
    await page.getByTestId('bulk-csv-check').click();
    await dialog.getByTestId('bulk-csv-report').waitFor();
    expect(await dialog.getByTestId('bulk-csv-summary').textContent()).toBe('2 lines: 1 will change, 0 unchanged, 1 rejected.');
    const line = dialog.locator('[data-line="3"]');
    expect(await line.textContent()).toBe(`3${bad.iccid}Status: Status must be active or suspended`);
    await page.screenshot({ path: `${SHOTS}/subscriber-bulk-csv.png` });
    // Checking wrote nothing.
    expect((await search(page, 'iccid', good.iccid)).items[0].groupName).not.toBe('Bulk E2E');

    await page.getByTestId('bulk-csv-apply').click();
    const job = page
      .getByTestId('bulk-jobs')
      .locator('[data-testid^="job-"]')
      .filter({ has: page.getByTestId('job-kind').getByText('subscribers.csv') });
    await expect.poll(() => job.getByTestId('job-status').textContent(), { timeout: 30000 }).toBe('Done');
    expect((await search(page, 'iccid', good.iccid)).items[0].groupName).toBe('Bulk E2E');
    expect((await search(page, 'iccid', bad.iccid)).items[0].status).toBe('active');
    expect(errors).toEqual([]);
  });
});
