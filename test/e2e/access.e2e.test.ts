import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, demoPassword, openBrowser, signIn as signInAs, startPortal, type Browser, type Portal } from './harness';

const SHOTS = 'test-results';

/** Sessions, the join request and the password reset, with a token lifetime short enough to see renewal. */
describe('sign-in, sessions, join and reset in the browser', () => {
  let portal: Portal;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // 903 s: the app renews 900 s before expiry, so 3 s after sign-in.
    // Info logs: without a mail server, the reset link reaches whoever runs the server through its log.
    portal = await startPortal({ JWT_EXPIRY_SECONDS: '903', LOG_LEVEL: 'info' });
    browser = await openBrowser();
    page = browser.page;
    await page.goto(`${portal.url}/#/login`);
    await page.getByTestId('cookie-continue').click();
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  const signIn = (userName: string, password: string, remember = false) => signInAs(page, portal, userName, password, remember);
  /** Opens an address as a link from a mail does: a fresh page load. */
  async function openLink(url: string) {
    await page.goto('about:blank');
    await page.goto(url);
  }
  const stored = () => page.evaluate(() => ({ local: localStorage.getItem('portal.token'), session: sessionStorage.getItem('portal.token') }));

  it('keeps the token for the tab only, or across restarts with remember me', async () => {
    await signIn('admin', ADMIN_PASSWORD);
    expect(await stored()).toMatchObject({ local: null, session: expect.any(String) });
    await page.getByTestId('sign-out').click();
    await page.locator('#login-userName').waitFor();
    await signIn('admin', ADMIN_PASSWORD, true);
    expect(await stored()).toMatchObject({ local: expect.any(String), session: null });
  });

  it('renews the token 900 s before it expires', async () => {
    const before = (await stored()).local;
    const renewal = await page.waitForResponse((r) => r.url().endsWith('/portal/auth/renew'), { timeout: 15000 });
    expect(renewal.status()).toBe(200);
    await expect.poll(async () => (await stored()).local).not.toBe(before);
  });

  it('signs out once when the server refuses the token', async () => {
    await page.evaluate(() => localStorage.setItem('portal.token', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.forged'));
    await page.goto(`${portal.url}/#/accounts`);
    await page.reload();
    await page.locator('#login-userName').waitFor();
    expect(await stored()).toEqual({ local: null, session: null });
    expect(new URL(page.url()).hash).not.toContain('accounts');
  });

  it('sends a join request after the robot check', async () => {
    await page.goto(`${portal.url}/#/login`);
    await page.getByTestId('show-join').click();
    await page.locator('#join-firstName').fill('Ana');
    await page.locator('#join-lastName').fill('Lopes');
    await page.locator('#join-email').fill('ana@fleetco.example');
    await page.locator('#join-company').fill('FleetCo');
    await page.locator('#join-phoneNumber').fill('+351 912 345 678');
    await page.locator('#join-type').selectOption('IoT provider');
    await page.locator('#join-comment').fill('Trackers for 4,000 trucks.');
    expect(await page.getByTestId('join-submit').isDisabled()).toBe(true); // robot check still missing
    await page.locator('altcha-widget label').first().click();
    await expect.poll(() => page.getByTestId('join-submit').isEnabled(), { timeout: 30000 }).toBe(true);
    await page.getByTestId('join-submit').click();
    await page.getByTestId('join-thanks').waitFor();
    await page.screenshot({ path: `${SHOTS}/join-thanks.png` });
  });

  it('shows the administrator the join request, and no one else', async () => {
    await page.getByTestId('back-to-sign-in').click();
    await signIn('admin', ADMIN_PASSWORD);
    await page.goto(`${portal.url}/#/admin/join-requests`);
    const row = page.getByTestId('admin-row').filter({ hasText: 'FleetCo' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Ana Lopes');
    expect(await row.textContent()).toContain('IoT provider');
    await page.screenshot({ path: `${SHOTS}/admin-join-requests.png` });
    await page.getByTestId('sign-out').click();
    await signIn('northwind', demoPassword(portal));
    await page.goto(`${portal.url}/#/admin/join-requests`);
    await page.getByTestId('no-privilege').waitFor();
    await page.getByTestId('sign-out').click();
    await page.locator('#login-userName').waitFor();
  });

  it('resets a password through the mailed link, which the outbox shows the administrator masked', async () => {
    await page.goto(`${portal.url}/#/login`);
    await page.getByTestId('show-reset').click();
    await page.locator('#reset-email').fill('northwind@demo.example');
    await page.getByTestId('reset-submit').click();
    await page.getByTestId('reset-message').waitFor();
    expect(await page.locator('#reset-email').inputValue()).toBe('');

    // The administrator reads the outbox in the portal, where mail waits without an SMTP server: the link is masked,
    // so reading the outbox takes over no account.
    await page.getByTestId('back-to-sign-in').click();
    await signIn('admin', ADMIN_PASSWORD);
    await page.goto(`${portal.url}/#/admin/outbox`);
    await page.getByTestId('admin-row').filter({ hasText: 'northwind@demo.example' }).first().click();
    const mailText = (await page.getByTestId('admin-detail').textContent()) ?? '';
    await page.screenshot({ path: `${SHOTS}/admin-outbox.png` });
    expect(mailText).toContain('password_reset=[hidden: sent to the addressee only]');
    expect(mailText).not.toMatch(/password_reset=[\w-]{20,}/);
    await page.getByTestId('sign-out').click();
    await page.locator('#login-userName').waitFor();
    // The addressee's copy: here, the server's log line of the kept mail.
    const token = /password_reset=([\w-]{20,})/.exec(portal.output())?.[1];
    if (!token) throw new Error('no reset link in the server log');
    await openLink(`${portal.url}/#/login?password_reset=${token}`);
    await page.locator('#reset-newPassword').fill('Renewed@2026pass');
    await page.locator('#reset-repeat').fill('Renewed@2026pas');
    expect(
      await page
        .getByRole('button', { name: /password/i })
        .last()
        .isDisabled(),
    ).toBe(true);
    await page.locator('#reset-repeat').fill('Renewed@2026pass');
    await page.locator('#reset-repeat').press('Enter');
    await page.getByTestId('reset-done').waitFor();
    await signIn('northwind', 'Renewed@2026pass');
    // The link worked once.
    await page.getByTestId('sign-out').click();
    await openLink(`${portal.url}/#/login?password_reset=${token}`);
    await page.locator('#reset-newPassword').fill('Again@2026pass');
    await page.locator('#reset-repeat').fill('Again@2026pass');
    await page.locator('#reset-repeat').press('Enter');
    await page.getByTestId('reset-token-invalid').waitFor();
  });
});
