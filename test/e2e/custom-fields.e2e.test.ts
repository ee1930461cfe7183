import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, browserSession, screenshotThemes, SHOTS, signIn, pickFromMenu } from './harness';

/** The cells of one CSV line (quoted cells may hold commas and doubled quotes). */
const cells = (line: string) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)].map((m) => m[1].replace(/^"|"$/g, '').replace(/""/g, '"')).slice(0, -1);

/** A field the administrator adds to every tenant's subscribers, filled on one subscriber, then found, shown and exported. */
/** What a busy machine may take to show a saved change (expect.poll waits one second unless told). */
const ARRIVES = { timeout: 15000 };

describe('custom fields in the browser', () => {
  // A few hundred subscribers: enough for a search to single one out, quick to seed.
  const session = browserSession({ DEMO_SUBSCRIBERS: '300' });
  const value = 'E2E-4711';
  let subscriberId = '';

  it('adds a text field to subscribers on the definitions screen', async () => {
    const { page, portal } = session;
    await signIn(page, portal, 'admin', ADMIN_PASSWORD);
    await pickFromMenu(page, 'settings-open', 'settings-customFields', () => page.getByTestId('list-customField').waitFor({ timeout: 10_000 }));
    await page.getByTestId('list-create').click();
    await page.locator('#root_label').fill('Contract ref');
    await page.locator('#root_key').fill('contractRef');
    await page.locator('#root_entity').selectOption('subscriber');
    // The options follow the type: a text field has a length and a pattern, no choices and no days.
    await page.locator('#root_type').selectOption('choice');
    await page.locator('#root_choices').waitFor();
    await page.locator('#root_type').selectOption('text');
    await page.locator('#root_pattern').waitFor();
    expect(await page.locator('#root_choices').isVisible()).toBe(false);
    expect(await page.locator('#root_earliest').isVisible()).toBe(false);
    await page.locator('#root_maximum').fill('20');
    await screenshotThemes(page, `${SHOTS}/custom-field-definition`);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.title(), ARRIVES).toMatch(/^Contract ref · /);
    // Once it exists, what it is stays: entity, key and type are read-only.
    expect(await page.locator('#root_type').isDisabled()).toBe(true);
    await page.locator('.portal-breadcrumbs').getByRole('link', { name: 'Custom fields' }).click();
    await page.getByTestId('grid-customField').locator('[role="gridcell"][col-id="label"]').first().waitFor();
    expect(await page.getByTestId('grid-customField').locator('[role="gridcell"][col-id="label"]').allInnerTexts()).toContain('Contract ref');
    await screenshotThemes(page, `${SHOTS}/custom-fields`);
  });

  it("fills the field on one subscriber's page", async () => {
    const { page, portal } = session;
    await page.goto(`${portal.url}/#/subscribers`);
    const grid = page.getByTestId('grid-subscriber');
    await grid.locator('[row-id]').first().waitFor();
    subscriberId = (await grid.locator('[row-id]').nth(1).getAttribute('row-id'))!;
    await page.goto(`${portal.url}/#/subscriber/${subscriberId}`);
    const panel = page.getByTestId('panel-custom');
    await panel.locator('#root_custom_contractRef').fill(value);
    await panel.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').first().waitFor();
    await panel.scrollIntoViewIfNeeded();
    await screenshotThemes(page, `${SHOTS}/custom-field-subscriber`);
    await page.reload();
    await expect.poll(() => page.getByTestId('panel-custom').locator('#root_custom_contractRef').inputValue(), ARRIVES).toBe(value);
  });

  it('filters the subscribers by the field, shows its column and exports it', async () => {
    const { page, portal } = session;
    await page.goto(`${portal.url}/#/subscribers`);
    const grid = page.getByTestId('grid-subscriber');
    await grid.locator('[row-id]').first().waitFor();
    const by = page.getByTestId('list-search-by');
    expect(await by.locator('option[value="custom.contractRef"]').innerText()).toBe('Contract ref');
    await by.selectOption('custom.contractRef');
    await page.getByTestId('list-search').fill(value);
    await page.getByTestId('list-search').press('Enter');
    await expect
      .poll(async () => [...new Set(await grid.locator('[row-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('row-id'))))], ARRIVES)
      .toEqual([subscriberId]);

    expect(await grid.locator('[col-id="custom.contractRef"]').count()).toBe(0);
    await page.getByTestId('list-columns').click();
    // Each choice is saved with the user's preferences and shows once they come back: one at a time.
    const toggle = async (colId: string, shown: boolean) => {
      const box = page.getByTestId(`column-choice-${colId}`);
      // A choice saved while the grid saves its own layout can be lost (the later save wins): choose again then.
      for (let attempt = 0; attempt < 3 && (await box.isChecked()) !== shown; attempt++) {
        await box.click({ force: true });
        await expect
          .poll(() => box.isChecked(), { timeout: 5000 })
          .toBe(shown)
          .catch(() => undefined);
      }
      expect(await box.isChecked()).toBe(shown);
    };
    await toggle('custom.contractRef', true);
    // Room for it on the screenshots: a few wide columns go.
    for (const colId of ['imsi', 'iccid', 'usageTodayBytes', 'dailyLimitBytes', 'network']) await toggle(colId, false);
    await page.keyboard.press('Escape');
    await expect.poll(() => grid.locator('[role="gridcell"][col-id="custom.contractRef"]').first().innerText(), ARRIVES).toBe(value);
    await screenshotThemes(page, `${SHOTS}/custom-field-grid`);

    await page.getByTestId('list-download').click();
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('list-download-csv').click()]);
    const text = readFileSync((await file.path())!, 'utf8').replace(/^\uFEFF/, '');
    const [header, ...rows] = text.trim().split('\r\n');
    const column = cells(header).indexOf('custom.contractRef');
    expect(column).toBeGreaterThan(0);
    expect(rows).toHaveLength(1);
    expect(cells(rows[0])[column]).toBe(value);
    expect(session.errors).toEqual([]);
  });
});
