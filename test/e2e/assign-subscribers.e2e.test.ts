import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, callApi, demoPassword, openBrowser, setDarkMode, signIn, startPortal, type Browser, type Portal } from './harness';

const SHOTS = process.env.SHOTS_DIR ?? 'test-results';

interface Row {
  subscriberId: number;
  accountId: number;
  accountName: string;
  roamingProfileId: number | null;
  migrationStatus: string | null;
}

describe('assign subscribers and impact previews in the browser', () => {
  let portal: Portal;
  let browser: Browser;
  let page: Page;
  /** Northwind's subscribers, in id order. */
  let nw: Row[];
  const errors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // 2,000 demo subscribers: Northwind holds more than 1,000 of them, enough to pass the range limit.
    portal = await startPortal({ DEMO_SUBSCRIBERS: '2000', CORE_NETWORK_FAILURE_RATE: '0' });
    browser = await openBrowser();
    page = browser.page;
    page.on('pageerror', (e) => errors.push(String(e)));
    await signIn(page, portal, 'northwind', demoPassword(portal));
    const all: Row[] = [];
    for (let p = 0; ; p++) {
      const found = await callApi<{ items: Row[]; totalPageCount: number }>(page, 'POST', '/portal/subscribers/paged', {
        sortBy: 'subscriberId',
        sortDir: 'asc',
        page: { page: p, size: 500 },
      });
      all.push(...found.items);
      if (p + 1 >= found.totalPageCount) break;
    }
    nw = all;
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  const subscriber = async (id: number) => callApi<Row>(page, 'GET', `/portal/subscribers/${id}`);
  /** Light, dark and Hebrew screenshots of the page as it is. */
  const shoot = async (name: string) => {
    await page.screenshot({ path: `${SHOTS}/${name}-light.png`, fullPage: true });
    await setDarkMode(page, true);
    await page.screenshot({ path: `${SHOTS}/${name}-dark.png`, fullPage: true });
    await setDarkMode(page, false);
    await page.getByTestId('language-select').selectOption('he');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await page.screenshot({ path: `${SHOTS}/${name}-he.png`, fullPage: true });
    await page.getByTestId('language-select').selectOption('en');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('ltr');
  };
  const fill = async (prefix: string, start: number | string, end: number | string) => {
    await page.getByTestId(`${prefix}-rangeStart`).fill(String(start));
    await page.getByTestId(`${prefix}-rangeEnd`).fill(String(end));
  };

  it('moves a range to another account from the side menu, and the subscriber list shows them there', async () => {
    expect(nw.length).toBeGreaterThan(1001);
    await page.getByTestId('menu-AssignSubscribers').click();
    const form = page.getByTestId('assign-move');
    await form.waitFor();
    // The end must lie after the start, named on the field, before anything is sent.
    await fill('move', 12, 2);
    await page.getByTestId('move-submit').click();
    await form.getByText('Range end must be larger than range start').waitFor();

    const range = nw.filter((s) => s.subscriberId >= 2 && s.subscriberId <= 12);
    const alpine = (await callApi<{ accountId: number; name: string }[]>(page, 'GET', '/portal/accounts/list')).find((a) => a.name === 'Alpine Sensors')!;
    expect(range.filter((s) => s.accountId !== alpine.accountId).length).toBeGreaterThan(2);
    await fill('move', 2, 12);
    expect(await page.getByTestId('move-quantity').innerText()).toBe('11 SIMs in the range');
    await page.getByTestId('move-account').selectOption(String(alpine.accountId));
    await page.getByTestId('move-submit').click();
    const done = page.getByTestId('move-done');
    await done.waitFor();
    const moved = range.filter((s) => s.accountId !== alpine.accountId).length;
    expect(await done.innerText()).toContain(`${moved} subscribers moved (${range.length} in the range, ${range.length - moved} already there).`);
    await shoot('assign-move');

    await page.getByTestId('move-show').click();
    const ids = page.getByTestId('grid-subscriber').locator('[role="gridcell"][col-id="subscriberId"]');
    await expect.poll(async () => (await ids.allInnerTexts()).slice(0, range.length)).toEqual(range.map((s) => String(s.subscriberId)));
    await expect.poll(() => page.getByTestId('grid-subscriber').locator('[role="gridcell"][col-id="accountName"]').first().innerText()).toBe('Alpine Sensors');
  });

  it('gives a range a roaming profile, refusing 1001 subscribers and multi-IMSI ones as the server words it', async () => {
    await page.goto(`${portal.url}/#/assign-subscribers?tab=roaming`);
    await page.getByTestId('assign-roaming').waitFor();
    const profile = (await callApi<{ id: number; name: string }[]>(page, 'GET', '/portal/roaming-profiles')).find((p) => p.name === 'Europe IoT')!;
    await expect.poll(() => page.getByTestId('roaming-target').locator('option').allInnerTexts()).toContain('Europe IoT (single IMSI)');
    await page.getByTestId('roaming-target').selectOption(String(profile.id));

    // 1,001 of Northwind's subscribers: one too many.
    await fill('roaming', nw[0].subscriberId, nw[1000].subscriberId);
    await page.getByTestId('roaming-submit').click();
    const refusal = page.getByTestId('roaming-refusal');
    await expect.poll(() => refusal.innerText()).toContain('A range change covers at most 1000 subscribers');

    // Multi-IMSI subscribers cannot take a single-IMSI profile: the refusal names them, nothing changes.
    const before = (await Promise.all(nw.slice(0, 6).map((s) => subscriber(s.subscriberId)))).map((s) => s.roamingProfileId);
    await fill('roaming', nw[0].subscriberId, nw[5].subscriberId);
    await page.getByTestId('roaming-submit').click();
    await expect.poll(() => refusal.innerText()).toContain('A multi-IMSI subscriber cannot be changed to a single-IMSI profile');
    const named = await refusal.getByTestId('refusal-subscribers').getByRole('link').allInnerTexts();
    expect(named.length).toBeGreaterThan(0);
    expect(named.every((id) => nw.slice(0, 6).some((s) => String(s.subscriberId) === id))).toBe(true);
    await shoot('assign-roaming-refused');
    expect((await Promise.all(nw.slice(0, 6).map((s) => subscriber(s.subscriberId)))).map((s) => s.roamingProfileId)).toEqual(before);

    // Subscribers 2 and 3 hold one IMSI each (the demo gives every third a sponsor IMSI).
    await fill('roaming', 2, 3);
    await page.getByTestId('roaming-submit').click();
    await expect.poll(() => page.getByTestId('roaming-done').innerText()).toMatch(/subscribers? changed \(2 in the range/);
    expect((await subscriber(2)).roamingProfileId).toBe(profile.id);
  });

  it('migrates a range and follows each subscriber until every status settles', async () => {
    await page.goto(`${portal.url}/#/assign-subscribers?tab=migrate`);
    await page.getByTestId('assign-migrate').waitFor();
    const range = nw.filter((s) => s.subscriberId >= 20 && s.subscriberId <= 30);
    await fill('migrate', 20, 30);
    await page.getByTestId('migrate-submit').click();
    expect(await page.getByTestId('migrate-started').innerText()).toBe(`Migration started for ${range.length} subscribers.`);
    const rows = page.getByTestId('migration-statuses').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(range.length);
    await expect.poll(() => page.getByTestId('migration-progress').getAttribute('data-running'), { timeout: 20000 }).toBe('false');
    await expect.poll(() => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-status'))), { timeout: 10000 }).toEqual(range.map(() => 'success'));
    expect(await page.getByTestId('migration-counts').innerText()).toBe(`Migration finished: ${range.length} of ${range.length} answered`);
    expect((await subscriber(range[0].subscriberId)).migrationStatus).toBe('success');
    await shoot('assign-migrate');
  });

  it('shows who blocking a network cuts off before it is saved', async () => {
    await page.evaluate(() => {
      localStorage.removeItem('portal.token');
      sessionStorage.clear();
    });
    await page.goto(`${portal.url}/#/login`);
    await page.reload();
    await signIn(page, portal, 'admin', ADMIN_PASSWORD);
    const expected = await callApi<{ total: number; subscribers: { items: { subscriberId: number }[] } }>(page, 'POST', '/portal/allowed-lists/1/impact', {
      plmns: ['23430'],
    });
    expect(expected.total).toBeGreaterThan(0);

    await page.goto(`${portal.url}/#/allowed-list/1`);
    await page.getByTestId('country-toggle-GB').click();
    const network = page.getByTestId('network-23430');
    await expect.poll(() => network.getAttribute('data-state')).toBe('preferred');
    await network.getByTestId('network-block').click();
    const dialog = page.getByTestId('impact-dialog');
    /** Waits until the dialog has faded in, so a screenshot shows it whole. */
    const settled = () =>
      expect
        .poll(() =>
          page.locator('.portal-impact-dialog').evaluate((d) => {
            const style = getComputedStyle(d);
            return style.opacity === '1' && ['none', 'matrix(1, 0, 0, 1, 0, 0)'].includes(style.transform);
          }),
        )
        .toBe(true);
    await dialog.waitFor();
    await settled();
    expect(await dialog.getByTestId('impact-total').innerText()).toBe(`${expected.total} subscribers affected`);
    expect(await dialog.getByTestId('impact-countries').innerText()).toBe(`United Kingdom (GB): ${expected.total}`);
    const links = dialog.getByTestId('impact-subscribers').getByRole('link');
    await expect.poll(() => links.count()).toBe(Math.min(expected.total, 100));
    expect(await links.first().getAttribute('href')).toBe(`#/subscriber/${expected.subscribers.items[0].subscriberId}`);
    await page.screenshot({ path: `${SHOTS}/impact-dialog-light.png` });

    // Cancel keeps the network as it is.
    await page.getByTestId('impact-cancel').click();
    await dialog.waitFor({ state: 'detached' });
    expect(await network.getAttribute('data-state')).toBe('preferred');
    const networks = await callApi<{ plmn: string; state: string }[]>(page, 'GET', '/portal/allowed-lists/1/networks/GB');
    expect(networks.find((n) => n.plmn === '23430')!.state).toBe('preferred');

    /** Opens the dialog in a theme or language set while it is closed (its backdrop covers the top bar). */
    const shootDialog = async (name: string) => {
      await network.getByTestId('network-block').click();
      await dialog.getByTestId('impact-subscribers').waitFor();
      await settled();
      await page.screenshot({ path: `${SHOTS}/${name}.png` });
      await page.getByTestId('impact-cancel').click();
      await dialog.waitFor({ state: 'detached' });
    };
    await setDarkMode(page, true);
    await shootDialog('impact-dialog-dark');
    await setDarkMode(page, false);
    await page.getByTestId('language-select').selectOption('he');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await shootDialog('impact-dialog-he');
    await page.getByTestId('language-select').selectOption('en');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('ltr');

    // Confirming blocks it.
    await network.getByTestId('network-block').click();
    await page.getByTestId('impact-confirm').click();
    await expect.poll(() => network.getAttribute('data-state')).toBe('pending');
    expect(errors).toEqual([]);
  });
});
