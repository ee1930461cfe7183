import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, demoPassword, editCell, openBrowser, setDarkMode, signIn, startPortal, type Browser, type Portal } from './harness';

const SHOTS = process.env.SHOTS_DIR ?? 'test-results';

describe('pricing plan rules in the browser', () => {
  let portal: Portal;
  let browser: Browser;
  let page: Page;
  let rulesUrl = '';
  let downloaded = '';
  const errors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal();
    browser = await openBrowser();
    page = browser.page;
    page.on('pageerror', (e) => errors.push(String(e)));
    await signIn(page, portal, 'northwind', demoPassword(portal));
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  const grid = () => page.getByTestId('rules-grid');
  /** The cell of a column in the row whose PLMN is given (the grid's own row, not the pinned checkbox part). */
  const cellOf = (plmn: string, colId: string) =>
    grid()
      .locator('[role="row"]', { has: page.locator(`[col-id="plmn"]`, { hasText: plmn }) })
      .locator(`[role="gridcell"][col-id="${colId}"]`);
  const rowsShown = () => grid().locator('[role="gridcell"][col-id="plmn"]').count();

  async function download(): Promise<string> {
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('rule-file-download').click()]);
    expect(file.suggestedFilename()).toMatch(/^pricing-plan-\d+-rules\.csv$/);
    return readFileSync((await file.path())!, 'utf8');
  }

  it("opens a plan's rules from its page", async () => {
    await page.goto(`${portal.url}/#/pricing-plans`);
    await page.getByTestId('grid-pricingPlan').locator('[role="gridcell"][col-id="name"]', { hasText: 'Europe IoT Standard' }).click();
    await page.locator('#root_name').waitFor();
    await page.screenshot({ path: `${SHOTS}/pricing-plan-detail.png` });
    await page.getByTestId('plan-rules-link').click();
    await expect.poll(() => new URL(page.url()).hash).toMatch(/^#\/pricing-plan-rules\/\d+$/);
    rulesUrl = page.url();
    await cellOf('26202', 'network').waitFor();
    expect(await rowsShown()).toBe(10);
    expect(await page.getByRole('heading', { level: 2 }).innerText()).toBe('Roaming rules of Europe IoT Standard');
    await page.screenshot({ path: `${SHOTS}/pricing-rules-light.png`, fullPage: true });
  });

  it('marks an invalid rate with its message, then saves a valid one that is there after a reload', async () => {
    const rate = cellOf('26202', 'dataRate');
    const invalid = await editCell(rate, 'input');
    await invalid.fill('abc');
    await invalid.press('Enter');
    await expect.poll(() => rate.getAttribute('class')).toContain('portal-cell-invalid');
    await expect.poll(() => page.getByTestId('rules-errors').innerText()).toContain('Please enter a rate from 0 to 999999.999999 with at most 6 decimals');
    await page.screenshot({ path: `${SHOTS}/pricing-rules-invalid.png` });

    const valid = await editCell(rate, 'input');
    await valid.fill('0.0123');
    await valid.press('Enter');
    await expect.poll(() => rate.innerText()).toBe('€0.0123');
    await page.getByTestId('rules-save').click();
    await page.getByText('Rules saved').waitFor();
    await page.reload();
    await expect.poll(() => cellOf('26202', 'dataRate').innerText()).toBe('€0.0123');
  });

  it('downloads the rules, lists a bad uploaded row before writing anything, then applies the file', async () => {
    downloaded = await download();
    const lines = downloaded
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines).toHaveLength(11);
    const columns = lines[0].split(',');
    // One rate changed, and one line whose MNC is not a valid one.
    const changed = lines.map((line) => (line.includes(',262,02,') ? line.replace(/,0\.0123,/, ',0.0456,') : line));
    expect(changed).not.toEqual(lines);
    const bad = changed[1].split(',');
    bad[columns.indexOf('mnc')] = '1';
    const file = join(tmpdir(), `rules-${Date.now()}.csv`);
    writeFileSync(file, [...changed, bad.join(',')].join('\r\n') + '\r\n');

    await page.getByTestId('rule-file').locator('input[type="file"]').setInputFiles(file);
    await page.getByTestId('rule-file-check').click();
    const rejected = page.getByTestId('rule-file-rejected');
    await rejected.waitFor();
    expect(await rejected.locator('tbody tr').count()).toBe(1);
    expect(await rejected.locator('tbody tr').innerText()).toMatch(/^12\s+MNC: MNC must be 2 or 3 digits$/);
    expect(await page.getByTestId('rule-file-report').innerText()).toContain('11 lines: 10 valid, 1 rejected. Nothing has been written yet.');
    await page.screenshot({ path: `${SHOTS}/pricing-rules-upload-preview.png`, fullPage: true });
    // Nothing written yet: the grid, read again, still has the saved rate.
    await page.reload();
    await expect.poll(() => cellOf('26202', 'dataRate').innerText()).toBe('€0.0123');

    await page.getByTestId('rule-file').locator('input[type="file"]').setInputFiles(file);
    await page.getByTestId('rule-file-check').click();
    // Apply first shows what it changes: the one rate, old and new; Cancel leaves the rules as they are.
    await page.getByTestId('rule-file-apply').click();
    const dialog = page.getByRole('dialog', { name: "Apply the file's rules?" });
    await dialog.waitFor();
    expect(await dialog.getByTestId('rule-changes-summary').innerText()).toBe(
      "Applying replaces the plan's rules: 0 added, 1 changed, 0 removed, 9 unchanged.",
    );
    expect(await dialog.getByTestId('rule-changes-changed').locator('li[data-field]').allInnerTexts()).toEqual(['Data rate (per MB): €0.0123 → €0.0456']);
    await page.screenshot({ path: `${SHOTS}/pricing-rules-apply-confirm.png` });
    await dialog.getByTestId('rule-changes-cancel').click();
    await dialog.waitFor({ state: 'hidden' });
    await page.reload();
    await expect.poll(() => cellOf('26202', 'dataRate').innerText()).toBe('€0.0123');

    await page.getByTestId('rule-file').locator('input[type="file"]').setInputFiles(file);
    await page.getByTestId('rule-file-check').click();
    await page.getByTestId('rule-file-apply').click();
    await dialog.getByTestId('rule-changes-apply').click();
    await page.getByText("10 rules applied: they replace the plan's rules.").waitFor();
    await expect.poll(() => cellOf('26202', 'dataRate').innerText()).toBe('€0.0456');
    expect(await rowsShown()).toBe(10);

    // Read back exactly as written: the download of the applied file is the file without its rejected line.
    const again = (await download())
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(again).toEqual(changed);
  });

  it('opens one rule in its form and saves it', async () => {
    await cellOf('26202', '__open').getByRole('link').click();
    await expect.poll(() => new URL(page.url()).hash).toMatch(/^#\/pricing-plan-rules\/\d+\/\d+$/);
    await expect.poll(() => page.locator('#root_dataRate').inputValue()).toBe('0.0456');
    await page.locator('#root_moCallRate').fill('0.11');
    await page.screenshot({ path: `${SHOTS}/pricing-rule-form.png` });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved', { exact: false }).first().waitFor();
    await page.getByRole('button', { name: 'Back to the rules' }).click();
    await expect.poll(() => cellOf('26202', 'moCallRate').innerText()).toBe('€0.11');
  });

  it('pastes a block of cells from the clipboard, marks the invalid one, saves nothing until it is fixed, then keeps the pasted values', async () => {
    await page.goto(rulesUrl);
    await cellOf('26202', 'dataRate').waitFor();
    // The row under 26202 (sorted by country) takes the block's second line.
    const index = Number(
      await grid()
        .locator('[role="row"]', { has: page.locator('[col-id="plmn"]', { hasText: '26202' }) })
        .first()
        .getAttribute('row-index'),
    );
    const nextPlmn = (
      await grid()
        .locator(`[role="row"][row-index="${index + 1}"] [role="gridcell"][col-id="plmn"]`)
        .innerText()
    ).trim();
    const ruleOf = async (plmn: string) => {
      const planId = new URL(rulesUrl).hash.split('/').pop();
      const body = await callApi<{ items: Record<string, unknown>[] }>(page, 'POST', `/portal/pricing-plans/local/${planId}/rules/paged`, {
        searchBy: 'plmn',
        searchKey: plmn,
        page: { page: 0, size: 10 },
      });
      return body.items[0];
    };
    const before = await ruleOf(nextPlmn);

    // A spreadsheet's copy: tab-separated cells, one line per row, put on the system clipboard and pasted with Ctrl+V
    // into the focused cell, the way a person does it.
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: portal.url });
    await page.evaluate((text) => navigator.clipboard.writeText(text), '0.0311\t0.21\r\n0.0322\tabc\r\n');
    await cellOf('26202', 'dataRate').click();
    await page.keyboard.press('Control+V');
    await expect.poll(() => cellOf('26202', 'dataRate').innerText()).toBe('€0.0311');
    expect(await cellOf('26202', 'moCallRate').innerText()).toBe('€0.21');
    expect(await cellOf(nextPlmn, 'dataRate').innerText()).toBe('€0.0322');
    const bad = cellOf(nextPlmn, 'moCallRate');
    await expect.poll(() => bad.getAttribute('class')).toContain('portal-cell-invalid');
    expect(await page.getByTestId('rules-errors').innerText()).toMatch(/Please enter a rate from 0 to 999999\.999999 with at most 6 decimals/);
    expect(await page.getByTestId('rules-pending').innerText()).toBe('2 rows changed, not saved yet');
    await page.screenshot({ path: `${SHOTS}/pricing-rules-pasted.png` });

    // Save refuses while a cell is invalid: the server still has the rule as it was.
    await page.getByTestId('rules-save').click();
    await page.getByText('Please correct the marked cells first').first().waitFor();
    expect(await ruleOf(nextPlmn)).toEqual(before);

    // A valid value pasted over the invalid cell, then Save: every pasted value is there after a reload.
    await page.evaluate((text) => navigator.clipboard.writeText(text), '0.23');
    await bad.click();
    await page.keyboard.press('Control+V');
    await expect.poll(() => bad.getAttribute('class')).not.toContain('portal-cell-invalid');
    await page.getByTestId('rules-save').click();
    await page.getByText('Rules saved').waitFor();
    await page.reload();
    await expect.poll(() => cellOf('26202', 'dataRate').innerText()).toBe('€0.0311');
    expect(await cellOf('26202', 'moCallRate').innerText()).toBe('€0.21');
    expect(await cellOf(nextPlmn, 'dataRate').innerText()).toBe('€0.0322');
    expect(await cellOf(nextPlmn, 'moCallRate').innerText()).toBe('€0.23');
    expect(await ruleOf(nextPlmn)).toEqual({ ...before, dataRate: 0.0322, moCallRate: 0.23 });
  });

  it('reads well in dark mode and right to left', async () => {
    await page.goto(rulesUrl);
    await cellOf('26202', 'network').waitFor();
    await setDarkMode(page, true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/pricing-rules-dark.png` });
    const background = await grid()
      .locator('.ag-root-wrapper')
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    const [r, g, b] = background.match(/\d+/g)!.map(Number);
    expect(r + g + b).toBeLessThan(200);

    await page.getByTestId('language-select').selectOption('he');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await expect.poll(() => grid().locator('.ag-rtl').count()).toBeGreaterThan(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/pricing-rules-hebrew-dark.png` });
    await page.getByTestId('language-select').selectOption('en');
    await setDarkMode(page, false);
  });

  it("edits the international rules on the international plan's page", async () => {
    await page.goto(`${portal.url}/#/international-plans`);
    await page.getByTestId('grid-internationalPlan').locator('[role="gridcell"][col-id="name"]').first().click();
    const rules = page.getByTestId('international-rules');
    await rules.waitFor();
    // The demo's rules, sorted by country; a new row goes below them.
    await expect.poll(() => rules.locator('[role="gridcell"][col-id="prefix"]').count()).toBe(6);
    await rules.getByTestId('rules-add').click();
    const cell = (colId: string) => rules.locator(`[role="row"][row-index="6"] [role="gridcell"][col-id="${colId}"]`);
    // The country is picked from the real ones, by name.
    await (await editCell(cell('country'), 'select')).selectOption('PT');
    await expect.poll(() => cell('country').innerText()).toBe('PT · Portugal');
    for (const [colId, value] of [
      ['prefix', '3519'],
      ['price', '0.135'],
      ['countryName', 'Portugal'],
    ]) {
      const input = await editCell(cell(colId), 'input');
      await input.fill(value);
      await input.press('Enter');
    }
    await rules.getByTestId('rules-save').click();
    await page.getByText('Rules saved').waitFor();
    await page.reload();
    const saved = rules.locator('[role="row"]', { has: page.locator('[col-id="prefix"]', { hasText: '3519' }) });
    await expect.poll(() => saved.locator('[col-id="price"]').innerText()).toBe('$0.135');
    expect(await saved.locator('[col-id="countryGroup"]').innerText()).toBe('Mobile');
    await page.locator('#root_name').waitFor();
    await page.screenshot({ path: `${SHOTS}/international-rules.png`, fullPage: true });
    expect(errors).toEqual([]);
  });
});
