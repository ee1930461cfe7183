/**
 * The subscriber grid in Debian's Chromium, against a running portal: time from navigation to the first rows
 * rendered (a fresh page load of `/#/subscribers`, and the side menu's link from the dashboard), then paging
 * forward while every animation frame counts the rows on screen, to show whether the grid ever goes blank.
 */
import { existsSync } from 'node:fs';
import { openBrowser, signIn, type Portal } from '../../test/e2e/harness';

const ROWS = '.ag-row';
const PAGES = 20;

export interface BrowserListFigures {
  'page load to first rows ms': number;
  'menu link to first rows ms': number;
  'pages turned': number;
  'fewest rows on screen while paging': number;
}

export async function measureBrowserList(url: string, password: string, webRoot = 'dist/web'): Promise<BrowserListFigures | undefined> {
  if (!existsSync('/usr/bin/chromium') || !existsSync(webRoot)) return undefined;
  const browser = await openBrowser();
  try {
    const { page } = browser;
    await signIn(page, { url } as Portal, 'admin', password, true);

    // A fresh page load: the app, its grid chunk and the first page of the list.
    const loadStarted = Date.now();
    await page.goto(`${url}/#/subscribers`);
    await page.locator(ROWS).first().waitFor();
    const pageLoad = Date.now() - loadStarted;

    // From the dashboard through the side menu, the way a user gets there.
    await page.goto(`${url}/#/`);
    await page.getByTestId('dashboard-welcome').waitFor();
    const menuStarted = Date.now();
    await page.locator('a[href="#/subscribers"]').first().click();
    await page.locator(ROWS).first().waitFor();
    const menu = Date.now() - menuStarted;

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
    return { 'page load to first rows ms': pageLoad, 'menu link to first rows ms': menu, 'pages turned': PAGES, 'fewest rows on screen while paging': fewest };
  } finally {
    await browser.close();
  }
}
