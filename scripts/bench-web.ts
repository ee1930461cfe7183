/**
 * The web app as a browser meets it, against the built portal (`npm run build` first) started on a fresh embedded
 * database with the demo data (BENCH_WEB_SUBSCRIBERS subscribers, default 20,000, as the demo):
 *
 * - what the sign-in page transfers: its JavaScript and CSS, compressed as served (Resource Timing: bodies, and
 *   bodies with headers), with the number of files;
 * - the dashboard: time from navigation (a fresh page load) until every widget shows its data or its empty state,
 *   as the demo reseller "northwind" sees it (every widget, the balance among them), BENCH_WEB_LOADS loads (default 5);
 * - the subscribers grid: time from navigation to its first rows, BENCH_WEB_LOADS times each (the median is
 *   printed with every load's figure): a page load (from about:blank, a new document) and the side menu's link
 *   (a route change from a freshly loaded dashboard, from the click);
 * - Lighthouse (desktop preset, no throttling beyond the machine's own, Debian's Chromium, offline) on the sign-in
 *   page, the dashboard and the subscribers grid: performance, accessibility and best practices.
 *
 *   npm run build && npm run bench:web
 *   BENCH_WEB_RUNS=3 npm run bench:web      Lighthouse runs per page (the median score is printed)
 *   BENCH_WEB_REPORTS=dir npm run bench:web  also writes each Lighthouse report (JSON) into dir
 *   BENCH_WEB_ONLY=grid npm run bench:web    only the subscribers grid's first rows
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import puppeteer, { type Page } from 'puppeteer-core';
import { ADMIN_PASSWORD, demoPassword, openBrowser, startPortal } from '../test/e2e/harness';
import { measureBrowserDashboard } from './lib/browserDashboard';
import { measureBrowserList } from './lib/browserList';
import { percentile } from './lib/percentile';

const SUBSCRIBERS = process.env.BENCH_WEB_SUBSCRIBERS ?? '20000';
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 1);
const LOADS = Number(process.env.BENCH_WEB_LOADS ?? 5);
const ONLY_GRID = process.env.BENCH_WEB_ONLY === 'grid';
const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;

/** The sign-in page's JavaScript and CSS as transferred (compressed bodies, and with their headers). */
async function signInTransfer(url: string) {
  const browser = await openBrowser();
  try {
    await browser.page.goto(`${url}/#/login`, { waitUntil: 'networkidle' });
    const files = await browser.page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((e) => /\.(js|css)(\?|$)/.test(e.name))
        .map((e) => ({ body: (e as PerformanceResourceTiming).encodedBodySize, transfer: (e as PerformanceResourceTiming).transferSize })),
    );
    const sum = (k: 'body' | 'transfer') => files.reduce((n, f) => n + f[k], 0);
    return { files: files.length, bodyKb: sum('body') / 1000, transferKb: sum('transfer') / 1000 };
  } finally {
    await browser.close();
  }
}

type Scores = Record<(typeof CATEGORIES)[number], number>;

/** Lighthouse's scores (0 to 100) of one page, in a Chromium that may already hold a signed-in session. */
async function audit(page: Page, url: string): Promise<Scores> {
  const runs: Scores[] = [];
  for (let i = 0; i < RUNS; i++) {
    const result = await lighthouse(
      url,
      { output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES], disableStorageReset: true },
      desktopConfig,
      page,
    );
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const { categories, audits, runtimeError } = result.lhr;
    if (runtimeError) console.log(`  ${url}: Lighthouse could not measure: ${runtimeError.code} ${runtimeError.message}`);
    // What cost points in accessibility and best practices, so a run says what to fix.
    for (const c of ['accessibility', 'best-practices'] as const)
      for (const ref of categories[c]?.auditRefs ?? [])
        if (ref.weight > 0 && audits[ref.id]?.score !== null && (audits[ref.id]?.score ?? 1) < 1) console.log(`  ${url}: ${c}: ${audits[ref.id].title}`);
    // The metrics behind the performance score, so a run says where the time went.
    const metric = (id: string) => audits[id]?.displayValue ?? '—';
    console.log(
      `  ${url}: performance ${Math.round((categories.performance?.score ?? 0) * 100)}: first contentful paint ${metric('first-contentful-paint')}, largest ${metric('largest-contentful-paint')}, speed index ${metric('speed-index')}, total blocking time ${metric('total-blocking-time')}, layout shift ${metric('cumulative-layout-shift')}`,
    );
    if (process.env.BENCH_WEB_REPORTS)
      writeFileSync(join(process.env.BENCH_WEB_REPORTS, `${new URL(url).hash.replace(/\W/g, '') || 'page'}-${i}.json`), JSON.stringify(result.lhr));
    runs.push(Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((categories[c]?.score ?? 0) * 100)])) as Scores);
  }
  return Object.fromEntries(
    CATEGORIES.map((c) => [
      c,
      percentile(
        runs.map((r) => r[c]).sort((a, b) => a - b),
        50,
      ),
    ]),
  ) as Scores;
}

