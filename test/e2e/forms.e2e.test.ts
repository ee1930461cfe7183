import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { SHOTS, browserSession, demoPassword, editCell, setDarkMode, signIn, type Portal } from './harness';

describe('forms, pickers and the command palette in the browser', () => {
  const session = browserSession();
  let portal: Portal;
  let page: Page;
  const errors = session.errors;
  beforeAll(async () => {
    ({ portal, page } = session);
  });

  /** Whether a style sheet the page holds styles the select package's omnibar. */
  const hasSelectStyles = () =>
    page.evaluate(() => [...document.styleSheets].some((sheet) => [...sheet.cssRules].some((rule) => rule.cssText.includes('.bp6-omnibar'))));
  const omnibarLook = () =>
    page.locator('.bp6-omnibar').evaluate((el) => {
      const style = getComputedStyle(el);
      return { width: style.width, top: Math.round(el.getBoundingClientRect().top), background: style.backgroundColor, radius: style.borderRadius };
    });
  async function openPalette() {
    await page.keyboard.press('Control+k');
    await page.getByPlaceholder(/.+/).and(page.locator('.bp6-omnibar input')).waitFor();
  }
  const switchLanguage = async (locale: string, dir: string) => {
    await page.getByTestId('language-select').selectOption(locale);
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe(dir);
  };

  it('keeps the select styles out of the sign-in screen and gives the palette its look, light, dark and right to left', async () => {
    await page.goto(`${portal.url}/#/login`);
    await page.locator('#login-userName').waitFor();
    expect(await hasSelectStyles()).toBe(false);

    await signIn(page, portal, 'northwind', demoPassword(portal));
    await openPalette();
    // Blueprint's omnibar: a 500 px panel a fifth of the way down the window, white with rounded corners.
    expect(await omnibarLook()).toEqual({ width: '500px', top: Math.round(860 * 0.2), background: 'rgb(255, 255, 255)', radius: '4px' });
    await page.keyboard.type('acc');
    await page.locator('.bp6-omnibar .bp6-menu-item').first().waitFor();
    await page.screenshot({ path: `${SHOTS}/palette-light.png` });
    await page.keyboard.press('Escape');

    await setDarkMode(page, true);
    await openPalette();
    expect((await omnibarLook()).background).toBe('rgb(47, 52, 60)');
    await page.keyboard.type('acc');
    await page.locator('.bp6-omnibar .bp6-menu-item').first().waitFor();
    await page.screenshot({ path: `${SHOTS}/palette-dark.png` });
    await page.keyboard.press('Escape');
    await setDarkMode(page, false);

    await switchLanguage('he', 'rtl');
    await openPalette();
    expect((await omnibarLook()).width).toBe('500px');
    await page.screenshot({ path: `${SHOTS}/palette-hebrew.png` });
    await page.keyboard.press('Escape');
    await switchLanguage('en', 'ltr');
  });

  it('adds a country with Enter in the picker without saving the form', async () => {
    await page.goto(`${portal.url}/#/location-zones`);
    await page.getByTestId('grid-locationZone').locator('[role="gridcell"][col-id="name"]').first().waitFor();
    await page.getByTestId('list-create').click();
    await page.locator('#root_name').fill('Alpine');
    const input = page.getByTestId('countries-field').locator('input');
    await input.fill('Switzer');
    await page.getByRole('option', { name: /^Switzerland/ }).waitFor();
    await input.press('Enter');
    await expect.poll(() => page.getByTestId('countries-count').innerText()).toBe('1 country chosen');
    await input.fill('Austri');
    await page.getByRole('option', { name: /^Austria/ }).waitFor();
    await input.press('Enter');
    await expect.poll(() => page.getByTestId('countries-count').innerText()).toBe('2 countries chosen');
    // Still the new zone's form: nothing was saved.
    expect(new URL(page.url()).hash).toMatch(/\/new$/);
    await page.keyboard.press('Escape');
    await page.screenshot({ path: `${SHOTS}/location-zone-enter.png` });
  });

  it('says which fields keep Save disabled, and a link takes the cursor there', async () => {
    await page.goto(`${portal.url}/#/accounts`);
    await page.getByTestId('grid-account').locator('[role="gridcell"][col-id="name"]').first().click();
    await page.locator('#root_name').waitFor();
    await page.locator('#root_name').fill('');
    await page.locator('#root_email').fill('not-an-email');
    const reason = page.getByTestId('save-blocked');
    await expect.poll(() => reason.innerText()).toBe('Fix 2 fields: Name and E-mail');
    expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await reason.getByRole('link', { name: 'Name' }).click();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('root_name');
    await page.screenshot({ path: `${SHOTS}/save-blocked-light.png`, fullPage: true });
    await switchLanguage('he', 'rtl');
    await expect.poll(() => reason.innerText()).toMatch(/^יש לתקן 2 שדות:/);
    await page.screenshot({ path: `${SHOTS}/save-blocked-hebrew.png`, fullPage: true });
    await switchLanguage('en', 'ltr');
  });

  it('shows rule countries by name and picks them from the real ones, light, dark and in Hebrew', async () => {
    await page.goto(`${portal.url}/#/pricing-plans`);
    await page.getByTestId('grid-pricingPlan').locator('[role="gridcell"][col-id="name"]', { hasText: 'Europe IoT Standard' }).click();
    await page.getByTestId('plan-rules-link').click();
    const grid = page.getByTestId('rules-grid');
    const country = grid.locator('[role="row"][row-index="0"] [role="gridcell"][col-id="country"]');
    await country.waitFor();
    const shown = await grid.locator('[role="gridcell"][col-id="country"]').allInnerTexts();
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.every((text) => /^[A-Z]{2} · .+/.test(text))).toBe(true);
    await page.screenshot({ path: `${SHOTS}/rules-grid-light.png` });

    const picker = await editCell(country, 'select');
    expect(await picker.locator('option[value="DE"]').innerText()).toBe('Germany');
    await page.screenshot({ path: `${SHOTS}/rules-grid-country-picker.png` });
    await picker.selectOption('AT');
    await expect.poll(() => country.innerText()).toBe('AT · Austria');
    await page.getByTestId('rules-undo').click();

    await setDarkMode(page, true);
    await page.screenshot({ path: `${SHOTS}/rules-grid-dark.png` });
    await switchLanguage('he', 'rtl');
    await expect.poll(() => grid.locator('[role="gridcell"][col-id="country"]').allInnerTexts()).toContain('DE · גרמניה');
    await page.screenshot({ path: `${SHOTS}/rules-grid-hebrew-dark.png` });
    await setDarkMode(page, false);
    await page.screenshot({ path: `${SHOTS}/rules-grid-hebrew.png` });
    await switchLanguage('en', 'ltr');
    expect(errors).toEqual([]);
  });
});
