import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, browserSession, callApi, demoPassword, setDarkMode, SHOTS, signIn, pickFromMenu } from './harness';

const cells = (page: import('playwright-core').Page, col: string) => page.getByTestId('grid-serviceClass').locator(`[role="gridcell"][col-id="${col}"]`);

/** Service classes (list, form, assignment and counts) and a reseller's account and settings page with its styles. */
describe('service classes and account settings in the browser', () => {
  const session = browserSession();

  it('creates a service class, assigns it to a reseller and counts the subscribers using it', async () => {
    const { page, portal } = session;
    await signIn(page, portal, 'admin', ADMIN_PASSWORD);
    await page.getByTestId('menu-serviceClass').click();
    await cells(page, 'name').first().waitFor();
    expect(await cells(page, 'name').allInnerTexts()).toEqual(expect.arrayContaining(['64 kbit/s', '1 Mbit/s']));
    await page.getByTestId('list-create').click();
    await page.locator('#root_name').waitFor();
    await page.locator('#root_name').fill('E2E lane');
    await page.locator('#root_downlinkKbps').fill('2048');
    await page.locator('#root_uplinkKbps').fill('512');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.title()).toMatch(/^E2E lane · /);

    // Blue Sky Telecom takes it: its subscribers use it from then on.
    const resellers = await callApi<{ id: number; name: string }[]>(page, 'GET', '/portal/reseller-info/list');
    const id = resellers.find((r) => r.name === 'Blue Sky Telecom')!.id;
    await page.goto(`${portal.url}/#/reseller/${id}`);
    await page.locator('#root_serviceClassId').waitFor();
    await page.locator('#root_serviceClassId').selectOption({ label: 'E2E lane' });
    await page.getByRole('button', { name: 'Save' }).first().click();
    await expect.poll(() => page.getByText('Saved').count()).toBeGreaterThan(0);
    await page.goto(`${portal.url}/#/serviceclass`);
    await cells(page, 'name').first().waitFor();
    const row = page.getByTestId('grid-serviceClass').locator('[role="row"]').filter({ hasText: 'E2E lane' });
    await expect.poll(async () => Number(await row.locator('[col-id="subscriberCount"]').innerText())).toBeGreaterThan(0);
    await page.screenshot({ path: `${SHOTS}/service-classes.png` });
    await setDarkMode(page, true);
    await page.screenshot({ path: `${SHOTS}/service-classes-dark.png` });
    await setDarkMode(page, false);
    expect(session.errors).toEqual([]);
  });

  it('changes a reseller’s form styles with a preview, saves them and applies them after a reload', async () => {
    const { page, portal } = session;
    await page.getByTestId('user-menu').click();
    await page.getByTestId('sign-out').click();
    await signIn(page, portal, 'northwind', demoPassword(portal));
    await pickFromMenu(page, 'user-menu', 'menu-services', () => page.getByTestId('services-page').waitFor({ timeout: 10_000 }));
    const preview = page.getByTestId('services-preview');
    const variable = (name: string) => preview.evaluate((el, n) => getComputedStyle(el).getPropertyValue(n).trim(), name);
    await page.getByTestId('services-primary').fill('#aa3377');
    await page.getByTestId('services-font').selectOption('georgia');
    // The preview follows before anything is saved; the rest of the page does not.
    await expect.poll(() => variable('--portal-form-primary')).toBe('#aa3377');
    expect(await page.evaluate(() => document.body.classList.contains('portal-form-styles'))).toBe(false);
    const button = page.getByTestId('services-preview-primary');
    expect(await button.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(170, 51, 119)');
    await page.getByTestId('services-secondary').fill('#12');
    expect(await page.getByText('Enter a colour as #rrggbb').count()).toBeGreaterThan(0);
    await page.getByTestId('services-secondary').fill('#224466');
    await page.getByTestId('services-save').click();
    await expect.poll(() => page.getByText('Settings saved').count()).toBeGreaterThan(0);

    await page.reload();
    await page.getByTestId('services-page').waitFor();
    await expect.poll(() => page.evaluate(() => document.body.classList.contains('portal-form-styles'))).toBe(true);
    expect(await page.evaluate(() => document.documentElement.style.getPropertyValue('--portal-form-primary'))).toBe('#aa3377');
    expect(await page.getByTestId('services-save').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(170, 51, 119)');
    expect(await page.getByTestId('services-font').inputValue()).toBe('georgia');
    await page.screenshot({ path: `${SHOTS}/services.png`, fullPage: true });
    await setDarkMode(page, true);
    await page.screenshot({ path: `${SHOTS}/services-dark.png`, fullPage: true });
    await setDarkMode(page, false);
    await page.getByTestId('language-select').selectOption('he');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await page.screenshot({ path: `${SHOTS}/services-he.png`, fullPage: true });
    await page.getByTestId('language-select').selectOption('en');
    expect(session.errors).toEqual([]);
  });
});
