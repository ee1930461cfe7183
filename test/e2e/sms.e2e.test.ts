import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { SHOTS, browserSession, callApi, demoPassword, setDarkMode, signIn, type Portal } from './harness';

describe('an SMS to the SIM from the subscriber page', () => {
  const session = browserSession({ DEMO_SUBSCRIBERS: '300', CORE_NETWORK_DELAY_MS: '300-700', CORE_NETWORK_FAILURE_RATE: '0' });
  let portal: Portal;
  let page: Page;
  const errors = session.errors;
  beforeAll(async () => {
    ({ portal, page } = session);
  });

  const dialog = () => page.getByTestId('sms-dialog');

  /** Opens the dialog with some text, shoots it, and closes it again (its backdrop covers the top bar). */
  async function shootDialog(name: string, text: string) {
    await page.getByTestId('action-send-sms').click();
    await page.getByTestId('sms-text').fill(text);
    await page.waitForTimeout(300); // the dialog's opening transition
    await page.screenshot({ path: `${SHOTS}/${name}.png` });
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
  }

  it('sends a text from the dialog; the delivery appears in the network events panel', async () => {
    await signIn(page, portal, 'northwind', demoPassword(portal));
    const found = await callApi<{ items: { subscriberId: number; status: string }[] }>(page, 'POST', '/portal/subscribers/paged', {
      sortBy: 'subscriberId',
      sortDir: 'asc',
      page: { page: 0, size: 20 },
    });
    const id = found.items.find((r) => r.status === 'active')!.subscriberId;
    await page.goto(`${portal.url}/#/subscriber/${id}`);
    await page.getByTestId('subscriber-name').waitFor();

    await setDarkMode(page, true);
    await shootDialog('sms-dialog-dark', 'Привет, устройство!');
    await setDarkMode(page, false);
    await page.getByTestId('language-select').selectOption('he');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await shootDialog('sms-dialog-he', 'שלום');
    await page.getByTestId('language-select').selectOption('en');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('ltr');

    await page.getByTestId('action-send-sms').click();
    await page.getByTestId('sms-text').fill('APN=iot.example;RESET');
    await expect.poll(() => page.getByTestId('sms-count').innerText()).toBe('21 of 160 characters · GSM-7 · 1 message');
    await page.screenshot({ path: `${SHOTS}/sms-dialog-light.png` });
    await page.getByTestId('sms-dialog-submit').click();
    await dialog().waitFor({ state: 'detached' });
    const outcome = page.getByTestId('operation-outcome');
    await expect.poll(() => outcome.getAttribute('data-status'), { timeout: 15000 }).toBe('success');
    expect(await outcome.innerText()).toBe('Send SMS done.');

    const events = page.getByTestId('panel-network-events').getByTestId('network-events-table').locator('tbody tr');
    await expect.poll(() => events.first().innerText(), { timeout: 15000 }).toContain('sendSms');
    expect(await events.first().innerText()).toContain('SMS delivered to the SIM');
    await page.getByTestId('panel-network-events').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/sms-network-event.png` });
    expect(errors).toEqual([]);
  });
});