async function lighthouseScores(url: string) {
  const profile = mkdtempSync(join(tmpdir(), 'bench-web-'));
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: FLAGS, userDataDir: profile });
  try {
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    const page = await browser.newPage();
    const scores: Record<string, Scores> = {};
    scores['sign-in page'] = await audit(page, `${url}/#/login`);
    // Signed in with "Remember me", so the session outlives the tabs Lighthouse opens.
    await page.goto(`${url}/#/login`);
    await page.waitForSelector('#login-userName');
    await page.type('#login-userName', 'admin');
    await page.type('#login-password', ADMIN_PASSWORD);
    await page.evaluate(() => (document.querySelector('input[type="checkbox"]') as HTMLInputElement | null)?.click());
    await page.click('[data-testid="sign-in-submit"]');
    await page.waitForSelector('[data-testid="dashboard-welcome"]');
    scores.dashboard = await audit(page, `${url}/#/`);
    scores['subscribers grid'] = await audit(page, `${url}/#/subscribers`);
    await browser.disconnect();
    return scores;
  } finally {
    chrome.kill();
    rmSync(profile, { recursive: true, force: true });
  }
}

const portal = await startPortal({ DEMO_SUBSCRIBERS: SUBSCRIBERS, DEMO_SALES: '1', LOG_LEVEL: 'warn' });
try {
  console.log(
    `bench:web on ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), load ${loadavg()[0].toFixed(2)}, ${SUBSCRIBERS} demo subscribers, embedded database`,
  );
  const transfer = ONLY_GRID ? undefined : await signInTransfer(portal.url);
  if (transfer)
    console.log(
      `sign-in page: ${transfer.files} JavaScript and CSS files, ${transfer.bodyKb.toFixed(1)} KB compressed (${transfer.transferKb.toFixed(1)} KB with headers); target at most 250 KB`,
    );
  const dashboard = ONLY_GRID ? undefined : await measureBrowserDashboard(portal.url, 'northwind', demoPassword(portal), LOADS);
  if (dashboard) {
    const drawn = dashboard['every widget drawn ms'];
    console.log(
      `dashboard: every widget drawn ${drawn.join(', ')} ms after navigation (median ${percentile(
        [...drawn].sort((a, b) => a - b),
        50,
      )} ms; the first load right after signing in), first contentful paint ${dashboard['first contentful paint ms'].join(', ')} ms; target 1,500 ms; load ${loadavg()[0].toFixed(2)}`,
    );
  }
  const grid = await measureBrowserList(portal.url, ADMIN_PASSWORD, 'dist/web', LOADS);
  if (grid)
    console.log(
      `subscribers grid: first rows after a page load ${grid['page loads ms']} ms (median ${grid['page load to first rows ms']} ms), after the menu link (a route change) ${grid['menu links ms']} ms (median ${grid['menu link to first rows ms']} ms); target 500 ms; load ${loadavg()[0].toFixed(2)}`,
    );
  if (!ONLY_GRID) {
    const scores = await lighthouseScores(portal.url);
    console.log(`Lighthouse (desktop, median of ${RUNS}): targets performance 95, accessibility 100, best practices 100`);
    console.table(scores);
  }
} finally {
  await portal.stop();
}
