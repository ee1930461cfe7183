import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, SHOTS, apiToken, browserSession, callApi, demoPassword, screenshotThemes, signIn, pickFromMenu, type Portal } from './harness';

describe('labs', () => {
  const session = browserSession({ DEMO_SUBSCRIBERS: '300', CORE_NETWORK_DELAY_MS: '100-200', CORE_NETWORK_FAILURE_RATE: '0' });
  let portal: Portal;
  let page: Page;
  beforeAll(async () => {
    ({ portal, page } = session);
  });

  const smsSwitch = () => page.getByTestId('lab-switch-subscriberSms');

  it("switches SMS off for a reseller's tenant: the action leaves the subscriber page and the server refuses it, until switched on again", async () => {
    await signIn(page, portal, 'northwind', demoPassword(portal));
    const found = await callApi<{ items: { subscriberId: number; status: string }[] }>(page, 'POST', '/portal/subscribers/paged', {
      sortBy: 'subscriberId',
      sortDir: 'asc',
      page: { page: 0, size: 20 },
    });
    const id = found.items.find((r) => r.status === 'active')!.subscriberId;
    await page.goto(`${portal.url}/#/subscriber/${id}`);
    await page.getByTestId('action-send-sms').waitFor();

    // The manager reaches the labs from the user menu.
    await pickFromMenu(page, 'user-menu', 'menu-settings-labs', () => page.getByTestId('labs-page').waitFor({ timeout: 10_000 }));
    expect(await page.title()).toBe('Labs · Connectivity Portal');
    expect(await smsSwitch().isChecked()).toBe(true);
    await page.locator('label', { has: smsSwitch() }).click();
    await expect.poll(() => page.getByTestId('lab-subscriberSms').innerText()).toContain('Switched off by northwind');
    expect(await smsSwitch().isChecked()).toBe(false);
    // The confirmation would cover the page in the screenshots.
    await page.locator('.bp6-toast button').click();
    await page.locator('.bp6-toast').waitFor({ state: 'detached' });
    await screenshotThemes(page, `${SHOTS}/labs`);

    await page.goto(`${portal.url}/#/subscriber/${id}`);
    await page.getByTestId('action-daily-limit').waitFor();
    expect(await page.getByTestId('action-send-sms').count()).toBe(0);
    const refused = await callApi<{ code: string }>(page, 'POST', `/portal/subscriber-info/${id}/sms`, { text: 'Hello' });
    expect(refused.code).toBe('LAB_OFF');

    await page.goto(`${portal.url}/#/labs`);
    await page.locator('label', { has: smsSwitch() }).click();
    await expect.poll(() => smsSwitch().isChecked()).toBe(true);
    await page.goto(`${portal.url}/#/subscriber/${id}`);
    await page.getByTestId('action-send-sms').waitFor();
    expect(session.errors).toEqual([]);
  });

  it('shows a lab the provider switched off as locked to the reseller', async () => {
    const jwt = await apiToken(portal, 'admin', ADMIN_PASSWORD);
    const off = await fetch(`${portal.url}/portal/labs/subscriberCsvUpdate`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
      body: JSON.stringify({ enabled: false, resellerId: -1 }),
    });
    expect(off.status).toBe(200);
    await page.goto(`${portal.url}/#/labs`);
    await page.getByTestId('lab-locked-subscriberCsvUpdate').waitFor();
    expect(await page.getByTestId('lab-switch-subscriberCsvUpdate').isDisabled()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/labs-locked.png`, fullPage: true });
    await page.goto(`${portal.url}/#/subscribers`);
    await page.getByTestId('grid-subscriber').waitFor();
    expect(await page.getByTestId('bulk-csv-open').count()).toBe(0);
  });

  it("lets the administrator pick the provider or a reseller, and shows the provider's own switch", async () => {
    await page.getByTestId('sign-out').click();
    await page.locator('#login-userName').waitFor();
    await signIn(page, portal, 'admin', ADMIN_PASSWORD);
    await pickFromMenu(page, 'settings-open', 'settings-labs', () => page.getByTestId('labs-page').waitFor({ timeout: 10_000 }));
    const tenant = page.getByTestId('labs-tenant');
    expect(await tenant.inputValue()).toBe('-1');
    await expect.poll(() => page.getByTestId('lab-subscriberCsvUpdate').innerText()).toContain('Switched off by admin');
    await tenant.selectOption({ label: 'Blue Sky Telecom' });
    await page.getByTestId('lab-locked-subscriberCsvUpdate').waitFor();
    await screenshotThemes(page, `${SHOTS}/labs-admin`);
    expect(session.errors).toEqual([]);
  });
});
