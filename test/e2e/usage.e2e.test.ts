import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, browserSession, screenshotThemes, SHOTS, signIn } from './harness';

/** The Usage screen: the demo's usage per account, switched to countries, then the subscribers behind a total. */
describe('usage by dimension in the browser', () => {
  const session = browserSession();

  it('shows totals per account and per country, and drills down to the subscribers of a total', async () => {
    const { page, portal } = session;
    await signIn(page, portal, 'admin', ADMIN_PASSWORD);
    // Usage is one of the shortcuts a user may place on the dashboard, not a default one: opened by its address.
    await page.goto(`${portal.url}/#/usage`);
    const rows = page.getByTestId('usage-row');
    await rows.first().waitFor();
    await expect.poll(() => page.title()).toMatch(/^Usage · /);
    // The largest first, a chart of them.
    const mb = (await page.getByTestId('usage-mb').allInnerTexts()).map((t) => Number(t.replace(/,/g, '')));
    expect(mb.length).toBeGreaterThan(1);
    expect(mb).toEqual([...mb].sort((a, b) => b - a));
    await expect.poll(async () => Number(await page.getByTestId('usage-chart').getAttribute('data-bars'))).toBeGreaterThan(1);

    // Per country: countries named, the address keeps the choice.
    await page.getByTestId('usage-dimension').getByText('Country', { exact: true }).click();
    await expect.poll(() => page.url()).toContain('dimension=country');
    await expect.poll(async () => (await rows.allInnerTexts()).join(' ')).toMatch(/Germany|Netherlands|France|Spain|United/);
    await screenshotThemes(page, `${SHOTS}/usage`);

    // Per subscriber: the next page goes on in the same order (the largest first, found from the spans).
    await page.getByTestId('usage-dimension').getByText('Subscriber', { exact: true }).click();
    await expect.poll(() => page.url()).toContain('dimension=subscriber');
    await page.locator('[data-testid="usage-grid"][data-dimension="subscriber"]').waitFor();
    const firstPage = await rows.evaluateAll((all) => all.map((r) => r.getAttribute('data-key')));
    const lastMb = (await page.getByTestId('usage-mb').allInnerTexts()).map((t) => Number(t.replace(/,/g, ''))).at(-1)!;
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => page.url()).toContain('page=2');
    await expect.poll(async () => (await rows.first().getAttribute('data-key')) !== firstPage[0]).toBe(true);
    const secondPage = await rows.evaluateAll((all) => all.map((r) => r.getAttribute('data-key')));
    expect(secondPage.filter((k) => firstPage.includes(k))).toEqual([]);
    const nextMb = (await page.getByTestId('usage-mb').allInnerTexts()).map((t) => Number(t.replace(/,/g, '')));
    expect(nextMb[0]).toBeLessThanOrEqual(lastMb);
    await page.screenshot({ path: `${SHOTS}/usage-subscribers-page-2.png` });

    // Per account, then the subscribers of the largest: the subscribers list filtered by that account.
    await page.getByTestId('usage-dimension').getByText('Account', { exact: true }).click();
    await expect.poll(() => page.url()).toContain('dimension=account');
    // The rows turn to accounts once their totals arrive (the subscribers' rows go at once): an account's key is its id.
    await page.locator('[data-testid="usage-grid"][data-dimension="account"]').waitFor();
    expect(await rows.first().getAttribute('data-key')).toMatch(/^\d+$/);
    const key = await rows.first().getAttribute('data-key');
    await rows.first().getByTestId('usage-drill').click();
    await expect.poll(() => page.url()).toContain(`searchBy=accountId&searchKey=${key}`);
    await page.getByTestId('grid-subscriber').waitFor();
    expect(session.errors).toEqual([]);
  });
});
