import { describe, expect, it } from 'vitest';
import { browserSession, callApi, demoPassword, screenshotThemes, SHOTS, signIn } from './harness';

type Row = Record<string, any>;

/** A group made on /groups, filled from the subscribers grid, and the grid filtered by it. */
describe('subscriber groups in the browser', () => {
  const session = browserSession();

  it('creates a group, adds ticked subscribers to it from the grid, and filters the grid by it', async () => {
    const { page, portal } = session;
    await signIn(page, portal, 'northwind', demoPassword(portal));
    await page.getByTestId('menu-subscriberGroup').click();
    await page.getByTestId('list-create').click();
    await page.locator('#root_name').waitFor();
    await page.locator('#root_name').fill('Forklifts');
    await page.locator('#root_kind').selectOption('static');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.title()).toMatch(/^Forklifts · /);
    await expect.poll(() => page.getByTestId('group-member-count').innerText()).toBe('0 subscribers');

    // Two subscribers ticked on the grid, added to the group.
    await page.getByTestId('menu-Subscribers').click();
    const grid = page.getByTestId('grid-subscriber');
    await grid.locator('[row-id]').first().waitFor();
    const ids = (await grid.locator('[row-index="0"], [row-index="1"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('row-id')))).filter(
      (v, i, all) => v && all.indexOf(v) === i,
    );
    for (const id of ids) await grid.locator(`[row-id="${id}"] input[type="checkbox"]`).first().check({ force: true });
    await page.getByTestId('bulk-actions').click();
    await page.getByTestId('bulk-add-to-group').click();
    await page.getByTestId('add-to-group-select').selectOption({ label: 'Forklifts' });
    await page.getByTestId('add-to-group-submit').click();
    await expect.poll(() => page.getByTestId('add-to-group-result').innerText()).toContain('2 added');
    await page.screenshot({ path: `${SHOTS}/group-added.png` });
    await page.getByTestId('add-to-group-open').click();

    // The grid shows the group's two subscribers, and the picker says which group.
    await expect
      .poll(async () => (await grid.locator('[row-id]').evaluateAll((rows) => [...new Set(rows.map((r) => r.getAttribute('row-id')))])).sort())
      .toEqual([...ids].sort());
    const groups = await callApi<Row[]>(page, 'GET', '/portal/subscriber-groups');
    const group = groups.find((g) => g.name === 'Forklifts')!;
    expect(await page.getByTestId('subscriber-group-filter').inputValue()).toBe(String(group.id));
    await screenshotThemes(page, `${SHOTS}/subscribers-by-group`);

    // The group's page counts them and leads back to them.
    await page.goto(`${portal.url}/#/group/${group.id}`);
    await expect.poll(() => page.getByTestId('group-member-count').innerText()).toBe('2 subscribers');
    await screenshotThemes(page, `${SHOTS}/group`);
    expect(session.errors).toEqual([]);
  });
});
