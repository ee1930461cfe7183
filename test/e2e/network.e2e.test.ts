import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, browserSession, callApi, screenshotThemes, SHOTS, signIn } from './harness';

type Row = Record<string, any>;

/** The network page: the map and grid from the demo's usage, a country chosen, a network's roaming profiles. */
describe('networks in the browser', () => {
  const session = browserSession();

  it('shows traffic per country and network, filters by a country and opens the profiles allowing a network', async () => {
    const { page, portal } = session;
    await signIn(page, portal, 'admin', ADMIN_PASSWORD);
    // Europe IoT uses Northwind's European allowed list, as a reseller would set it on the profile's page.
    const list = (await callApi<{ items: Row[] }>(page, 'POST', '/portal/allowed-lists/paged', { searchBy: 'name', searchKey: 'Europe standard' })).items[0];
    const profile = (await callApi<{ items: Row[] }>(page, 'POST', '/portal/roaming-profiles/paged', { searchBy: 'name', searchKey: 'Europe IoT' })).items[0];
    await callApi(page, 'PUT', `/portal/roaming-profiles/${profile.id}`, { allowedListIds: [list.allowedListId] });
    await page.goto(`${portal.url}/#/network`);
    const rows = page.getByTestId('network-row');
    await rows.first().waitFor();
    await expect.poll(() => page.title()).toMatch(/^Networks · /);

    // The demo's usage of the last day: networks with traffic, the busiest first, and their countries on the map.
    const traffic = (await page.getByTestId('network-traffic').allInnerTexts()).map((t) => Number(t.replace(/,/g, '')));
    expect(traffic.length).toBeGreaterThan(3);
    expect(traffic[0]).toBeGreaterThan(0);
    expect(traffic).toEqual([...traffic].sort((a, b) => b - a));
    const map = page.getByTestId('country-map');
    await expect.poll(async () => (await map.getAttribute('data-countries'))?.split(',').length ?? 0).toBeGreaterThan(3);
    const mapped = (await map.getAttribute('data-countries'))!.split(',');
    const gridCountries = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-country')));
    for (const c of gridCountries) expect(mapped).toContain(c);
    await page.getByTestId('network-grid').waitFor();
    await screenshotThemes(page, `${SHOTS}/network`);

    // Active SIMs on the map, then Germany chosen: only German networks remain, and the map marks it.
    await page.getByTestId('network-metric').getByText('Active SIMs').click();
    await page.getByTestId('network-country-DE').click();
    await page.getByTestId('network-country-filter').waitFor();
    await expect.poll(async () => [...new Set(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-country'))))]).toEqual(['DE']);
    expect(await map.getAttribute('data-selected')).toBe('DE');

    // Telekom's row: the roaming profiles whose allowed lists hold it, with the network's state in each.
    await page.locator('[data-testid="network-row"][data-plmn="26201"]').click();
    const panel = page.getByTestId('network-profiles');
    await panel.waitFor();
    await expect.poll(() => panel.getByTestId('network-profile').count()).toBeGreaterThan(0);
    expect(await panel.innerText()).toContain('Europe IoT');
    // The drawer slides in: wait until it stands still before the picture.
    await page.waitForFunction(() => !document.querySelector('.bp6-overlay-enter, .bp6-overlay-enter-active'));
    await page.screenshot({ path: `${SHOTS}/network-profiles.png` });
    await page.keyboard.press('Escape');

    // The filter removed: every country again.
    await page.getByTestId('network-country-filter').locator('button').click();
    await expect.poll(async () => new Set(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-country')))).size).toBeGreaterThan(1);
    expect(session.errors).toEqual([]);
  });
});
