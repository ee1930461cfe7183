/**
 * The dashboard in Debian's Chromium, against a running portal: time from navigation (a fresh page load of `/#/`,
 * signed in) until every widget shows its data or its empty state: no widget loading, no skeleton left (a chart's
 * code still on its way shows one too), the map drawn. Measured in the page, from the navigation's start.
 */
import { existsSync } from 'node:fs';
import { openBrowser, signIn, type Portal } from '../../test/e2e/harness';

/** The widgets that load data, by test id: each frame's `data-state` leaves `loading` once its figures are there. */
const FRAMES = ['dashboard-map', 'dashboard-usage', 'dashboard-sales', 'dashboard-sales-by', 'dashboard-top', 'dashboard-balance-history'];

export interface BrowserDashboardFigures {
  /** Each load's time to every widget drawn, in order; the first is the first load after signing in. */
  'every widget drawn ms': number[];
  /** First contentful paint of each load. */
  'first contentful paint ms': number[];
}

export async function measureBrowserDashboard(
  url: string,
  userName: string,
  password: string,
  loads = 3,
  webRoot = 'dist/web',
): Promise<BrowserDashboardFigures | undefined> {
  if (!existsSync('/usr/bin/chromium') || !existsSync(webRoot)) return undefined;
  const browser = await openBrowser();
  try {
    const { page } = browser;
    await page.setViewportSize({ width: 1400, height: 1000 });
    await signIn(page, { url } as Portal, userName, password, true);
    const drawn: number[] = [];
    const fcp: number[] = [];
    // The first load after signing in may still fetch code the sign-in did not; the later ones find the browser's
    // cache as a returning user has it.
    for (let i = 0; i < loads; i++) {
      await page.reload();
      const at = await page.waitForFunction(
        (ids) => {
          const done =
            ids.every((id) => {
              const el = document.querySelector(`[data-testid="${id}"]`);
              return el && el.getAttribute('data-state') !== 'loading' && !el.querySelector('.bp6-skeleton');
            }) &&
            document.querySelector('[data-testid="dashboard-trends"] .bp6-skeleton') === null &&
            document.querySelector('[data-testid="dashboard-balance-summary"] .bp6-skeleton') === null &&
            document.querySelector('[data-testid="dashboard-map"] canvas') !== null;
          return done && performance.now();
        },
        FRAMES,
        { polling: 'raf', timeout: 60_000 },
      );
      const ms = Math.round((await at.jsonValue()) as number);
      const paint = await page.evaluate(() => Math.round(performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1));
      drawn.push(ms);
      fcp.push(paint);
    }
    return { 'every widget drawn ms': drawn, 'first contentful paint ms': fcp };
  } finally {
    await browser.close();
  }
}
