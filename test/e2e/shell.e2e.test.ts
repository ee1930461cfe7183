import { AxeBuilder } from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, demoPassword, openBrowser, signIn as signInAs, startPortal, type Browser, type Portal, setDarkMode } from './harness';
import { MENU_ENTRIES } from '@web/app/menu';

const SHOTS = process.env.SHOTS_DIR ?? 'test-results';

/** The menu's order: the specification's (checked in menu.test.ts) with the entries the entity schemas add. */
const MENU_ORDER = MENU_ENTRIES.map((e) => e.id);

/** The addresses the search popup must reach for an admin: every page and every filter. */
const SEARCHES: [page: string, path: string, filters: string[], tab?: string][] = [
  [
    'Subscribers',
    '/subscribers',
    [
      'multi',
      'subscriberId',
      'realImsi',
      'sponsorImsi',
      'iccid',
      'msisdn',
      'accountId',
      'accountName',
      'subscriberName',
      'resellerName',
      'network',
      'resellerId',
    ],
  ],
  ['Accounts', '/accounts', ['multi', 'accountId', 'name', 'address', 'city', 'resellerId', 'resellerName']],
  ['Users', '/users', ['multi', 'userId', 'username', 'firstName', 'lastName', 'email', 'resellerId', 'resellerName']],
  ['Resellers', '/resellers', ['name', 'id', 'accountId']],
  ['PrepaidTemplates', '/templates', ['name', 'id', 'resellerId', 'resellerName']],
  ['PricingPlans', '/pricing-plans', ['name', 'id', 'resellerId', 'resellerName']],
  ['LocationZones', '/location-zones', ['name', 'id', 'includedCountry', 'resellerId', 'resellerName']],
  ['DestinationZones', '/destination-zones', ['name', 'id', 'includedCountry', 'resellerId', 'resellerName']],
  ['AllowedLists', '/profiles', ['name', 'uuid', 'reference', 'sponsorName', 'resellerId', 'resellerName'], '0'],
  ['RoamingProfiles', '/profiles', ['name', 'reference', 'profileId', 'allowedListUuid', 'nameAndReference', 'sponsorName', 'resellerId', 'resellerName'], '1'],
];

