import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, openBrowser, setDarkMode, signIn, startPortal, type Browser, type Portal } from './harness';

const SHOTS = process.env.SHOTS_DIR ?? 'test-results';
const FAST_NETWORK = { DEMO_SUBSCRIBERS: '300', CORE_NETWORK_DELAY_MS: '300-700' };

/** Calls the API with the browser's own session. */
function callApi<T>(page: Page, method: string, url: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const token = localStorage.getItem('portal.token') ?? sessionStorage.getItem('portal.token');
      const res = await fetch(url, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return text ? JSON.parse(text) : null;
    },
    { method, url, body },
  );
}

async function signOut(page: Page, portal: Portal) {
  await page.evaluate(() => {
    localStorage.removeItem('portal.token');
    sessionStorage.clear();
  });
  await page.goto(`${portal.url}/#/login`);
  await page.reload();
}

const panels = (page: Page) =>
  page
    .getByTestId('subscriber-panels')
    .locator('[data-testid^="panel-"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
const headerStatus = (page: Page) => page.getByTestId('subscriber-header').getByTestId('subscriber-status');
const outcome = (page: Page) => page.getByTestId('operation-outcome');

interface Row {
  subscriberId: number;
  iccid: string;
  name: string;
  status: string;
}

describe('subscriber detail page in the browser', () => {
  let portal: Portal;
  let browser: Browser;
  let page: Page;
  let subscriber: Row;
  const errors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal({ ...FAST_NETWORK, CORE_NETWORK_FAILURE_RATE: '0' });
    browser = await openBrowser();
    page = browser.page;
    page.on('pageerror', (e) => errors.push(String(e)));
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  it('finds a subscriber by ICCID through the search popup and opens it', async () => {
    await signIn(page, portal, 'admin', ADMIN_PASSWORD);
    const found = await callApi<{ items: Row[] }>(page, 'POST', '/portal/subscribers/paged', {
      sortBy: 'subscriberId',
      sortDir: 'asc',
      searchBy: 'resellerName',
      searchKey: 'Northwind Mobile',
      page: { page: 0, size: 20 },
    });
    subscriber = found.items.find((r) => r.status === 'active')!;
    expect(subscriber).toBeTruthy();

    await page.goto(`${portal.url}/#/subscribers`);
    const grid = page.getByTestId('grid-subscriber');
    await grid.locator('[role="gridcell"][col-id="iccid"]').first().waitFor();
    await page.screenshot({ path: `${SHOTS}/subscribers-list.png` });

    // The end of the number printed on the card is enough.
    await page.getByTestId('search-popup-open').click();
    await page.getByTestId('search-popup-page').selectOption('Subscribers');
    await page.getByTestId('search-popup-by').selectOption('iccid');
    await page.getByTestId('search-popup-text').fill(subscriber.iccid.slice(-9));
    await page.getByTestId('search-popup-text').press('Enter');
    await expect.poll(() => grid.locator('[role="gridcell"][col-id="iccid"]').allInnerTexts()).toEqual([subscriber.iccid]);
    await grid.locator('[role="gridcell"][col-id="iccid"]').first().click();

    await page.getByTestId('subscriber-header').waitFor();
    expect(page.url()).toContain(`#/subscriber/${subscriber.subscriberId}`);
    expect(await page.getByTestId('subscriber-iccid').innerText()).toBe(subscriber.iccid);
    expect(await headerStatus(page).innerText()).toBe('Active');
    await page.getByTestId('panel-audit-logs').waitFor();
    expect(await panels(page)).toHaveLength(22);
  });

  it('turns to the next page from the last row on screen, showing what the page by number holds', async () => {
    // Signed in as the administrator by the first test.
    const sent: { page: { page: number; after?: number } }[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/portal/subscribers/paged') && r.method() === 'POST') sent.push(r.postDataJSON());
    });
    await page.goto(`${portal.url}/#/subscribers?page=1&sortBy=name&sortDir=desc`);
    const grid = page.getByTestId('grid-subscriber');
    const shownIds = () =>
      grid.locator('[role="row"][row-index]').evaluateAll((rows) =>
        rows
          .map((r) => [Number(r.getAttribute('row-index')), r.querySelector('[col-id="subscriberId"]')?.textContent ?? ''] as const)
          .filter(([, id]) => id)
          .sort((a, b) => a[0] - b[0])
          .map(([, id]) => Number(id.replace(/\D/g, ''))),
      );
    await expect.poll(async () => (await shownIds()).length).toBe(50);
    for (const next of [2, 3]) {
      await page.getByRole('button', { name: 'Next page' }).click();
      await expect.poll(() => page.getByTestId('list-page').innerText()).toMatch(new RegExp(`^Page ${next} of`));
    }
    expect(sent.at(-1)?.page).toMatchObject({ page: 2, after: expect.any(Number) });
    const byNumber = await callApi<{ items: Row[] }>(page, 'POST', '/portal/subscribers/paged', {
      sortBy: 'name',
      sortDir: 'desc',
      page: { page: 2, size: 50 },
    });
    await expect.poll(shownIds).toEqual(byNumber.items.map((r) => r.subscriberId));
    expect(page.url()).toContain('page=3');
    await page.screenshot({ path: `${SHOTS}/subscribers-page-3.png` });
    // Back to the subscriber the next tests work on.
    await page.goto(`${portal.url}/#/subscriber/${subscriber.subscriberId}`);
    await page.getByTestId('subscriber-header').waitFor();
  });

  it('suspends and reactivates, showing the pending operation and then the new status', async () => {
    await page.getByTestId('action-suspend').click();
    await page.getByTestId('suspend-confirm').waitFor();
    await page.locator('.portal-suspend-alert .bp6-alert-footer .bp6-intent-warning').click();
    await expect.poll(() => outcome(page).getAttribute('data-status')).toBe('pending');
    expect(await outcome(page).innerText()).toContain('waiting for the core network');
    await expect.poll(() => outcome(page).getAttribute('data-status'), { timeout: 15000 }).toBe('success');
    await expect.poll(() => headerStatus(page).innerText()).toBe('Suspended');
    expect(await headerStatus(page).getAttribute('class')).toContain('bp6-intent-warning');

    await page.getByTestId('action-reactivate').click();
    await expect.poll(() => outcome(page).innerText(), { timeout: 15000 }).toBe('Reactivate done.');
    await expect.poll(() => headerStatus(page).innerText()).toBe('Active');
    expect(await headerStatus(page).getAttribute('class')).toContain('bp6-intent-success');
  });

  it('sets a daily limit after checking it', async () => {
    await page.getByTestId('action-daily-limit').click();
    const dialog = page.getByTestId('daily-limit-dialog');
    await dialog.getByTestId('daily-limit-amount').fill('0');
    await expect.poll(() => dialog.innerText()).toContain('Daily limit must be greater than 0');
    await dialog.getByTestId('daily-limit-amount').fill('250');
    await dialog.getByTestId('daily-limit-unit').selectOption('MB');
    await dialog.getByText('Throttle to a lower speed').click();
    await dialog.getByTestId('daily-limit-speed').selectOption({ label: '256 kbit/s' });
    await page.screenshot({ path: `${SHOTS}/subscriber-daily-limit.png` });
    await dialog.getByTestId('daily-limit-dialog-submit').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('daily-limit-facts').innerText()).toContain('250 MB');
    expect(await page.getByTestId('qos-facts').innerText()).toContain('Throttle to 256 kbit/s');
  });

  it('lists the changes in the audit log with who made them, before and after', async () => {
    const audit = page.getByTestId('audit-table');
    await expect.poll(async () => (await audit.locator('tbody tr').allInnerTexts()).length).toBe(3);
    const rows = await audit.locator('tbody tr').allInnerTexts();
    expect(rows[0]).toContain('Daily limit');
    expect(rows[0]).toContain('250 MB');
    expect(rows[1]).toMatch(/Reactivate[\s\S]*Suspended[\s\S]*Active/);
    expect(rows[2]).toMatch(/Suspend[\s\S]*Active[\s\S]*Suspended/);
    expect(rows.every((r) => r.includes('admin'))).toBe(true);
  });

  it('looks right in light and dark mode, and right to left in Hebrew', async () => {
    await page.getByTestId('subscriber-header').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/subscriber-detail-light.png`, fullPage: true });
    await setDarkMode(page, true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/subscriber-detail-dark.png`, fullPage: true });
    await page.goto(`${portal.url}/#/subscribers`);
    await page.getByTestId('grid-subscriber').locator('[role="gridcell"]').first().waitFor();
    await page.screenshot({ path: `${SHOTS}/subscribers-list-dark.png` });
    await setDarkMode(page, false);

    await callApi(page, 'POST', '/portal/user/preferences', {
      preferences: JSON.stringify([
        { type: 'lang', value: 'he' },
        { type: 'darkMode', value: 'false' },
      ]),
    });
    await page.goto(`${portal.url}/#/subscriber/${subscriber.subscriberId}`);
    await page.reload();
    await page.getByTestId('subscriber-header').waitFor();
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await page.getByTestId('panel-audit-logs').waitFor();
    await page.screenshot({ path: `${SHOTS}/subscriber-detail-he.png`, fullPage: true });
    await callApi(page, 'POST', '/portal/user/preferences', {
      preferences: JSON.stringify([
        { type: 'lang', value: 'en' },
        { type: 'darkMode', value: 'false' },
      ]),
    });
  });

  it('shows a user whose role lacks some SubscriberDetails sub-privileges only the granted panels', async () => {
    await callApi(page, 'POST', '/portal/user/preferences', { preferences: JSON.stringify([{ type: 'lang', value: 'en' }]) });
    await page.evaluate(async () => {
      const token = localStorage.getItem('portal.token') ?? sessionStorage.getItem('portal.token');
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const call = async (method: string, url: string, body?: unknown) =>
        (await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })).json();
      const resellers: { id: number; name: string }[] = await call('GET', '/portal/reseller-info/list');
      const resellerId = resellers.find((r) => r.name === 'Northwind Mobile')!.id;
      const role = await call('POST', '/portal/roles', {
        name: 'Subscriber desk',
        resellerId,
        privileges: [
          { privilege: 'Dashboard', subPrivileges: [] },
          { privilege: 'Subscribers', subPrivileges: [] },
          { privilege: 'SubscriberDetails', subPrivileges: ['Status', 'Msisdn', 'AuditLogs'] },
        ],
      });
      await call('POST', '/portal/user', { username: 'sub.desk', email: 'sub.desk@example.com', password: 'Desk@2026sub', resellerId, roleId: role.id });
    });
    await signOut(page, portal);
    await signIn(page, portal, 'sub.desk', 'Desk@2026sub');
    await page.goto(`${portal.url}/#/subscriber/${subscriber.subscriberId}`);
    await page.getByTestId('panel-audit-logs').waitFor();
    expect((await panels(page)).sort()).toEqual(['panel-audit-logs', 'panel-daily-limit', 'panel-details', 'panel-msisdn', 'panel-qos', 'panel-status']);
    expect(await page.getByTestId('action-refresh-sim').count()).toBe(0);
    expect(await page.getByTestId('action-pricing-plan').count()).toBe(0);
    expect(await page.getByTestId('action-suspend').count()).toBe(1);
    // The server agrees: a panel the role lacks is refused, not only hidden.
    const refused = await page.evaluate(async (id) => {
      const token = localStorage.getItem('portal.token') ?? sessionStorage.getItem('portal.token');
      return (await fetch(`/portal/subscriber-info/usage-logs/${id}`, { headers: { authorization: `Bearer ${token}` } })).status;
    }, subscriber.subscriberId);
    expect(refused).toBe(403);
    await page.screenshot({ path: `${SHOTS}/subscriber-detail-limited.png`, fullPage: true });
    expect(errors).toEqual([]);
  });
});

