import { mkdirSync } from 'node:fs';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, demoPassword, openBrowser, startPortal, type Browser, type Portal, setDarkMode, pickFromMenu } from './harness';

const SHOTS = 'test-results';

/**
 * A code from the authenticator, one period ahead: the server accepts a code 30 s either side, and each
 * period's code only once, so the code used to confirm enrolment does not block the sign-in that follows.
 */
const codeFor = (secret: string, periodsAhead: number) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + periodsAhead * 30 });

describe('two-factor sign-in in the browser', () => {
  let portal: Portal;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal();
    browser = await openBrowser();
    page = browser.page;
    await page.goto(`${portal.url}/#/login`);
    await page.getByTestId('cookie-continue').click();
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  async function firstStep(userName: string, password: string) {
    await page.goto(`${portal.url}/#/login`);
    await page.locator('#login-userName').fill(userName);
    await page.locator('#login-password').fill(password);
    await page.getByTestId('sign-in-submit').click();
  }

  let secret = '';

  it('enrols from the security dialog with the QR code and a confirming code', async () => {
    await firstStep('bluesky', demoPassword(portal, 'bluesky'));
    await page.getByTestId('dashboard-welcome').waitFor();
    await pickFromMenu(page, 'user-menu', 'menu-change-password', () => page.getByTestId('security-tab-two-factor').click({ timeout: 10_000 }));
    await expect.poll(() => page.getByTestId('two-factor-state').innerText()).toBe('Off');
    await page.getByTestId('two-factor-turn-on').click();
    await page.getByTestId('two-factor-qr').waitFor();
    secret = (await page.getByTestId('two-factor-secret').getAttribute('data-secret'))!;
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(await page.getByTestId('two-factor-submit').isDisabled()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/two-factor-enrol.png` });
    await page.getByTestId('two-factor-code').fill(await codeFor(secret, 0));
    await page.getByTestId('two-factor-submit').click();
    await expect.poll(() => page.getByTestId('two-factor-state').innerText()).toBe('On');
    await page.getByTestId('two-factor-turn-off').waitFor();
    await page.locator('.bp6-dialog-close-button').click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
  });

  it('asks for the code after the password, refuses a wrong one, and signs in with the right one', async () => {
    await page.getByTestId('sign-out').click();
    await firstStep('bluesky', demoPassword(portal, 'bluesky'));
    await page.getByTestId('two-factor-step').waitFor();
    expect(await page.getByTestId('two-factor-setup').count()).toBe(0); // enrolled: no QR code again
    const right = await codeFor(secret, 1);
    await page.getByTestId('two-factor-code').fill(right === '000000' ? '111111' : '000000');
    await page.getByTestId('two-factor-submit').click();
    await page.getByText('The sign-in code is not correct').waitFor();
    await page.screenshot({ path: `${SHOTS}/two-factor-wrong-code.png` });
    expect(await page.evaluate(() => localStorage.getItem('portal.token') ?? sessionStorage.getItem('portal.token'))).toBeNull();
    await page.getByTestId('two-factor-code').fill(right);
    await page.getByTestId('two-factor-submit').click();
    await page.getByTestId('dashboard-welcome').waitFor();
  });

  it('makes a user of a reseller that requires it enrol at sign-in', async () => {
    await page.getByTestId('sign-out').click();
    await firstStep('admin', ADMIN_PASSWORD);
    await page.getByTestId('dashboard-welcome').waitFor();
    await page.goto(`${portal.url}/#/admin/two-factor`);
    const row = page.getByTestId('admin-row').filter({ hasText: 'Northwind Mobile' });
    // The switch shows the server's answer: it turns on once the change is saved and read back.
    await row.locator('label.bp6-switch').click();
    await expect.poll(() => row.locator('input[type="checkbox"]').isChecked()).toBe(true);
    await setDarkMode(page, true);
    await page.screenshot({ path: `${SHOTS}/two-factor-resellers-dark.png` });
    await setDarkMode(page, false);

    await page.getByTestId('sign-out').click();
    const northwind = /Demo user "northwind".*password: (\S+)/.exec(portal.output())![1];
    await firstStep('northwind', northwind);
    await page.getByTestId('two-factor-setup').waitFor();
    await page.getByTestId('two-factor-qr').waitFor();
    await page.screenshot({ path: `${SHOTS}/two-factor-sign-in-enrol.png` });
    const enrolSecret = (await page.getByTestId('two-factor-secret').getAttribute('data-secret'))!;
    await page.getByTestId('two-factor-code').fill(await codeFor(enrolSecret, 0));
    await page.getByTestId('two-factor-submit').click();
    await page.getByTestId('dashboard-welcome').waitFor();
    // Required: the security dialog offers no way to turn it off.
    await pickFromMenu(page, 'user-menu', 'menu-change-password', () => page.getByTestId('security-tab-two-factor').click({ timeout: 10_000 }));
    await page.getByTestId('two-factor-required').waitFor();
    expect(await page.getByTestId('two-factor-turn-off').count()).toBe(0);
  });
});