describe('the shell in the browser', () => {
  let portal: Portal;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    portal = await startPortal();
    browser = await openBrowser();
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  const hash = () => decodeURIComponent(new URL(page.url()).hash.slice(1));

  const signIn = (userName: string, password: string) => signInAs(page, portal, userName, password);
  async function signOut() {
    await page.getByTestId('sign-out').click();
    await page.locator('#login-userName').waitFor();
  }
  async function menuIds(): Promise<string[]> {
    await page.getByTestId('side-menu').waitFor();
    const ids = await page
      .getByTestId('side-menu')
      .locator('a[data-testid^="menu-"]')
      .evaluateAll((links) => links.map((a) => a.getAttribute('data-testid')!.slice(5)));
    return ids;
  }
  async function noSeriousViolations(name: string) {
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${name}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }

  it('shows each role exactly its menu entries, in the fixed order', async () => {
    const inOrder = (ids: string[]) => expect(ids).toEqual(MENU_ORDER.filter((id) => ids.includes(id)));

    await signIn('harbor', demoPassword(portal));
    const harbor = await menuIds();
    inOrder(harbor);
    // Subscribers start background jobs (bulk actions), so the jobs screen comes with it, and its reseller's groups.
    expect(harbor.filter((id) => !['Dashboard', 'Subscribers', 'subscriberGroup', 'Accounts', 'Jobs'].includes(id))).toEqual([]);
    expect(harbor).toEqual(expect.arrayContaining(['Dashboard', 'Accounts']));
    await signOut();

    await signIn('northwind', demoPassword(portal));
    const northwind = await menuIds();
    inOrder(northwind);
    expect(northwind).toEqual(expect.arrayContaining(['Dashboard', 'Accounts', 'Users', 'Documentation']));
    expect(northwind).not.toContain('Roles');
    expect(await page.getByTestId('settings-open').count()).toBe(0);
    await signOut();

    await signIn('admin', ADMIN_PASSWORD);
    const admin = await menuIds();
    inOrder(admin);
    expect(admin).toEqual(expect.arrayContaining([...northwind, 'Roles']));
    await page.screenshot({ path: `${SHOTS}/shell-light.png` });
    await noSeriousViolations('shell, light');
  });

  it('reaches the right address from the search popup for every page and filter', async () => {
    for (const [name, path, filters, tab] of SEARCHES) {
      for (const by of filters) {
        await page.getByTestId('search-popup-open').click();
        await page.getByTestId('search-popup-page').selectOption(name);
        await page.getByTestId('search-popup-by').selectOption(by);
        await page.getByTestId('search-popup-text').fill(`  ${by} 42 `);
        await page.getByTestId('search-popup-text').press('Enter');
        const expected = tab === undefined ? `${path}?searchKey=${by} 42&searchBy=${by}&page=1` : `${path}?tab=${tab}&${by}=${by} 42&page=1`;
        await expect.poll(() => hash().replace(/\+/g, ' ')).toBe(expected);
      }
    }
    await page.getByTestId('search-popup-open').click();
    await page.getByTestId('search-popup-page').selectOption('InternationalPlans');
    expect(await page.getByTestId('search-popup-soon').textContent()).toBe('This feature will come soon.');
    await page.keyboard.press('Escape');
  });

  it('opens an account by name from the command palette', async () => {
    await page.goto(`${portal.url}/#/`);
    await page.getByTestId('dashboard-welcome').waitFor();
    await page.keyboard.press('Control+k');
    await page.getByPlaceholder('Screen, or a record by ID or name').fill('harbor logi');
    const match = page.locator('[data-testid^="palette-account:"]', { hasText: 'Harbor Logistics' });
    await match.click();
    await expect.poll(hash).toMatch(/^\/account\/\d+$/);
    await page.locator('#root_name').waitFor();
    expect(await page.locator('#root_name').inputValue()).toBe('Harbor Logistics');
  });

  it('keeps dark mode across a reload; the shell, the accounts list and the documentation read in dark', async () => {
    await setDarkMode(page, true);
    await page.goto(`${portal.url}/#/accounts`);
    await page.reload();
    await page.locator('.ag-row').first().waitFor();
    expect(await page.evaluate(() => document.body.classList.contains('bp6-dark'))).toBe(true);
    await page.screenshot({ path: `${SHOTS}/accounts-dark.png` });
    await noSeriousViolations('accounts, dark');

    const blocked: string[] = [];
    page.on('console', (m) => m.type() === 'error' && /Content Security Policy|Refused/.test(m.text()) && blocked.push(m.text()));
    await page.goto(`${portal.url}/#/api/documentation`);
    const reference = page.getByTestId('api-reference');
    await reference.locator('.opblock').first().waitFor({ timeout: 60000 });
    await page.screenshot({ path: `${SHOTS}/documentation-dark.png` });
    // The reference draws operations as they scroll into view: scroll until the accounts list call shows.
    const accountsPaged = reference.getByText('/portal/accounts/paged').first();
    await expect
      .poll(
        async () => {
          if (await accountsPaged.isVisible()) return true;
          await page.mouse.wheel(0, 1500);
          return false;
        },
        { timeout: 60000, interval: 250 },
      )
      .toBe(true);
    expect(blocked).toEqual([]);

    await page.goto(`${portal.url}/#/accounts`);
    await page.locator('.ag-row').first().waitFor();
    await setDarkMode(page, false);
    await expect.poll(() => page.evaluate(() => document.body.classList.contains('bp6-dark'))).toBe(false);
    await noSeriousViolations('accounts, light');
  });

  it('turns right to left in Hebrew with no English left in the shell or on the sign-in page', async () => {
    await page.goto(`${portal.url}/#/`);
    await page.getByTestId('language-select').selectOption('he');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    const latin = (text: string) => text.match(/[A-Za-z]{3,}/g) ?? [];
    await expect.poll(async () => latin(await page.getByTestId('side-menu').innerText())).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/shell-hebrew.png` });
    await signOut();
    await page.locator('#login-userName').waitFor();
    await page.screenshot({ path: `${SHOTS}/login-hebrew.png` });
    const login = await page.locator('main, form').first().innerText();
    expect(latin(login)).toEqual([]);
    await noSeriousViolations('login, light, Hebrew');
  });

  it('folds the menu into a drawer below 920 px', async () => {
    await page.setViewportSize({ width: 800, height: 860 });
    await signIn('admin', ADMIN_PASSWORD);
    expect(await page.locator('.portal-side').count()).toBe(0);
    await page.getByTestId('menu-toggle').click();
    await page.locator('.bp6-drawer').getByTestId('menu-Accounts').click();
    await expect.poll(hash).toBe('/accounts');
    await expect.poll(() => page.locator('.bp6-drawer').count()).toBe(0);
    await page.setViewportSize({ width: 1360, height: 860 });
  });
});
