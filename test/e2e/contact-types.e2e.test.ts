import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, browserSession, SHOTS, signIn } from './harness';

/** An entity made of a schema and a migration only: its menu entry, list, form and titles in the browser. */
describe('contact types in the browser', () => {
  const session = browserSession();

  it('lists the contact types from the menu and creates one through the form', async () => {
    const { page, portal } = session;
    await signIn(page, portal, 'admin', ADMIN_PASSWORD);
    const ids = await page
      .getByTestId('side-menu')
      .locator('a[data-testid^="menu-"]')
      .evaluateAll((links) => links.map((a) => a.getAttribute('data-testid')!.slice(5)));
    expect(ids).toContain('contactType');
    await page.getByTestId('menu-contactType').click();
    await page.getByTestId('grid-contactType').locator('[role="gridcell"][col-id="name"]').first().waitFor();
    expect(await page.getByTestId('grid-contactType').locator('[role="gridcell"][col-id="name"]').allInnerTexts()).toEqual(
      expect.arrayContaining(['Billing', 'Technical']),
    );
    await expect.poll(() => page.title()).toMatch(/^Contact types · /);
    await page.getByTestId('list-create').click();
    await page.locator('#root_name').waitFor();
    expect(await page.title()).toMatch(/^(New c|C)ontact type/i);
    await page.locator('#root_name').fill('Escalation');
    await page.locator('#root_description').fill('Out of hours incidents');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.title()).toMatch(/^Escalation · /);
    await page.screenshot({ path: `${SHOTS}/contact-type.png` });
    expect(session.errors).toEqual([]);
  });
});
