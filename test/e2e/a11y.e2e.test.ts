import { mkdirSync } from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import he from '../../i18n/he.json';
import { ADMIN_PASSWORD, callApi, openBrowser, setDarkMode, signIn, startPortal, type Browser, type Portal } from './harness';

const SHOTS = process.env.SHOTS_DIR ?? 'test-results';
/** A screen's data arrives from the server: give it time on a busy machine. */
const ARRIVES = { timeout: 15000 };

/** The data grids a new user meets first, as the administrator sees them. */
const LISTS: [name: string, path: string][] = [
  ['subscribers', '/subscribers'],
  ['roaming-profiles', '/profiles?tab=1'],
  ['allowed-lists', '/profiles?tab=0'],
];

interface ListPage<T> {
  items: T[];
}

describe('the data grids in the browser', () => {
  let portal: Portal;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal({ DEMO_SUBSCRIBERS: '300' });
    browser = await openBrowser();
    page = browser.page;
    await signIn(page, portal, 'admin', ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  async function openList(path: string) {
    await page.goto(`${portal.url}/#${path}`);
    await page.locator('[role="gridcell"]').first().waitFor();
  }

  async function seriousViolations(name: string): Promise<string[]> {
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${name}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }

  /** Header labels cut off by their column: the text is wider than the room it is given. */
  const clippedHeaders = () =>
    page.locator('.ag-header-cell-text').evaluateAll((labels) => labels.filter((l) => l.scrollWidth > l.clientWidth + 1).map((l) => l.textContent));

  async function setLanguage(lang: string) {
    await callApi(page, 'POST', '/portal/user/preferences', {
      preferences: JSON.stringify([
        { type: 'lang', value: lang },
        { type: 'darkMode', value: 'false' },
      ]),
    });
    await page.reload();
  }

  // Each axe run reads every cell of a page of rows: several of them take minutes on a busy machine.
  it('has no serious or critical accessibility violations on the subscriber and profile lists, light and dark', { timeout: 360000 }, async () => {
    const found: string[] = [];
    for (const [name, path] of LISTS) {
      await openList(path);
      found.push(...(await seriousViolations(name)));
    }
    await setDarkMode(page, true);
    for (const [name, path] of LISTS.slice(0, 2)) {
      await openList(path);
      found.push(...(await seriousViolations(`${name}, dark`)));
    }
    await setDarkMode(page, false);
    expect(found).toEqual([]);
  });

  it('wraps long column headers instead of cutting them off, wide and at the narrow layout', async () => {
    for (const [width, suffix] of [
      [1360, ''],
      [900, '-narrow'],
    ] as const) {
      await page.setViewportSize({ width, height: 860 });
      for (const [name, path] of LISTS.slice(0, 2)) {
        await openList(path);
        expect(await clippedHeaders(), `${name} at ${width} px`).toEqual([]);
        await page.screenshot({ path: `${SHOTS}/grid-${name}${suffix}.png` });
      }
    }
    await page.setViewportSize({ width: 1360, height: 860 });
    await openList('/subscribers');
    await setDarkMode(page, true);
    await page.screenshot({ path: `${SHOTS}/grid-subscribers-dark.png` });
    await setDarkMode(page, false);
  });

  it('shows bytes as number then unit under Hebrew, right to left, with AG Grid’s own texts in Hebrew', async () => {
    await openList('/subscribers');
    await setLanguage('he');
    try {
      await page.locator('.portal-usage-text').first().waitFor();
      await expect.poll(() => page.evaluate(() => document.documentElement.dir), ARRIVES).toBe('rtl');
      expect(await page.locator('.portal-grid .ag-rtl').count()).toBe(1);
      // Where the first digit and the unit's last letter are drawn: the number must stand left of its unit ("737.9 MB").
      const order = await page
        .locator('.portal-usage-text')
        .first()
        .evaluate((span) => {
          const text = span.firstChild as Text;
          const at = (index: number) => {
            const range = document.createRange();
            range.setStart(text, index);
            range.setEnd(text, index + 1);
            return range.getBoundingClientRect().left;
          };
          const digit = text.data.search(/\d/);
          const unit = text.data.search(/B/);
          return { text: text.data, digit: at(digit), unit: at(unit) };
        });
      expect(order.digit, JSON.stringify(order)).toBeLessThan(order.unit);
      const selectAll = page.locator('.ag-header-select-all input');
      expect(await selectAll.getAttribute('aria-label')).toBe(he['grid.ariaHeaderSelection']);
      await page.screenshot({ path: `${SHOTS}/grid-subscribers-he.png` });
    } finally {
      await setLanguage('en');
    }
  });

  it('titles a detail page with the name of its row', async () => {
    const [account] = (await callApi<ListPage<{ accountId: number; name: string }>>(page, 'POST', '/portal/accounts/paged', { page: { page: 0, size: 1 } }))
      .items;
    await page.goto(`${portal.url}/#/account/${account.accountId}`);
    await expect.poll(() => page.locator('.portal-page-header h2').textContent(), ARRIVES).toBe(account.name);
    expect(await page.title()).toBe(`${account.name} · Connectivity Portal`);
    await page.getByRole('button', { name: 'Save' }).waitFor(ARRIVES);
    await page.screenshot({ path: `${SHOTS}/detail-title-account.png` });

    const [subscriber] = (
      await callApi<ListPage<{ subscriberId: number; name: string }>>(page, 'POST', '/portal/subscribers/paged', { page: { page: 0, size: 1 } })
    ).items;
    await page.goto(`${portal.url}/#/subscriber/${subscriber.subscriberId}`);
    await expect.poll(() => page.getByTestId('subscriber-name').textContent(), ARRIVES).toBe(subscriber.name);
    expect(await page.title()).toBe(`${subscriber.name} · Connectivity Portal`);
  });
});
