import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { demoPassword, openBrowser, startPortal, type Browser, type Portal, setDarkMode } from './harness';

const SHOTS = process.env.SHOTS_DIR ?? 'test-results';

/** Pixels of the map's canvas painted in the accent colour (the chosen countries), and in the sea-free land colour. */
async function mapPixels(page: Page): Promise<{ chosen: number; total: number }> {
  return page.getByTestId('country-map').evaluate((el) => {
    const canvas = el.querySelector('canvas')!;
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let chosen = 0;
    let total = 0;
    const accent = getComputedStyle(document.documentElement).getPropertyValue('--portal-accent').trim() || '#c99a2e';
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(accent.slice(i, i + 2), 16));
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3] === 0) continue;
      total += 1;
      if (Math.abs(data[i] - r) < 12 && Math.abs(data[i + 1] - g) < 12 && Math.abs(data[i + 2] - b) < 12) chosen += 1;
    }
    return { chosen, total };
  });
}

describe('location zones in the browser', () => {
  let portal: Portal;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal();
    browser = await openBrowser();
    page = browser.page;
    page.on('pageerror', (e) => errors.push(String(e)));
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  const pick = async (text: string) => {
    const input = page.getByTestId('countries-field').locator('input');
    await input.fill(text);
    await page
      .getByRole('option', { name: new RegExp(`^${text}`) })
      .first()
      .click();
  };

  it('creates a location zone by picking countries and shows them on the map', async () => {
    await page.goto(`${portal.url}/#/login`);
    await page.locator('#login-userName').fill('northwind');
    await page.locator('#login-password').fill(demoPassword(portal));
    await page.getByTestId('sign-in-submit').click();
    await page.getByTestId('dashboard-welcome').waitFor();

    await page.goto(`${portal.url}/#/location-zones`);
    await page.getByTestId('grid-locationZone').locator('[role="gridcell"][col-id="name"]').first().waitFor();
    await page.getByTestId('list-create').click();
    await page.locator('#root_name').fill('South America');
    await page.getByTestId('country-map').locator('canvas').waitFor();
    expect((await mapPixels(page)).chosen).toBe(0);

    await pick('Brazil');
    await pick('Argentina');
    await pick('Chile');
    await expect.poll(() => page.getByTestId('countries-count').innerText()).toBe('3 countries chosen');
    // The map fills the three countries in: Brazil alone is a large patch of the accent colour.
    await expect.poll(async () => (await mapPixels(page)).chosen).toBeGreaterThan(500);
    const withChile = (await mapPixels(page)).chosen;
    await page.getByTestId('countries-field').getByText('Brazil', { exact: true }).locator('..').getByRole('button').click();
    await expect.poll(() => page.getByTestId('countries-count').innerText()).toBe('2 countries chosen');
    await expect.poll(async () => (await mapPixels(page)).chosen).toBeLessThan(withChile / 2);
    await pick('Brazil');
    // The list stays open for more picks until Escape closes it.
    await page.keyboard.press('Escape');
    await page.screenshot({ path: `${SHOTS}/location-zone-picking.png`, fullPage: true });

    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => new URL(page.url()).hash).toMatch(/^#\/location-zone\/\d+$/);
    await page.reload();
    await expect.poll(() => page.getByTestId('country-map').getAttribute('data-countries')).toBe('AR,BR,CL');
    await expect.poll(async () => (await mapPixels(page)).chosen).toBeGreaterThan(500);
    await page.screenshot({ path: `${SHOTS}/location-zone-light.png`, fullPage: true });

    await setDarkMode(page, true);
    await expect.poll(() => page.evaluate(() => document.body.classList.contains('bp6-dark'))).toBe(true);
    // In the dark the land that is not chosen turns dark too, and the chosen countries stay lit.
    await expect.poll(async () => (await mapPixels(page)).chosen).toBeGreaterThan(500);
    const land = await page.getByTestId('country-map').evaluate((el) => {
      const c = el.querySelector('canvas')!;
      const [r, g, b] = c.getContext('2d')!.getImageData(Math.round(c.width * 0.52), Math.round(c.height * 0.3), 1, 1).data;
      return r + g + b;
    });
    expect(land).toBeLessThan(300);
    await page.screenshot({ path: `${SHOTS}/location-zone-dark.png`, fullPage: true });
    await setDarkMode(page, false);

    await page.goto(`${portal.url}/#/location-zones?searchBy=countries&searchKey=Brasilien&page=1`);
    await expect.poll(() => page.getByTestId('grid-locationZone').locator('[role="gridcell"][col-id="name"]').allInnerTexts()).toEqual(['South America']);
    expect(await page.getByTestId('grid-locationZone').locator('[role="gridcell"][col-id="countryCount"]').allInnerTexts()).toEqual(['3']);
    expect(errors).toEqual([]);
  });
});
