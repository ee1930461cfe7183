import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { ADMIN_PASSWORD, browserSession, setDarkMode, SHOTS, signIn } from './harness';

const hebrew = JSON.parse(readFileSync(new URL('../../i18n/he.json', import.meta.url), 'utf8')) as Record<string, string>;

/** An entity made of a schema and a migration only: its menu entry, list, form and titles in the browser. */
describe('contact types in the browser', () => {
  const session = browserSession();

  it('lists the contact types from the menu and creates one through the form', async () => {
    const { page, portal } = session;
    await signIn(page, portal, 'admin', ADMIN_PASSWORD);
    const ids = await page
      .getByTestId('side-menu')
      .locator('a[data-testid^="menu-"]')
      .evaluateAll((links) => links.map((a) => a.getAttribute('data-testid')!.slice(5)));
    expect(ids).toContain('contactType');
    await page.getByTestId('menu-contactType').click();
    await page.getByTestId('grid-contactType').locator('[role="gridcell"][col-id="name"]').first().waitFor();
    expect(await page.getByTestId('grid-contactType').locator('[role="gridcell"][col-id="name"]').allInnerTexts()).toEqual(
      expect.arrayContaining(['Billing', 'Technical']),
    );
    await expect.poll(() => page.title()).toMatch(/^Contact types · /);
    await page.getByTestId('list-create').click();
    await page.locator('#root_name').waitFor();
    expect(await page.title()).toMatch(/^(New c|C)ontact type/i);
    await page.locator('#root_name').fill('Escalation');
    await page.locator('#root_description').fill('Out of hours incidents');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.title()).toMatch(/^Escalation · /);
    await page.screenshot({ path: `${SHOTS}/contact-type.png` });
    // Where the row sits, in every look: its list, then the row; the list's crumb leads back to it.
    expect(await page.locator('.portal-breadcrumbs li').allInnerTexts()).toEqual(['Contact types', 'Escalation']);
    await setDarkMode(page, true);
    await page.screenshot({ path: `${SHOTS}/contact-type-dark.png` });
    await setDarkMode(page, false);
    await page.getByTestId('language-select').selectOption('he');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await page.screenshot({ path: `${SHOTS}/contact-type-he.png` });
    await page.getByTestId('language-select').selectOption('en');
    await page.locator('.portal-breadcrumbs').getByRole('link', { name: 'Contact types' }).click();
    await page.getByTestId('grid-contactType').locator('[role="gridcell"][col-id="name"]').first().waitFor();

    // The list in dark mode, then in Hebrew: the menu entry and the heading read the Hebrew catalogue, right to left.
    await page.getByTestId('menu-contactType').click();
    await page.getByTestId('grid-contactType').locator('[role="gridcell"][col-id="name"]').first().waitFor();
    await setDarkMode(page, true);
    await page.screenshot({ path: `${SHOTS}/contact-types-dark.png` });
    await setDarkMode(page, false);
    await page.getByTestId('language-select').selectOption('he');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await expect.poll(() => page.getByTestId('menu-contactType').innerText()).toBe(hebrew['entity.contactType.title']);
    await page.screenshot({ path: `${SHOTS}/contact-types-he.png` });
    await page.getByTestId('language-select').selectOption('en');
    expect(session.errors).toEqual([]);
  });
});
