import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, SHOTS, browserSession, callApi, screenshotThemes, signIn, type Portal } from './harness';

interface Row {
  subscriberId: number;
  status: string;
}

/**
 * A core network that refuses every SIM: a bulk suspend ends failed, with each subscriber's reason, on the
 * subscriber list and on the jobs screen the side menu leads to.
 */
describe('bulk job outcomes in the browser', () => {
  const session = browserSession({ DEMO_SUBSCRIBERS: '300', CORE_NETWORK_DELAY_MS: '200-500', CORE_NETWORK_FAILURE_RATE: '1' });
  let portal: Portal;
  let page: Page;
  const errors = session.errors;
  beforeAll(async () => {
    ({ portal, page } = session);
    await signIn(page, portal, 'admin', ADMIN_PASSWORD);
  });

  const grid = () => page.getByTestId('grid-subscriber');

  it('a bulk suspend the network refuses ends failed with the counts; the jobs screen, from the menu, gives each reason and the retry', async () => {
    await page.goto(`${portal.url}/#/subscribers`);
    await grid().locator('[role="gridcell"][col-id="iccid"]').first().waitFor();
    const firstPage = await callApi<{ items: Row[] }>(page, 'POST', '/portal/subscribers/paged', {
      sortBy: 'subscriberId',
      sortDir: 'asc',
      page: { page: 0, size: 50 },
    });
    const active = firstPage.items.filter((r) => r.status === 'active').map((r) => r.subscriberId);
    const suspended = firstPage.items.find((r) => r.status === 'suspended')?.subscriberId;
    const chosen = [...active.slice(0, 3), ...(suspended ? [suspended] : [])];
    for (const id of chosen) await grid().locator(`[row-id="${id}"] input[type="checkbox"]`).first().check();
    await page.getByTestId('bulk-actions').click();
    await page.getByTestId('bulk-suspend').click();
    const dialog = page.getByTestId('bulk-dialog');
    await expect.poll(() => dialog.getByTestId('bulk-will-change').textContent()).toContain(`3 subscribers of ${chosen.length} will change.`);
    await dialog.getByTestId('bulk-apply').click();

    // Every SIM refused: the job failed, and says how many, not "0 failed".
    const progress = page.getByTestId('bulk-jobs');
    await expect.poll(() => progress.getByTestId('job-status').textContent(), { timeout: 30000 }).toBe(suspended ? 'Done with failures' : 'Failed');
    expect(await progress.getByTestId('job-succeeded').textContent()).toBe('0 succeeded');
    expect(await progress.getByTestId('job-failed').textContent()).toBe('3 failed');
    expect(await progress.getByTestId('job-skipped').textContent()).toBe(`${suspended ? 1 : 0} skipped`);
    for (const id of active.slice(0, 3)) expect(await grid().locator(`[row-id="${id}"] [col-id="status"]`).textContent()).toBe('Active');
    await page.screenshot({ path: `${SHOTS}/subscriber-bulk-refused.png` });

    // The side menu leads to the jobs screen, after the screens that start jobs.
    const menu = page.getByTestId('side-menu');
    const entries = await menu.locator('[data-testid^="menu-"]').evaluateAll((links) => links.map((l) => l.getAttribute('data-testid')));
    expect(entries.indexOf('menu-Jobs')).toBe(entries.indexOf('menu-AssignSubscribers') + 1);
    await page.getByTestId('menu-Jobs').click();
    const row = page.getByTestId('jobs-page').locator('[data-testid^="job-"][data-status]').first();
    await expect.poll(() => row.getByTestId('job-failed').textContent()).toBe('3 failed');
    await row.getByTestId('job-show-reasons').click();
    const reasons = row.getByTestId('job-items-failed');
    await expect.poll(() => reasons.getByTestId('job-item').count()).toBe(3);
    expect(await reasons.getByTestId('job-item').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-key'))))).toEqual(active.slice(0, 3));
    expect(await reasons.getByTestId('job-item-reason').first().textContent()).toBe('The core network refused the operation');
    expect(await reasons.getByTestId('job-item-detail').first().textContent()).toMatch(/Diameter|MAP error|timeout/);
    expect(await row.getByTestId('job-failures-csv').isVisible()).toBe(true);
    await screenshotThemes(page, `${SHOTS}/jobs-failed`);

    // The retry runs the failed rows again, as a job of its own, which the network refuses too.
    await row.getByTestId('job-retry').click();
    const retry = page
      .getByTestId('jobs-page')
      .locator('[data-testid^="job-"][data-status]')
      .filter({ has: page.getByTestId('job-retry-of') })
      .first();
    await expect.poll(() => retry.getByTestId('job-status').textContent(), { timeout: 30000 }).toBe('Failed');
    expect(await retry.getByTestId('job-total').textContent()).toBe('3 of 3 processed');
    expect(errors).toEqual([]);
  });
});