describe('subscriber operations on a failing core network', () => {
  let portal: Portal;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    portal = await startPortal({ ...FAST_NETWORK, DEMO_SUBSCRIBERS: '50', CORE_NETWORK_FAILURE_RATE: '1' });
    browser = await openBrowser();
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  it('shows a failed SIM refresh as an error and leaves the subscriber unchanged', async () => {
    await signIn(page, portal, 'admin', ADMIN_PASSWORD);
    const found = await callApi<{ items: Row[] }>(page, 'POST', '/portal/subscribers/paged', {
      sortBy: 'subscriberId',
      sortDir: 'asc',
      page: { page: 0, size: 10 },
    });
    const row = found.items.find((r) => r.status === 'active')!;
    await page.goto(`${portal.url}/#/subscriber/${row.subscriberId}`);
    await page.getByTestId('subscriber-header').waitFor();
    await page.getByTestId('panel-audit-logs').locator('.portal-empty, table').first().waitFor();
    const auditBefore = await page.getByTestId('panel-audit-logs').innerText();

    await page.getByTestId('action-refresh-sim').click();
    await expect.poll(() => outcome(page).getAttribute('data-status'), { timeout: 15000 }).toBe('failed');
    const text = await outcome(page).innerText();
    expect(text).toMatch(/^SIM refresh failed: (OTA delivery failed|Subscriber not online)$/);
    expect(await outcome(page).getAttribute('role')).toBe('alert');
    expect(await headerStatus(page).innerText()).toBe('Active');
    await page.screenshot({ path: `${SHOTS}/subscriber-refresh-failed.png` });

    // A failed suspension leaves the status as it was, too.
    await page.getByTestId('action-suspend').click();
    await page.locator('.portal-suspend-alert .bp6-alert-footer .bp6-intent-warning').click();
    await expect.poll(() => outcome(page).innerText(), { timeout: 15000 }).toMatch(/^Suspend failed: /);
    expect(await headerStatus(page).innerText()).toBe('Active');
    expect(await page.getByTestId('panel-audit-logs').innerText()).toBe(auditBefore);
  });
});
