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
    await expect.poll(() => page.getByTestId('order-status').innerText()).toBe('Delivered');
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
    await page.goto(`${portal.url}/#/orders/profiles`);
    await page.getByTestId('order-profiles').waitFor();
    await page.screenshot({ path: `${SHOTS}/orders-profiles.png`, fullPage: true });
    expect(errors).toEqual([]);
  });
});
