import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, callApi, demoPassword, openBrowser, screenshotThemes, signIn, startPortal, type Browser, type Portal, pickFromMenu } from './harness';

const SHOTS = 'test-results';

/** Two tabs signed in as one user: a password change keeps the tab that made it and ends the other. */
describe('sessions after a password change or a disabled account, in the browser', () => {
  let portal: Portal;
  let browser: Browser;
  let mine: Page;
  let other: Page;
  const stored = (page: Page) => page.evaluate(() => sessionStorage.getItem('portal.token'));

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal();
    browser = await openBrowser();
    mine = browser.page;
    // A tab of its own: its own session storage, so its own session.
    other = await browser.context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  it('keeps the tab that changed the password signed in and signs the other tab out', async () => {
    const password = demoPassword(portal, 'harbor');
    await signIn(mine, portal, 'harbor', password);
    await other.goto(`${portal.url}/#/login`);
    await signIn(other, portal, 'harbor', password);
    const before = await stored(mine);

    await pickFromMenu(mine, 'user-menu', 'menu-change-password', () => mine.locator('#change-currentPassword').waitFor({ timeout: 10_000 }));
    await mine.locator('#change-currentPassword').fill(password);
    await mine.locator('#change-newPassword').fill('Harbour#2026x');
    await mine.locator('#change-repeat').fill('Harbour#2026x');
    await mine.getByTestId('change-password-submit').click();
    await mine.getByText('Your password has been changed. Your other sessions have been signed out.').waitFor();
    await mine.screenshot({ path: `${SHOTS}/password-changed.png` });
    expect(await stored(mine)).not.toBe(before);

    // This tab goes on, a reload included.
    await mine.reload();
    await mine.getByTestId('dashboard-welcome').waitFor();
    await mine.goto(`${portal.url}/#/accounts`);
    await mine.getByTestId('grid-account').waitFor();

    // The other tab's next call is refused, and it returns to the sign-in screen.
    await other.goto(`${portal.url}/#/accounts`);
    await other.locator('#login-userName').waitFor();
    expect(await stored(other)).toBeNull();
  });

  it('lets the administrator disable a user, who can no longer sign in', async () => {
    await mine.getByTestId('sign-out').click();
    await mine.locator('#login-userName').waitFor();
    await signIn(mine, portal, 'admin', ADMIN_PASSWORD);
    const found = await callApi<{ items: { userId: number }[] }>(mine, 'POST', '/portal/user/search', { searchBy: 'username', searchKey: 'harbor' });
    await mine.goto(`${portal.url}/#/user/${found.items[0].userId}`);
    const disabled = mine.locator('#root_disabled');
    await disabled.waitFor({ state: 'attached' });
    expect(await disabled.isChecked()).toBe(false);
    await disabled.check({ force: true });
    await screenshotThemes(mine, `${SHOTS}/user-disabled`);
    await mine.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => callApi<{ disabled: boolean }>(mine, 'GET', `/portal/user/${found.items[0].userId}`).then((u) => u.disabled)).toBe(true);

    await mine.getByTestId('sign-out').click();
    await mine.locator('#login-userName').fill('harbor');
    await mine.locator('#login-password').fill('Harbour#2026x');
    await mine.getByTestId('sign-in-submit').click();
    expect(await mine.getByTestId('login-error').textContent()).toBe('This account is disabled. Ask your administrator to enable it.');
    await mine.screenshot({ path: `${SHOTS}/sign-in-disabled.png` });
  });
});
