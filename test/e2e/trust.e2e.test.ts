import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, SHOTS, apiToken, browserSession, demoPassword, setDarkMode, signIn, type Portal } from './harness';

/** What the screens let a user do mirrors what the server allows: protected fields, pickers, a save over a newer row. */
describe('trust boundaries in the browser', () => {
  const session = browserSession();
  let portal: Portal;
  let page: Page;
  beforeAll(async () => {
    ({ portal, page } = session);
    await page.goto(`${portal.url}/#/login`);
    await page.getByTestId('cookie-continue').click();
  });

  const api = async (user: string, password: string, method: string, path: string, body?: unknown) => {
    const token = await apiToken(portal, user, password);
    const res = await fetch(`${portal.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.json() as Promise<Record<string, any>>;
  };

  it('shows an account user its commercial fields read-only, and no Create on accounts', async () => {
    await signIn(page, portal, 'harbor', demoPassword(portal, 'harbor'));
    await page.goto(`${portal.url}/#/accounts`);
    await page.getByTestId('grid-account').waitFor();
    expect(await page.getByTestId('list-create').count()).toBe(0);
    const own = (await api('harbor', demoPassword(portal, 'harbor'), 'POST', '/portal/accounts/paged', {})).items[0];
    await page.goto(`${portal.url}/#/account/${own.accountId}`);
    const name = page.locator('#root_name');
    await name.waitFor();
    expect(await name.isEditable()).toBe(true);
    expect(await page.locator('#root_usageCredit').isEditable()).toBe(false);
    expect(await page.locator('#root_pricingPlanId').isDisabled()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/account-user-form.png` });
    await setDarkMode(page, true);
    await page.screenshot({ path: `${SHOTS}/account-user-form-dark.png` });
    await setDarkMode(page, false);
    await page.getByTestId('sign-out').click();
    await page.locator('#login-userName').waitFor();
  });

  it("shows an account user holding Pricing plans its account's plan and rules to read, with nothing that edits them", async () => {
    const nw = demoPassword(portal, 'northwind');
    // The account user's role is given Pricing plans, and its account a plan of its reseller.
    const roles = await api('admin', ADMIN_PASSWORD, 'POST', '/portal/roles/paged', {
      searchBy: 'name',
      searchKey: 'Account user',
      page: { page: 0, size: 5 },
    });
    const role = await api('admin', ADMIN_PASSWORD, 'GET', `/portal/roles/${roles.items[0].id}`);
    await api('admin', ADMIN_PASSWORD, 'PUT', `/portal/roles/${role.id}`, {
      ...role,
      privileges: [...role.privileges, { privilege: 'PricingPlans', subPrivileges: [] }],
    });
    const plan = (await api('northwind', nw, 'GET', '/portal/pricing-plans/')).pricingPlans.find(
      (p: { pricingPlanName: string }) => p.pricingPlanName === 'Europe IoT Standard',
    );
    const own = (await api('harbor', demoPassword(portal, 'harbor'), 'POST', '/portal/accounts/paged', {})).items[0];
    await api('northwind', nw, 'PUT', '/portal/accounts/', { accountId: own.accountId, pricingPlanId: plan.pricingPlanId });

    await signIn(page, portal, 'harbor', demoPassword(portal, 'harbor'));
    await page.goto(`${portal.url}/#/pricing-plan/${plan.pricingPlanId}`);
    await page.locator('#root_name').waitFor();
    expect(await page.locator('#root_name').isEditable()).toBe(false);
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    await page.goto(`${portal.url}/#/pricing-plan-rules/${plan.pricingPlanId}`);
    await page.getByTestId('rules-grid').locator('[role="gridcell"][col-id="country"]').first().waitFor();
    for (const control of ['rules-add', 'rules-delete', 'rules-save', 'rule-file-input', 'rule-file-check'])
      expect(await page.getByTestId(control).count(), control).toBe(0);
    expect(await page.getByTestId('rule-file-download').count()).toBe(1);
    await page.getByTestId('rules-grid').locator('[role="gridcell"][col-id="dataRate"]').first().dblclick();
    expect(await page.getByTestId('rules-grid').locator('input').count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/account-user-rules.png`, fullPage: true });
    await page.getByTestId('sign-out').click();
    await page.locator('#login-userName').waitFor();
  });

  it('offers a user only roles of its own reseller, and reloads a row someone else saved meanwhile', async () => {
    await signIn(page, portal, 'admin', ADMIN_PASSWORD);
    const users = await api('admin', ADMIN_PASSWORD, 'POST', '/portal/user/search', { searchBy: 'username', searchKey: 'harbor' });
    const harbor = users.items[0];
    await page.goto(`${portal.url}/#/user/${harbor.userId}`);
    const role = page.locator('#root_roleId');
    await role.waitFor();
    const roles = await role.locator('option').allTextContents();
    expect(roles).not.toContain('Administrator');
    expect(roles.some((r) => r.startsWith('Reseller manager'))).toBe(true);
    expect(roles.every((r) => !r.includes('Blue Sky'))).toBe(true);
    await page.screenshot({ path: `${SHOTS}/user-role-picker.png` });

    // Someone else saves the user after the form opened.
    await api('admin', ADMIN_PASSWORD, 'PUT', '/portal/user', { userId: harbor.userId, firstName: 'Hugh' });
    await page.locator('#root_lastName').fill('Changed here');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('stale-row').waitFor();
    // The refused save keeps what was typed until the user chooses to reload.
    expect(await page.locator('#root_lastName').inputValue()).toBe('Changed here');
    await page.screenshot({ path: `${SHOTS}/stale-row.png` });
    await page.getByTestId('stale-reload').click();
    await page.waitForFunction(() => (document.querySelector('#root_firstName') as HTMLInputElement | null)?.value === 'Hugh');
    expect(await page.getByTestId('stale-row').count()).toBe(0);
  });
});
