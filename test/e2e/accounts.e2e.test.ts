import { mkdirSync, readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, openBrowser, startPortal, type Browser, type Portal, setDarkMode } from './harness';

const SHOTS = 'test-results';

describe('accounts in the browser', () => {
  let portal: Portal;
  let browser: Browser;
  let page: Page;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal();
    browser = await openBrowser();
    page = browser.page;
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
  });
  afterAll(async () => {
    await browser?.close();
    if (portal) expect(await portal.stop()).toBe(0); // SIGTERM closes cleanly
  });

  const grid = () => page.getByTestId('grid-account');
  const cellTexts = async (col: string) => grid().locator(`[role="gridcell"][col-id="${col}"]`).allInnerTexts();

  it('shows the login screen on any route and refuses a wrong password, clearing the fields', async () => {
    await page.goto(`${portal.url}/#/accounts`);
    await page.locator('#login-userName').fill('admin');
    await page.locator('#login-password').fill('wrong-password');
    await page.getByTestId('sign-in-submit').click();
    await expect.poll(() => page.getByTestId('login-error').isVisible()).toBe(true);
    expect(await page.locator('#login-userName').inputValue()).toBe('');
    expect(await page.locator('#login-password').inputValue()).toBe('');
  });

  it('signs in, lands on the dashboard and sees the side menu', async () => {
    await page.getByTestId('cookie-continue').click();
    await page.locator('#login-userName').fill('admin');
    await page.locator('#login-password').fill(ADMIN_PASSWORD);
    await page.getByTestId('sign-in-submit').click();
    await page.getByTestId('dashboard-welcome').waitFor();
    expect(new URL(page.url()).hash).toBe('#/');
    await page.getByTestId('menu-Accounts').waitFor();
    await page.screenshot({ path: `${SHOTS}/dashboard.png` });
  });

  it('opens accounts and searches by name on the server', async () => {
    await page.getByTestId('menu-Accounts').click();
    await grid().locator('[role="gridcell"][col-id="name"]').first().waitFor();
    expect((await cellTexts('name')).length).toBeGreaterThan(10);
    await page.getByTestId('list-search-by').selectOption('name');
    await page.getByTestId('list-search').fill('fleet');
    await page.getByTestId('list-search').press('Enter');
    await expect.poll(() => cellTexts('name')).toEqual(['Meridian Fleet']);
    expect(page.url()).toContain('searchKey=fleet');
    expect(page.url()).toContain('searchBy=name');
    await page.screenshot({ path: `${SHOTS}/accounts-search.png` });
  });

  it('downloads the search it shows as CSV or as an Excel workbook', async () => {
    // The menu of formats, in both themes (the theme switch closes it).
    const openMenu = async () => {
      await page.getByTestId('list-download').click();
      await page.getByTestId('list-download-menu').waitFor();
      await page.locator('.bp6-popover-enter-done', { has: page.getByTestId('list-download-menu') }).waitFor();
    };
    await setDarkMode(page, true);
    await openMenu();
    await page.screenshot({ path: `${SHOTS}/accounts-download-menu-dark.png` });
    await page.keyboard.press('Escape');
    await setDarkMode(page, false);
    await openMenu();
    await page.screenshot({ path: `${SHOTS}/accounts-download-menu.png` });
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('list-download-csv').click()]);
    expect(file.suggestedFilename()).toMatch(/^account-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync((await file.path())!, 'utf8').replace(/^\uFEFF/, '');
    const [header, ...rows] = text.trim().split('\r\n');
    expect(header.split(',')).toContain('name');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain('Meridian Fleet');

    await page.getByTestId('list-download').click();
    const [workbook] = await Promise.all([page.waitForEvent('download'), page.getByTestId('list-download-xlsx').click()]);
    expect(workbook.suggestedFilename()).toMatch(/^account-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await workbook.path())!);
    const sheet = book.worksheets[0];
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(header.split(','));
    expect(sheet.rowCount).toBe(2);
    expect((sheet.getRow(2).values as unknown[]).slice(1)).toContain('Meridian Fleet');
    expect(typeof sheet.getRow(2).getCell(header.split(',').indexOf('accountId') + 1).value).toBe('number');
  });

  it('creates an account and finds it in the list', async () => {
    await page.goto(`${portal.url}/#/accounts`);
    await page.getByTestId('list-create').click();
    await page.locator('#root_name').fill('Browser Test Networks');
    await page.locator('#root_city').fill('Lisbon');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => new URL(page.url()).hash).toMatch(/^#\/account\/\d+$/);
    await page.goto(`${portal.url}/#/accounts?searchKey=Browser&searchBy=name&page=1`);
    await expect.poll(() => cellTexts('name')).toEqual(['Browser Test Networks']);
    expect(await cellTexts('city')).toEqual(['Lisbon']);
  });

  it('edits it, and refuses an invalid name with a message and nothing saved', async () => {
    await grid().locator('[role="gridcell"][col-id="name"]').first().click();
    await page.locator('#root_name').waitFor();
    const detail = page.url();
    await page.locator('#root_city').fill('Porto');
    // The saved row is read again and the form shows it: wait for that before typing on.
    const reread = page.waitForResponse((r) => r.request().method() === 'GET' && /\/portal\/accounts\/\d+$/.test(r.url()));
    await page.getByRole('button', { name: 'Save' }).click();
    await reread;
    await expect.poll(async () => (await fetchAccount(detail)).city).toBe('Porto');
    await expect.poll(() => page.locator('#root_city').inputValue()).toBe('Porto');

    await page.locator('#root_name').fill('X');
    await page.locator('#root_name').blur();
    await page.getByText('Name must be valid').waitFor();
    expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/account-invalid.png` });
    expect((await fetchAccount(detail)).name).toBe('Browser Test Networks');
  });

  it('renders dark mode and Hebrew right-to-left', async () => {
    await page.goto(`${portal.url}/#/accounts`);
    await grid().locator('[role="gridcell"]').first().waitFor();
    await setDarkMode(page, true);
    await expect.poll(() => page.evaluate(() => document.body.classList.contains('bp6-dark'))).toBe(true);
    await page.screenshot({ path: `${SHOTS}/accounts-dark.png` });
    await page.getByTestId('language-select').selectOption('he');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await page.screenshot({ path: `${SHOTS}/accounts-he-dark.png` });
    await page.getByTestId('language-select').selectOption('en');
    await setDarkMode(page, false);
  });

  it('signs out back to the login screen', async () => {
    await page.getByTestId('sign-out').click();
    await page.locator('#login-userName').waitFor();
    await page.goto(`${portal.url}/#/accounts`);
    await page.locator('#login-userName').waitFor();
    expect(consoleErrors.filter((e) => !/401|Unauthorized|Failed to load resource/.test(e))).toEqual([]);
  });

  /** The account as stored, read through the API with the browser's own token. */
  async function fetchAccount(detailUrl: string): Promise<Record<string, string>> {
    const id = detailUrl.split('/').pop();
    return page.evaluate(async (accountId) => {
      const token = localStorage.getItem('portal.token') ?? sessionStorage.getItem('portal.token') ?? '';
      const res = await fetch(`/portal/accounts/${accountId}`, { headers: { authorization: `Bearer ${token}` } });
      return res.json();
    }, id);
  }
});
