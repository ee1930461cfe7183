import { mkdirSync, readFileSync } from 'node:fs';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, openBrowser, startPortal, type Browser, type Portal, setDarkMode } from './harness';

const SHOTS = process.env.SHOTS_DIR ?? 'test-results';

describe('allowed lists and roaming profiles in the browser', () => {
  let portal: Portal;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // A core network that always answers, so a sync ends with every change applied.
    portal = await startPortal({ CORE_NETWORK_FAILURE_RATE: '0', DEMO_SUBSCRIBERS: '200' });
    browser = await openBrowser();
    page = browser.page;
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${portal.url}/#/login`);
    await page.locator('#login-userName').fill('admin');
    await page.locator('#login-password').fill(ADMIN_PASSWORD);
    await page.getByTestId('sign-in-submit').click();
    await page.getByTestId('dashboard-welcome').waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  const hashOf = () => decodeURIComponent(new URL(page.url()).hash);
  const names = (grid: string) => page.getByTestId(grid).locator('[role="gridcell"][col-id="name"]');
  /** Light and dark screenshots: the whole page, or the window scrolled to `at`. */
  /** Clicks a download button and reads the saved CSV. */
  const downloadCsv = async (testId: string) => {
    const saved = page.waitForEvent('download');
    await page.getByTestId(testId).click();
    const download = await saved;
    const text = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
    return { name: download.suggestedFilename(), ...Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }) };
  };
  const shoot = async (name: string, at?: string) => {
    const take = async (mode: string) => {
      if (at) await page.getByTestId(at).scrollIntoViewIfNeeded();
      else await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: `${SHOTS}/${name}-${mode}.png`, fullPage: !at });
    };
    await take('light');
    await setDarkMode(page, true);
    await take('dark');
    await setDarkMode(page, false);
  };

  it('switches between the tabs and the address follows', async () => {
    await page.getByRole('link', { name: 'Profiles' }).click();
    await expect.poll(() => names('grid-allowedList').allInnerTexts(), { timeout: 15_000 }).toContain('Europe standard');
    await page.getByRole('tab', { name: 'Roaming profiles' }).click();
    await expect.poll(hashOf).toBe('#/profiles?tab=1');
    await expect.poll(() => names('grid-roamingProfile').allInnerTexts()).toEqual(expect.arrayContaining(['Europe IoT', 'Americas']));
    // The review state reads as a tag in the list.
    await expect.poll(() => page.getByTestId('grid-roamingProfile').locator('[col-id="reviewState"] [data-status]').count()).toBeGreaterThan(0);
    await shoot('profiles-roaming');

    await page.getByRole('tab', { name: 'Allowed lists' }).click();
    await expect.poll(hashOf).toBe('#/profiles?tab=0');
    // The tab's list mounts afresh: search once its rows are in, so the text goes into the box that stays.
    await expect.poll(() => names('grid-allowedList').allInnerTexts()).toContain('Europe standard');
    await page.getByTestId('list-search').fill('IoT');
    await page.getByTestId('list-search').press('Enter');
    await expect.poll(hashOf).toBe('#/profiles?tab=0&name=IoT&page=1');
    await expect.poll(() => names('grid-allowedList').allInnerTexts()).toEqual(['IoT worldwide']);
    await page.goBack();
    await page.goBack();
    await expect.poll(hashOf).toBe('#/profiles?tab=1');
    await expect(page.getByRole('tab', { name: 'Roaming profiles' }).getAttribute('aria-selected')).resolves.toBe('true');
  });

  it('blocks a network of an allowed list: pending, then blocked after the sync', async () => {
    await page.goto(`${portal.url}/#/profiles?tab=0&name=Europe standard&page=1`);
    await expect.poll(() => names('grid-allowedList').allInnerTexts()).toEqual(['Europe standard']);
    await names('grid-allowedList').first().click();
    await expect.poll(hashOf).toMatch(/^#\/allowed-list\/\d+$/);

    await page.getByTestId('country-toggle-GB').click();
    const network = page.getByTestId('network-23415');
    await expect.poll(() => network.getAttribute('data-state')).toBe('preferred');
    await network.getByTestId('network-block').click();
    await expect.poll(() => network.getAttribute('data-state')).toBe('pending');
    await expect.poll(() => network.locator('[data-state="pending"]').innerText()).toBe('Pending');

    await page.getByTestId('allowed-list-sync').click();
    // The seeded pending network (21407) and the one just blocked go out; the bar fills as answers arrive.
    await page.getByTestId('sync-progress').waitFor();
    await expect.poll(() => network.getAttribute('data-state'), { timeout: 20000 }).toBe('blocked');
    await expect.poll(() => page.getByTestId('sync-progress').getAttribute('data-running'), { timeout: 20000 }).toBe('false');
    expect(await page.getByTestId('sync-counts').innerText()).toBe('Last sync: 2 of 2 answered, 0 failed');
    // The counts are read again once the last answer is in.
    await expect.poll(() => page.getByTestId('network-counts').innerText()).not.toContain('Pending');
    expect(await page.getByTestId('network-counts').innerText()).toContain('Blocked 5');
    const list = await downloadCsv('allowed-list-download');
    expect(list.name).toBe('allowed-list-Europe-standard.csv');
    expect(list.data.find((r) => r.plmn === '23415')).toMatchObject({ country: 'GB', countryName: 'United Kingdom', state: 'blocked' });
    await shoot('allowed-list', 'sync-progress');
    await shoot('allowed-list-networks', 'network-23415');
  });

  it('edits a rate in the price table, refuses a wrong one, and keeps the saved one after a reload', async () => {
    await page.goto(`${portal.url}/#/profiles?tab=1&name=Europe IoT&page=1`);
    await expect.poll(() => names('grid-roamingProfile').allInnerTexts()).toEqual(['Europe IoT']);
    await names('grid-roamingProfile').first().click();
    await expect.poll(hashOf).toMatch(/^#\/roaming-profile\/\d+$/);
    await expect.poll(() => page.getByTestId('profile-review-state').getAttribute('data-state')).toBe('approved');
    // Sponsors are picked by name.
    await expect.poll(() => page.getByTestId('references-sponsorIds').locator('.bp6-tag').allInnerTexts()).toEqual(['Orbit Home NL']);

    const cell = page.getByTestId('grid-rates').locator('[role="row"][row-id="DE"] [col-id="moSms"]');
    const edit = async (text: string) => {
      await cell.click();
      const input = cell.locator('input');
      await input.fill(text);
      await input.press('Enter');
    };
    await edit('-0.5');
    await expect.poll(() => cell.getAttribute('class')).toContain('portal-cell-invalid');
    await page.getByTestId('price-table-invalid').waitFor();
    expect(await page.getByTestId('price-table-save').isDisabled()).toBe(true);
    await edit('0.12345');
    expect(await page.getByTestId('price-table-save').isDisabled()).toBe(true);

    await edit('0.1234');
    await expect.poll(() => cell.getAttribute('class')).not.toContain('portal-cell-invalid');
    await page.getByTestId('price-table-save').click();
    // Any change sends the profile back to review.
    await expect.poll(() => page.getByTestId('profile-review-state').getAttribute('data-state')).toBe('pending');
    await page.reload();
    await expect.poll(() => cell.innerText()).toBe('0.1234');
    await shoot('roaming-profile');
    // Hebrew lays the price table out right to left, country first on the right.
    await page.getByTestId('language-select').selectOption('he');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await expect.poll(() => page.getByTestId('grid-rates').locator('.ag-rtl').count()).toBe(1);
    await expect.poll(() => cell.innerText()).toBe('0.1234');
    await page.screenshot({ path: `${SHOTS}/roaming-profile-he.png`, fullPage: true });
    await page.getByTestId('language-select').selectOption('en');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('ltr');

    const { name, data, meta } = await downloadCsv('profile-download-rates');
    expect(name).toMatch(/^roaming-profile-\d+-rates\.csv$/);
    expect(meta.fields).toEqual(['country', 'countryName', 'moCall', 'mtCall', 'moSms', 'mtSms', 'data']);
    expect(data.map((r) => r.country)).toEqual(['DE', 'ES', 'FR', 'GB']);
    const germany = data.find((r) => r.country === 'DE')!;
    expect(germany.countryName).toBe('Germany');
    expect(Number(germany.moSms)).toBe(0.1234);
    // The whole profile, in the import format.
    const whole = await downloadCsv('profile-download-profile');
    expect(whole.meta.fields).toEqual(['resellerId', 'name', 'reference', 'slots', 'country', 'moCall', 'mtCall', 'moSms', 'mtSms', 'data']);
    expect(whole.data.find((r) => r.country === 'DE')).toMatchObject({ name: 'Europe IoT', reference: 'NW-EU-IOT', slots: '1' });
    expect(Number(whole.data.find((r) => r.country === 'DE')!.moSms)).toBe(0.1234);

    // The administrator approves it again.
    await page.getByTestId('profile-approve').click();
    await expect.poll(() => page.getByTestId('profile-review-state').getAttribute('data-state')).toBe('approved');
    expect(await page.getByTestId('profile-approve').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
