import { mkdirSync, readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatRate } from '@shared/pricing';
import type { CountryPrice, MarginPreview, NetworkPrice, ResellerPricingSummary, ZonePrice } from '@shared/resellerPricing';
import type { Page as ListPage } from '@shared/wire';
import { callApi, demoPassword, openBrowser, setDarkMode, signIn, startPortal, type Browser, type Portal } from './harness';

const SHOTS = process.env.SHOTS_DIR ?? 'test-results';
const BASE = '/portal/reseller-pricing';

/** A rate as the screen writes it in English: the server's exact value in the row's currency. */
const money = (value: number | null, currency: string | null) => (value === null ? '—' : formatRate('en', value, currency ?? undefined));

describe('my pricing in the browser', () => {
  let portal: Portal;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal();
    browser = await openBrowser();
    page = browser.page;
    page.on('pageerror', (e) => errors.push(String(e)));
    // Northwind Mobile is a parent reseller: Northwind IoT is its sub-reseller.
    await signIn(page, portal, 'northwind', demoPassword(portal));
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  const networks = () => page.getByTestId('grid-networkPrice');
  const cell = (grid: ReturnType<Page['getByTestId']>, rowId: string, colId: string) =>
    grid.locator(`[role="row"][row-id="${rowId}"] [role="gridcell"][col-id="${colId}"]`);
  /** Scrolls a grid of fixed height until the row at `index` is drawn (the grid draws only the rows in view). */
  const reveal = (grid: ReturnType<Page['getByTestId']>, index: number) =>
    grid.evaluate((root, i) => {
      const row = root.querySelector('.ag-center-cols-container [role="row"]') as HTMLElement | null;
      const scroller = [...root.querySelectorAll<HTMLElement>('*')].find(
        (el) => el.scrollHeight > el.clientHeight + 1 && ['auto', 'scroll'].includes(getComputedStyle(el).overflowY),
      );
      if (scroller) scroller.scrollTop = i * (row?.offsetHeight ?? 42);
    }, index);
  /** The PLMNs in the order the grid shows its rows (row index), which after a sort is not the order in the page. */
  const shownPlmns = () =>
    networks()
      .locator('[role="row"][row-index]')
      .evaluateAll((rows) =>
        rows
          .map((row) => [Number(row.getAttribute('row-index')), row.querySelector('[col-id="plmn"]')?.textContent?.trim() ?? ''] as const)
          .filter(([, plmn]) => plmn)
          .sort((a, b) => a[0] - b[0])
          .map(([, plmn]) => plmn),
      );

  it("shows the plan and the server's first page of prices per network, rate for rate", async () => {
    await page.goto(`${portal.url}/#/my-pricing`);
    await networks().waitFor();
    const summary = await callApi<ResellerPricingSummary>(page, 'GET', BASE);
    expect(await page.getByTestId('plan-summary').innerText()).toContain(summary.plan!.name);
    const first = await callApi<ListPage<NetworkPrice>>(page, 'POST', `${BASE}/paged`, { sortBy: 'country', sortDir: 'asc', page: { page: 0, size: 50 } });
    expect(first.totalItemsCount).toBeGreaterThan(50);
    await expect.poll(() => shownPlmns()).toEqual(first.items.slice(0, (await shownPlmns()).length).map((p) => p.plmn));
    for (const price of first.items.slice(0, 8)) {
      for (const f of ['dataRate', 'moCallRate', 'moSmsRate'] as const) {
        expect(await cell(networks(), price.plmn, f).innerText()).toBe(money(price[f], price.currency));
      }
    }
    expect(await page.getByText(`${first.totalItemsCount.toLocaleString('en')} items`).count()).toBe(1);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/my-pricing-light.png`, fullPage: true });
  });

  it('searches and sorts on the server, and downloads what the search matches', async () => {
    await page.getByTestId('list-search-by').selectOption('network');
    await page.getByTestId('list-search').fill('swiss');
    await page.getByTestId('list-search').press('Enter');
    const swiss = await callApi<ListPage<NetworkPrice>>(page, 'POST', `${BASE}/paged`, {
      sortBy: 'country',
      sortDir: 'asc',
      searchBy: 'network',
      searchKey: 'swiss',
      page: { page: 0, size: 50 },
    });
    expect(swiss.items.map((p) => p.network)).toContain('Swisscom');
    await expect.poll(() => shownPlmns()).toEqual(swiss.items.map((p) => p.plmn));
    expect(new URL(page.url()).hash).toContain('searchKey=swiss');
    expect(await cell(networks(), '22801', 'dataRate').innerText()).toBe('€0.018');

    // The download is the search's rows, one line each, with the exact rates.
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('list-download').click()]);
    const lines = readFileSync((await file.path())!, 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines).toHaveLength(swiss.items.length + 1);
    expect(lines.find((l) => l.includes('22801'))).toContain('0.018');

    // Data per MB, dearest first: the order the server gives for the same request.
    await page.getByTestId('list-search').fill('');
    await page.getByTestId('list-search').press('Enter');
    await expect.poll(async () => (await shownPlmns()).length).toBeGreaterThan(1);
    const header = networks().locator('.ag-header-cell[col-id="dataRate"]');
    const sortOf = () => new URLSearchParams(new URL(page.url()).hash.split('?')[1] ?? '');
    await header.click();
    await expect.poll(() => sortOf().get('sortBy')).toBe('dataRate');
    // Let the ascending rows arrive before turning the order: a click that lands while the grid redraws is lost.
    const cheapest = await callApi<ListPage<NetworkPrice>>(page, 'POST', `${BASE}/paged`, { sortBy: 'dataRate', sortDir: 'asc', page: { page: 0, size: 50 } });
    await expect.poll(async () => (await shownPlmns())[0]).toBe(cheapest.items[0].plmn);
    await header.click();
    // Click again only while the order has not turned (a lost click); the header cycles ascending, descending, none.
    let polls = 0;
    await expect
      .poll(
        async () => {
          const sort = sortOf();
          if (polls++ > 0 && (sort.get('sortBy') !== 'dataRate' || sort.get('sortDir') !== 'desc')) await header.click();
          return sortOf().get('sortDir');
        },
        { interval: 2500, timeout: 20_000 },
      )
      .toBe('desc');
    const dearest = await callApi<ListPage<NetworkPrice>>(page, 'POST', `${BASE}/paged`, { sortBy: 'dataRate', sortDir: 'desc', page: { page: 0, size: 50 } });
    await expect.poll(async () => (await shownPlmns())[0]).toBe(dearest.items[0].plmn);
    expect(await cell(networks(), dearest.items[0].plmn, 'dataRate').innerText()).toBe(money(dearest.items[0].dataRate, dearest.items[0].currency));
  });

  it('shows the prices per country and per zone in their tabs, as the server computes them', async () => {
    await page.getByRole('tab', { name: 'Per country' }).click();
    expect(new URL(page.url()).hash).toContain('view=countries');
    const countries = page.getByTestId('grid-countryPrice');
    await countries.waitFor();
    const items = (await callApi<{ items: CountryPrice[] }>(page, 'GET', `${BASE}/countries`)).items;
    for (const code of ['CH', 'DE']) {
      const price = items.find((c) => c.country === code)!;
      const row = `${code}-${price.currency}`;
      await reveal(countries, items.indexOf(price));
      expect(await cell(countries, row, 'dataRate').innerText()).toBe(money(price.dataRate, price.currency));
      expect(await cell(countries, row, 'networkCount').innerText()).toBe(String(price.networkCount));
    }
    // Switzerland's only network is Swisscom, the dearest of the wholesale rules.
    expect(items.find((c) => c.country === 'CH')!.dataRate).toBe(0.018);
    await page.screenshot({ path: `${SHOTS}/my-pricing-countries.png`, fullPage: true });

    for (const [tab, kind] of [
      ['Location zones', 'location-zones'],
      ['Destination zones', 'destination-zones'],
    ] as const) {
      await page.getByRole('tab', { name: tab }).click();
      const zones = (await callApi<{ items: ZonePrice[] }>(page, 'GET', `${BASE}/${kind}`)).items;
      expect(zones.length).toBeGreaterThan(0);
      const rows = page.getByTestId(`zones-${kind}`).getByTestId('zone-row');
      await expect.poll(() => rows.count()).toBe(zones.length);
      const firstRow = await rows.first().locator('td').allInnerTexts();
      expect(firstRow[0]).toBe(zones[0].zoneName);
      expect(firstRow[2]).toBe(money(zones[0].dataRate, zones[0].currency));
    }
    // The tab is kept in the address: a reload opens it again.
    await page.reload();
    await page.getByTestId('zones-destination-zones').waitFor();
  });

  it('previews the margins of a plan for the sub-reseller, network by network, as the server computes them', async () => {
    const summary = await callApi<ResellerPricingSummary>(page, 'GET', BASE);
    const iot = summary.subResellers.find((r) => r.name === 'Northwind IoT')!;
    const plan = summary.assignablePlans.find((p) => p.name === 'Europe IoT Standard')!;
    const panel = page.getByTestId('margin-preview');
    await panel.getByTestId('margin-reseller').selectOption(String(iot.id));
    await panel.getByTestId('margin-plan').selectOption(String(plan.id));
    await panel.getByTestId('margin-run').click();
    const expected = await callApi<MarginPreview>(page, 'POST', `${BASE}/margin-preview`, { resellerId: iot.id, pricingPlanId: plan.id });
    expect(expected.rows.length).toBeGreaterThan(0);
    const summaryText = await panel.getByTestId('margin-summary').innerText();
    expect(summaryText).toBe(
      expected.negativeCount
        ? `${expected.negativeCount} ${expected.negativeCount === 1 ? 'network sells' : 'networks sell'} data below what you pay.`
        : 'No network sells data below what you pay.',
    );
    // Swisscom: Northwind pays 0.018 wholesale and would sell at the plan's 0.015, a loss, marked.
    const swiss = expected.rows.find((r) => r.plmn === '22801')!;
    expect(swiss.dataRateMargin).toBeLessThan(0);
    const grid = panel.getByTestId('grid-margin');
    for (const row of [...expected.rows.slice(0, 5), swiss]) {
      await reveal(grid, expected.rows.indexOf(row));
      expect(await cell(grid, row.plmn, 'callerDataRate').innerText()).toBe(money(row.callerDataRate, row.callerCurrency));
      expect(await cell(grid, row.plmn, 'proposedDataRate').innerText()).toBe(money(row.proposedDataRate, row.proposedCurrency));
      expect(await cell(grid, row.plmn, 'dataRateMargin').innerText()).toBe(money(row.dataRateMargin, row.callerCurrency));
      const percent =
        row.dataRateMarginPercent === null
          ? '—'
          : new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 2 }).format(row.dataRateMarginPercent / 100);
      expect(await cell(grid, row.plmn, 'dataRateMarginPercent').innerText()).toBe(percent);
    }
    expect(await cell(grid, '22801', 'dataRateMargin').getAttribute('class')).toContain('portal-margin-negative');
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/my-pricing-margins-light.png` });
  });

  it('reads well in dark mode and right to left', async () => {
    await page.goto(`${portal.url}/#/my-pricing`);
    await networks().waitFor();
    await setDarkMode(page, true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/my-pricing-dark.png`, fullPage: true });
    const background = await networks()
      .locator('.ag-root-wrapper')
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    const [r, g, b] = background.match(/\d+/g)!.map(Number);
    expect(r + g + b).toBeLessThan(200);

    await page.getByTestId('language-select').selectOption('he');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await expect.poll(() => networks().locator('.ag-rtl').count()).toBeGreaterThan(0);
    await page.screenshot({ path: `${SHOTS}/my-pricing-hebrew-dark.png`, fullPage: true });
    await setDarkMode(page, false);
    await page.getByRole('tab', { name: 'לפי מדינה' }).click();
    await page.getByTestId('grid-countryPrice').waitFor();
    await page.screenshot({ path: `${SHOTS}/my-pricing-countries-hebrew.png`, fullPage: true });
    await page.getByTestId('language-select').selectOption('en');
    expect(errors).toEqual([]);
  });
});
