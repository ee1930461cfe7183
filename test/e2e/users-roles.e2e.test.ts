import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, demoPassword, openBrowser, signIn as signInAs, startPortal, type Browser, type Portal } from './harness';

const SHOTS = 'test-results';

describe('users and roles in the browser', () => {
  let portal: Portal;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal();
    browser = await openBrowser();
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  const signIn = (userName: string, password: string) => signInAs(page, portal, userName, password);

  it('lets the admin build a role from the privilege picker and give it to a new user', async () => {
    await signIn('admin', ADMIN_PASSWORD);
    await page.goto(`${portal.url}/#/role/new`);
    await page.locator('#root_name').fill('Account desk');
    await page.locator('#root_resellerId').selectOption({ label: 'Northwind Mobile' });
    await page.getByTestId('privileges-field').getByLabel('Dashboard', { exact: true }).check({ force: true });
    await page.getByTestId('privileges-field').getByLabel('Accounts', { exact: true }).check({ force: true });
    await page.screenshot({ path: `${SHOTS}/role-editor.png`, fullPage: true });
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => new URL(page.url()).hash).toMatch(/^#\/role\/\d+$/);

    await page.goto(`${portal.url}/#/user/new`);
    await page.locator('#root_username').fill('desk.clerk');
    await page.locator('#root_email').fill('desk.clerk@example.com');
    await page.locator('#root_password').fill('Desk@2026clerk');
    await page.locator('#root_resellerId').selectOption({ label: 'Northwind Mobile' });
    await page.locator('#root_roleId').selectOption({ label: 'Account desk' });
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => new URL(page.url()).hash).toMatch(/^#\/user\/\d+$/);
    await page.screenshot({ path: `${SHOTS}/user-created.png` });
  });

  it('shows a user of a limited role only its menu entries, and refuses the rest', async () => {
    await page.getByTestId('sign-out').click();
    await signIn('desk.clerk', 'Desk@2026clerk');
    const entries = await page
      .getByTestId('side-menu')
      .locator('[data-testid^="menu-"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
    expect(entries).toEqual(['menu-Dashboard', 'menu-Accounts']);
    await page.goto(`${portal.url}/#/users`);
    await page.getByTestId('no-privilege').waitFor();
    // The server refuses too, whatever the page shows.
    const status = await page.evaluate(async () => {
      const token = localStorage.getItem('portal.token') ?? sessionStorage.getItem('portal.token');
      return (
        await fetch('/portal/user/paged', { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' })
      ).status;
    });
    expect(status).toBe(403);
    await page.screenshot({ path: `${SHOTS}/limited-user.png` });
  });

  it('keeps a reseller manager to its own users', async () => {
    await page.getByTestId('sign-out').click();
    await signIn('northwind', demoPassword(portal));
    await page.getByTestId('menu-Users').click();
    const grid = page.getByTestId('grid-user');
    await grid.locator('[role="gridcell"][col-id="username"]').first().waitFor();
    const names = await grid.locator('[role="gridcell"][col-id="username"]').allInnerTexts();
    expect(names).toEqual(expect.arrayContaining(['northwind', 'northwind-iot', 'harbor', 'desk.clerk']));
    expect(names).not.toContain('bluesky');
    expect(names).not.toContain('admin');
  });

  it("shows the reseller's logo in the top bar once uploaded", async () => {
    expect(await page.getByTestId('default-logo').count()).toBe(1);
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="28"><rect width="120" height="28" rx="6" fill="#c99a2e"/><text x="12" y="19" font-size="14" fill="#fff">Northwind</text></svg>';
    const status = await page.evaluate(async (body) => {
      const token = localStorage.getItem('portal.token') ?? sessionStorage.getItem('portal.token');
      return (await fetch('/portal/user/logo', { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'image/svg+xml' }, body })).status;
    }, svg);
    expect(status).toBeLessThan(300);
    await page.reload();
    await page.getByTestId('reseller-logo').waitFor();
    await page.screenshot({ path: `${SHOTS}/reseller-logo.png`, clip: { x: 0, y: 0, width: 700, height: 60 } });
  });
  it('offers in the role editor only the privileges the editor holds, and warns about the rest', async () => {
    await page.getByTestId('sign-out').click();
    await signIn('admin', ADMIN_PASSWORD);
    // An editor of roles who holds only Dashboard and Roles, set up through the API.
    const { accountDeskId } = await page.evaluate(async () => {
      const token = localStorage.getItem('portal.token') ?? sessionStorage.getItem('portal.token');
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const call = async (method: string, url: string, body?: unknown) =>
        (await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })).json();
      const resellers: { id: number; name: string }[] = await call('GET', '/portal/reseller-info/list');
      const resellerId = resellers.find((r) => r.name === 'Northwind Mobile')!.id;
      const roles: { id: number; name: string }[] = await call('GET', '/portal/roles');
      const role = await call('POST', '/portal/roles', {
        name: 'Role desk',
        resellerId,
        privileges: [
          { privilege: 'Dashboard', subPrivileges: [] },
          { privilege: 'Roles', subPrivileges: [] },
        ],
      });
      await call('POST', '/portal/user', { username: 'role.clerk', email: 'role.clerk@example.com', password: 'Role@2026clerk', resellerId, roleId: role.id });
      return { accountDeskId: roles.find((r) => r.name === 'Account desk')!.id };
    });
    await page.getByTestId('sign-out').click();
    await signIn('role.clerk', 'Role@2026clerk');
    await page.goto(`${portal.url}/#/role/${accountDeskId}`);
    const picker = page.getByTestId('privileges-field');
    await picker.getByLabel('Roles', { exact: true }).waitFor();
    const offered = await picker.locator('.privileges-item > label').allInnerTexts();
    expect(offered.map((t) => t.trim())).toEqual(['Dashboard', 'Roles']);
    // Account desk also grants Accounts, which this editor lacks: saving would drop it, and the editor says so.
    await expect.poll(() => picker.getByTestId('privileges-warning').innerText()).toContain('Accounts');
    await page.screenshot({ path: `${SHOTS}/role-editor-limited.png` });
  });
});
