import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, apiToken, browserSession, demoPassword, screenshotThemes, SHOTS, signIn } from './harness';

/** A reseller orders SIMs through the wizard; the administrator reviews, allocates, places, downloads the keys and delivers. */
describe('SIM orders in the browser', () => {
  // Few subscribers: the orders need none, and the portal starts sooner.
  const session = browserSession({ DEMO_SUBSCRIBERS: '100' });

  it('takes an order from the wizard to delivery', async () => {
    const { page, portal, errors } = session;
    // The administrator gives Northwind Mobile credit to order against.
    const admin = await apiToken(portal, 'admin', ADMIN_PASSWORD);
    const headers = { authorization: `Bearer ${admin}`, 'content-type': 'application/json' };
    const resellers = (await (await fetch(`${portal.url}/portal/reseller-info/list`, { headers })).json()) as { id: number; name: string }[];
    const northwind = resellers.find((r) => r.name === 'Northwind Mobile')!.id;
    const limit = await fetch(`${portal.url}/portal/reseller-info/credit-limits/${northwind}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ creditLimit: 20000 }),
    });
    expect(limit.status).toBe(200);

    await signIn(page, portal, 'northwind', demoPassword(portal));
    await page.goto(`${portal.url}/#/orders`);
    await page.getByTestId('order-wizard').waitFor();
    await page.getByTestId('wizard-next').click();
    // No SIM type yet: the wizard stays and says why.
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-problem').waitFor();
    expect(await page.getByTestId('wizard-problem').innerText()).toBe('Please choose a SIM type');
    await page.getByText('Physical SIM').click();
    await screenshotThemes(page, `${SHOTS}/orders-wizard`);
    await page.getByTestId('wizard-next').click();
    await expect.poll(() => page.getByTestId('order-sponsor-0').locator('option').count()).toBeGreaterThan(1);
    await page.getByTestId('order-sponsor-0').selectOption({ label: 'Orbit Home NL (2040412)' });
    await page.getByTestId('wizard-next').click(); // roaming
    await page.getByTestId('wizard-next').click(); // custom IMSI range
    await page.getByTestId('wizard-next').click(); // profile
    await page.getByTestId('order-provider').selectOption({ label: 'Orbit Cards' });
    await expect.poll(() => page.getByTestId('order-profile').locator('option').count()).toBeGreaterThan(1);
    await page.getByTestId('order-profile').selectOption({ index: 1 });
    await page.getByTestId('wizard-next').click(); // amount
    await page.getByTestId('order-amount').fill('600');
    await page.getByTestId('order-batch').fill('Browser batch');
    await page.getByTestId('wizard-next').click(); // delivery
    await page.getByTestId('order-email').fill('ops@northwind.example');
    await page.getByTestId('wizard-next').click(); // artwork
    await page.getByTestId('wizard-next').click(); // summary
    await expect.poll(() => page.getByTestId('order-total').innerText()).toBe('$1,080.00');
    // A reload keeps the wizard where it was.
    await page.reload();
    await expect.poll(() => page.getByTestId('order-total').innerText()).toBe('$1,080.00');
    await screenshotThemes(page, `${SHOTS}/orders-summary`);
    await page.getByTestId('wizard-submit').click();
    await page.getByTestId('order-detail').waitFor();
    await expect.poll(() => page.getByTestId('order-status').innerText()).toBe('Submitted');
    const uuid = /orders\/([0-9a-f-]{36})/.exec(page.url())![1];
    expect(await page.getByTestId('order-reservation').innerText()).toContain('$1,080.00');

    // The administrator reviews and carries it through.
    await page.getByTestId('sign-out').click();
    await signIn(page, portal, 'admin', ADMIN_PASSWORD);
    await page.goto(`${portal.url}/#/orders?tab=list`);
    const batch = page.getByTestId('grid-simOrder').getByText('Browser batch');
    await batch.waitFor();
    await batch.click();
    await page.getByTestId('order-detail').waitFor();
    expect(page.url()).toContain(uuid);
    await page.getByTestId('order-approve-financial').click();
    await expect.poll(() => page.getByTestId('order-status').innerText()).toBe('Financially approved');
    await page.getByTestId('order-approve-technical').click();
    await expect.poll(() => page.getByTestId('order-status').innerText()).toBe('Technically approved');
    await page.getByTestId('order-allocate').click();
    await expect.poll(() => page.getByTestId('order-status').innerText()).toBe('Resources allocated');
    await page.getByTestId('order-place').click();
    await expect.poll(() => page.getByTestId('order-status').innerText()).toBe('Placed');
    const download = page.waitForEvent('download');
    await page.getByTestId('order-keys').click();
    expect((await download).suggestedFilename()).toBe('keys-Browser_batch.csv');
    await page.getByTestId('order-deliver').click();
    await expect.poll(() => page.getByTestId('order-status').innerText(), { timeout: 15_000 }).toBe('Delivered');
    expect(await page.getByTestId('order-reservation').innerText()).toContain('charged');
    const timeline = await page.getByTestId('order-timeline').innerText();
    for (const step of [
      'Submitted',
      'Financial approval',
      'Technical approval',
      'Resources allocated',
      'Placed with the vendor',
      'Keys downloaded',
      'Delivered',
    ])
      expect(timeline).toContain(step);
    await screenshotThemes(page, `${SHOTS}/orders-detail`);
    expect(errors).toEqual([]);
  });

  it("keeps the administrator's resource ranges and pages the provider profiles", async () => {
    const { page, portal, errors } = session;
    await page.goto(`${portal.url}/#/login`);
    if (!(await page.getByTestId('sign-out').count())) await signIn(page, portal, 'admin', ADMIN_PASSWORD);
    await page.goto(`${portal.url}/#/orders`);
    await page.getByTestId('orders-ranges-link').click();
    await page.getByTestId('order-ranges').waitFor();
    const grid = page.getByTestId('grid-resourceRange');
    await grid.getByText('893112345600000000').first().waitFor();
    await screenshotThemes(page, `${SHOTS}/orders-ranges`);

    // The form shows the rules as it goes, then the server's refusal under its field.
    await page.getByTestId('range-add').click();
    await page.locator('#range-kind').selectOption('iccid');
    await page.locator('#range-first').fill('8931');
    await page.locator('#range-first').blur();
    await page.getByText('An ICCID range gives 18 digits, without the check digit').waitFor();
    await page.locator('#range-first').fill('893112345600000500');
    await page.locator('#range-last').fill('893112345600000900');
    await page.getByTestId('range-save').click();
    await page.getByText('The range overlaps another range of the same kind').waitFor();
    await page.screenshot({ path: `${SHOTS}/orders-range-form.png`, fullPage: true });
    await page.locator('#range-first').fill('893112345900000000');
    await page.locator('#range-last').fill('893112345900000999');
    await page.getByTestId('range-save').click();
    await grid.getByText('893112345900000999').first().waitFor();

    // Found by a number it holds, then retired: gone from the active ranges, listed among the retired.
    await page.getByTestId('range-search').fill('893112345900000500');
    await page.getByTestId('range-search').press('Enter');
    await expect.poll(() => page.getByTestId('list-pager').innerText()).toContain('1');
    await grid.getByText('893112345900000999').click();
    await page.getByTestId('range-retire').click();
    await page.locator('.bp6-alert').getByRole('button', { name: 'Retire' }).click();
    await page.getByText('The range was retired.').waitFor();
    await expect.poll(() => grid.getByText('893112345900000999').count()).toBe(0);
    await page.getByTestId('range-filter-status').selectOption('retired');
    await grid.getByText('893112345900000999').first().waitFor();
    expect(await grid.innerText()).toContain('Retired');

    // Profiles and requests: each its own page of the server's answer, filtered by SIM type.
    await page.goto(`${portal.url}/#/orders/profiles`);
    await page.getByTestId('order-profiles').waitFor();
    const profiles = page.getByTestId('profile-list-profiles');
    await profiles.getByText('NL single IMSI').waitFor();
    await page.getByTestId('profile-list-requests').getByText('Northwind UK fleet').waitFor();
    await page.getByTestId('profile-filter-simtype').selectOption('esim');
    await expect.poll(() => profiles.getByText('NL single IMSI').count()).toBe(0);
    await profiles.getByText('US eSIM').waitFor();
    await page.getByTestId('profile-filter-simtype').selectOption('');
    await profiles.getByText('NL single IMSI').waitFor();
    await screenshotThemes(page, `${SHOTS}/orders-profiles`);
    await page.getByTestId('profile-list-requests').getByText('Northwind UK fleet').click();
    await page.getByTestId('profile-approve').waitFor();
    await page.screenshot({ path: `${SHOTS}/orders-profile-review.png`, fullPage: true });
    expect(errors).toEqual([]);
  });
});
