import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, browserSession, callApi, demoPassword, screenshotThemes, SHOTS, signIn } from './harness';

interface Range {
  batchId: number;
  name: string;
  rangeStart: string;
  rangeEnd: string;
  allocated: number;
  available: number;
  total: number;
}

describe('inventory in the browser', () => {
  const session = browserSession({ DEMO_SUBSCRIBERS: '200', CORE_NETWORK_FAILURE_RATE: '0' });

  it('the administrator adds a batch, the reseller sees its range, assigns it to an account, and finds the subscribers', async () => {
    const { page, portal } = session;
    // The administrator adds 40 cards to Northwind Mobile's inventory: the provider's next free range.
    await signIn(page, portal, 'admin', ADMIN_PASSWORD);
    await page.goto(`${portal.url}/#/inventory`);
    await page.getByTestId('add-batch').click();
    const dialog = page.getByTestId('add-batch-dialog');
    await dialog.getByTestId('batch-reseller').selectOption({ label: 'Northwind Mobile' });
    await dialog.getByTestId('batch-name').fill('E2E-2026-01');
    await dialog.getByTestId('batch-quantity').fill('40');
    await dialog.getByTestId('batch-cost').fill('2.75');
    await page.getByTestId('batch-submit').click();
    await page.getByTestId('range-E2E-2026-01').waitFor();
    expect(await page.getByTestId('range-E2E-2026-01').getByTestId('range-total').innerText()).toBe('40');

    // Northwind sees its ranges, the new one among them, and none of Blue Sky's.
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    // A fresh start of the app without the administrator's session.
    await page.goto(`${portal.url}/#/login`);
    await page.reload();
    await signIn(page, portal, 'northwind', demoPassword(portal));
    await page.goto(`${portal.url}/#/inventory`);
    const row = page.getByTestId('range-E2E-2026-01');
    await row.waitFor();
    expect(await page.getByTestId('inventory-ranges').innerText()).not.toContain('Blue Sky');
    await screenshotThemes(page, `${SHOTS}/inventory-ranges`);
    const ranges = await callApi<{ ranges: Range[] }>(page, 'GET', '/portal/inventory/ranges');
    const range = ranges.ranges.find((r) => r.name === 'E2E-2026-01')!;

    // The batch's cards, and the MSISDN pool.
    await row.getByRole('button', { name: 'E2E-2026-01' }).click();
    await page.getByTestId('grid-inventorySim').getByText(range.rangeStart).waitFor();
    await page.screenshot({ path: `${SHOTS}/inventory-batch-light.png`, fullPage: true });
    await page.getByTestId('inventory-tab-msisdn').click();
    await page.getByTestId('msisdn-country').selectOption('SE');
    await page.getByTestId('inventory-msisdn').getByText('+46 70 174 06 05').waitFor();
    await screenshotThemes(page, `${SHOTS}/inventory-msisdn`);
    await page.getByTestId('inventory-tab-devices').click();
    await page.getByTestId('inventory-devices').locator('tbody tr').first().waitFor();
    await page.screenshot({ path: `${SHOTS}/inventory-devices-light.png`, fullPage: true });

    // Assign the whole range to Harbor Logistics from the assign-subscribers screen.
    await page.goto(`${portal.url}/#/assign-subscribers?tab=inventory`);
    const form = page.getByTestId('assign-inventory');
    await form.getByTestId('inventory-account').selectOption({ label: 'Harbor Logistics' });
    await form.getByTestId('inventory-range').selectOption({ label: 'E2E-2026-01: 40 of 40 available' });
    expect(await form.getByTestId('inventory-iccidStart').inputValue()).toBe(range.rangeStart);
    await form.getByTestId('inventory-quantity').fill('40');
    expect(await form.getByTestId('inventory-iccidEnd').inputValue()).toBe(range.rangeEnd);
    await form.getByTestId('inventory-submit').click();
    await expect.poll(() => page.getByTestId('inventory-done').innerText()).toContain('40 SIM cards were assigned');
    await screenshotThemes(page, `${SHOTS}/inventory-assign`);
    const after = (await callApi<{ ranges: Range[] }>(page, 'GET', '/portal/inventory/ranges')).ranges.find((r) => r.name === 'E2E-2026-01')!;
    expect([after.allocated, after.available, after.total]).toEqual([40, 0, 40]);

    // The new subscribers are in the subscriber grid.
    await page.goto(`${portal.url}/#/subscribers?searchBy=iccid&searchKey=${range.rangeEnd}&page=1`);
    const grid = page.getByTestId('grid-subscriber');
    await expect.poll(() => grid.locator('[role="gridcell"][col-id="accountName"]').first().innerText()).toBe('Harbor Logistics');
    expect(session.errors).toEqual([]);
  });
});
