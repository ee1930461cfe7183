import { mkdirSync } from 'node:fs';
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPassword, openBrowser, setDarkMode, signIn, startPortal, type Browser, type Portal } from './harness';

const SHOTS = process.env.SHOTS_DIR ?? 'test-results';

/**
 * Bytes the sign-in page may take over the wire on a first visit (headers and bodies, all requests). It took
 * about 300 KB once the build was served brotli-compressed (1.49 MB before); the budget leaves room to grow.
 */
const SIGN_IN_BUDGET_BYTES = 400_000;

/** Every request of the page with what crossed the wire for it, as Chromium reports it. */
function watchNetwork(cdp: CDPSession) {
  const requests = new Map<string, { url: string; bytes: number; fromCache: boolean; status?: number }>();
  cdp.on('Network.requestWillBeSent', (e) => requests.set(e.requestId, { url: e.request.url, bytes: 0, fromCache: false }));
  cdp.on('Network.responseReceived', (e) => {
    const r = requests.get(e.requestId);
    if (r) Object.assign(r, { status: e.response.status, fromCache: r.fromCache || e.response.fromDiskCache === true });
  });
  cdp.on('Network.requestServedFromCache', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.fromCache = true;
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.bytes = e.encodedDataLength;
  });
  return requests;
}

/** Waits until the page has made no request for half a second. */
const settle = (page: Page) => page.waitForLoadState('networkidle');

describe('the web app over the wire', () => {
  let portal: Portal;
  let browser: Browser;
  let page: Page;
  let cdp: CDPSession;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal({ DEMO_SUBSCRIBERS: '300' });
    browser = await openBrowser();
    page = browser.page;
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    page.on('dialog', (d) => {
      consoleErrors.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    cdp = await browser.context.newCDPSession(page);
    await cdp.send('Network.enable');
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  it('loads the sign-in page within its byte budget, compressed, without an error', async () => {
    const requests = watchNetwork(cdp);
    const responses: { url: string; headers: Record<string, string> }[] = [];
    page.on('response', (r) => responses.push({ url: r.url(), headers: r.headers() }));
    await page.goto(`${portal.url}/#/login`);
    await page.locator('#login-userName').waitFor();
    await settle(page);
    const all = [...requests.values()];
    const total = all.reduce((sum, r) => sum + r.bytes, 0);
    console.log(`sign-in page: ${total} bytes in ${all.length} requests`);
    expect(total).toBeLessThan(SIGN_IN_BUDGET_BYTES);
    // What the sign-in page has no use for stays out: the grid, the charts, the forms, the icon fonts.
    expect(all.map((r) => r.url).filter((u) => /ag-grid|useGridLook|echarts|CountryMap|EntityForm|validator|\.(ttf|woff2?|eot)\b/i.test(u))).toEqual([]);

    const script = responses.find((r) => /\/assets\/index-[\w-]{8}\.js$/.test(r.url));
    expect(script, 'the entry script').toBeTruthy();
    expect(script!.headers['content-encoding']).toBe('br');
    expect(script!.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const document = responses.find((r) => r.url === `${portal.url}/`);
    expect(document!.headers['cache-control']).toBe('no-cache');
    expect(document!.headers['content-encoding']).toBe('br');
    expect(consoleErrors).toEqual([]);
  });

  it("loads the page again from the browser's cache, asking the server only for index.html", async () => {
    const requests = watchNetwork(cdp);
    await page.goto('about:blank');
    await page.goto(`${portal.url}/#/login`);
    await page.locator('#login-userName').waitFor();
    await settle(page);
    const assets = [...requests.values()].filter((r) => r.url.includes('/assets/'));
    expect(assets.length).toBeGreaterThan(0);
    expect(assets.filter((r) => !r.fromCache)).toEqual([]);
  });

  it('signs in to the dashboard without a console error while the reseller has no logo', async () => {
    const logoAnswers: number[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/portal/user/logo')) logoAnswers.push(r.status());
    });
    await signIn(page, portal, 'northwind', demoPassword(portal));
    await page.getByTestId('default-logo').waitFor();
    await settle(page);
    expect(logoAnswers.length).toBeGreaterThan(0);
    expect(new Set(logoAnswers)).toEqual(new Set([204]));
    expect(consoleErrors).toEqual([]);
  });

  it('shows an SVG logo with a gradient, stripped of an entity-encoded javascript: link', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="28" viewBox="0 0 120 28">
      <defs><linearGradient id="g" x2="1"><stop offset="0" stop-color="#c99a2e"/><stop offset="1" stop-color="#8a6412"/></linearGradient></defs>
      <a href="&#106;avascript:alert(document.domain)"><rect width="120" height="28" rx="6" fill="url(#g)"/></a>
      <text x="12" y="19" font-family="sans-serif" font-size="14" fill="#fff">Northwind</text>
      <script>alert(1)</script></svg>`;
    const stored = await page.evaluate(async (body) => {
      const token = localStorage.getItem('portal.token') ?? sessionStorage.getItem('portal.token');
      const headers = { authorization: `Bearer ${token}` };
      const put = await fetch('/portal/user/logo', { method: 'PUT', headers: { ...headers, 'content-type': 'image/svg+xml' }, body });
      return { status: put.status, text: await (await fetch('/portal/user/logo', { headers })).text() };
    }, svg);
    expect(stored.status).toBe(204);
    expect(stored.text).not.toMatch(/javascript|<script|&#106;/i);
    expect(stored.text).toContain('fill="url(#g)"');
    await page.reload();
    const logo = page.getByTestId('reseller-logo');
    await logo.waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid="reseller-logo"]');
      return img !== null && img.complete && img.naturalWidth > 0;
    });
    await page.screenshot({ path: `${SHOTS}/assets-svg-logo-light.png`, clip: { x: 0, y: 0, width: 700, height: 60 } });
    await setDarkMode(page, true);
    await page.screenshot({ path: `${SHOTS}/assets-svg-logo-dark.png`, clip: { x: 0, y: 0, width: 700, height: 60 } });
    await setDarkMode(page, false);
    expect(consoleErrors).toEqual([]);
  });
});
