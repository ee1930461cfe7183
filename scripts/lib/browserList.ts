/**
 * The subscriber grid in Debian's Chromium, against a running portal: time from navigation to the first rows
 * rendered, measured in the page, over `loads` loads each (the median is the figure):
 *
 * - a page load: from about:blank to `/#/subscribers`, a new document, from its navigation's start;
 * - the side menu's link: the dashboard loaded the same way, then a click on the menu's entry, a route change in the
 *   same document, from the click.
 *
 * Then paging forward while every animation frame counts the rows on screen, to show whether the grid ever goes blank.
 */
import { existsSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { openBrowser, signIn, type Portal } from '../../test/e2e/harness';
import { percentile } from './percentile';

const ROWS = '.ag-row';
const PAGES = 20;

export interface BrowserListFigures {
  /** Medians over the loads. */
  'page load to first rows ms': number;
  'menu link to first rows ms': number;
  /** Each load's figure, in order. */
  'page loads ms': string;
  'menu links ms': string;
  'pages turned': number;
  'fewest rows on screen while paging': number;
}

/** The page's clock when the first row is drawn, checked at every animation frame. */
async function firstRowsAt(page: Page): Promise<number> {
  const at = await page.waitForFunction((selector) => document.querySelector(selector) !== null && performance.now(), ROWS, {
    polling: 'raf',
    timeout: 60_000,
  });
  return (await at.jsonValue()) as number;
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

export async function measureBrowserList(url: string, password: string, webRoot = 'dist/web', loads = 5): Promise<BrowserListFigures | undefined> {
  if (!existsSync('/usr/bin/chromium') || !existsSync(webRoot)) return undefined;
  const browser = await openBrowser();
  try {
    const { page } = browser;
    await signIn(page, { url } as Portal, 'admin', password, true);

    const pageLoads: number[] = [];
    const menuLinks: number[] = [];
    for (let i = 0; i < loads; i++) {
      // A page load: a new document (a hash change alone would be a route change in the same one).
      await page.goto('about:blank');
      await page.goto(`${url}/#/subscribers`);
      pageLoads.push(Math.round(await firstRowsAt(page)));

      // From a freshly loaded dashboard through the side menu, the way a user gets there.
      await page.goto('about:blank');
      await page.goto(`${url}/#/`);
      await page.getByTestId('dashboard-welcome').waitFor();
      await page.evaluate(() => {
        const w = window as unknown as { clickedAt?: number };
        document.addEventListener('click', () => (w.clickedAt ??= performance.now()), { capture: true });
      });
      await page.locator('a[href="#/subscribers"]').first().click();
      const drawn = await firstRowsAt(page);
      const clicked = await page.evaluate(() => (window as unknown as { clickedAt: number }).clickedAt);
      menuLinks.push(Math.round(drawn - clicked));
    }

    // Paging forward: the fewest rows any frame showed.
    // As text: the script runner would wrap a named function for the page, where its helper does not exist.
    await page.evaluate(`(() => {
      window.fewestRows = Infinity;
      window.watching = true;
      const tick = () => {
        // A row may be drawn in more than one container (pinned columns): count row indexes.
        const shown = new Set([...document.querySelectorAll('${ROWS}')].map((row) => row.getAttribute('row-index')));
        window.fewestRows = Math.min(window.fewestRows, shown.size);
        if (window.watching) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    })()`);
    for (let i = 0; i < PAGES; i++) {
      const before = await page.getByTestId('list-page').textContent();
      await page.getByRole('button', { name: 'Next page' }).click();
      await page.waitForFunction((text) => document.querySelector('[data-testid="list-page"]')?.textContent !== text, before);
      await page.waitForFunction((selector) => document.querySelectorAll(selector).length > 0, ROWS);
    }
    const fewest = await page.evaluate(() => {
      const w = window as unknown as { fewestRows: number; watching: boolean };
      w.watching = false;
      return w.fewestRows;
    });
    return {
      'page load to first rows ms': median(pageLoads),
      'menu link to first rows ms': median(menuLinks),
      'page loads ms': pageLoads.join(', '),
      'menu links ms': menuLinks.join(', '),
      'pages turned': PAGES,
      'fewest rows on screen while paging': fewest,
    };
  } finally {
    await browser.close();
  }
}
