import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, callApi, openBrowser, setDarkMode, signIn, startPortal, type Browser, type Portal } from './harness';

const SHOTS = process.env.SHOTS_DIR ?? 'test-results';

interface SimRow {
  iccid: string;
  simType: string;
  subscriberId: number | null;
  subscriberName: string | null;
}
interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string | null;
}

describe('SIM card screen in the browser', () => {
  let portal: Portal;
  let browser: Browser;
  let page: Page;
  let esim: SimRow;
  const errors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal({ DEMO_SUBSCRIBERS: '300' });
    browser = await openBrowser();
    page = browser.page;
    page.on('pageerror', (e) => errors.push(String(e)));
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  it("opens an eSIM subscriber's SIM card from its ICCID and SIM panel", async () => {
    await signIn(page, portal, 'admin', ADMIN_PASSWORD);
    const cards = await callApi<{ items: SimRow[] }>(page, 'GET', '/portal/sim-cards?simType=esim&status=active&size=50');
    esim = cards.items.find((c) => c.subscriberId !== null)!;
    expect(esim).toBeTruthy();

    await page.goto(`${portal.url}/#/subscriber/${esim.subscriberId}`);
    await page.getByTestId('panel-sim').getByTestId('sim-link').click();
    await page.getByTestId('sim-facts').waitFor();
    expect(page.url()).toContain(`#/sim/${esim.iccid}`);
    expect(await page.getByTestId('sim-iccid').innerText()).toBe(esim.iccid);
    const facts = await page.getByTestId('sim-facts').innerText();
    expect(facts).toContain(esim.iccid);
    expect(facts).toContain('eSIM');
    expect(facts).toContain('Connectivity Provider');
    expect(await page.getByTestId('sim-subscriber-link').innerText()).toBe(esim.subscriberName);
    await expect.poll(() => page.getByTestId('esim-qr').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(await page.getByTestId('activation-code').innerText()).toMatch(/^LPA:1\$/);
    // The list below holds the card itself, unlinked, among the others the administrator sees.
    const listed = await page.getByTestId('sim-find-table').locator('tbody tr td:first-child').allInnerTexts();
    expect(listed.length).toBeGreaterThan(1);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/sim-detail-light.png`, fullPage: true });
  });

  it('mails the eSIM QR code, which arrives in the outbox the administrator reads', async () => {
    const code = await page.getByTestId('activation-code').innerText();
    await page.getByTestId('qr-email').fill('not-an-address');
    await page.getByTestId('qr-send').click();
    await page.getByText('E-mail must be valid').waitFor();

    await page.getByTestId('qr-email').fill('field.engineer@example.com');
    await page.getByTestId('qr-send').click();
    expect(await page.getByTestId('qr-sent').innerText()).toBe('The QR code was sent to field.engineer@example.com.');

    const outbox = await callApi<{ items: Mail[] }>(page, 'GET', '/portal/admin/outbox?size=5');
    const mail = outbox.items.find((m) => m.to === 'field.engineer@example.com')!;
    expect(mail).toBeTruthy();
    expect(mail.subject).toBe(`eSIM activation code for ${esim.iccid}`);
    expect(mail.text).toContain(code);
    expect(mail.html).toMatch(/<img src="data:image\/png;base64,[A-Za-z0-9+/=]{200,}" alt="eSIM activation QR code"/);

    await page.goto(`${portal.url}/#/admin/outbox`);
    await page.getByText(`eSIM activation code for ${esim.iccid}`).first().click();
    await expect.poll(() => page.locator('.portal-admin-mail').innerText()).toContain(code);
  });

  it('finds another SIM card by part of its ICCID', async () => {
    await page.goto(`${portal.url}/#/sim/${esim.iccid}`);
    await page.getByTestId('sim-find-table').waitFor();
    await page.getByTestId('sim-find-text').fill('12ab');
    await page.getByText('Type digits of the ICCID only').waitFor();
    const others = await callApi<{ items: SimRow[] }>(page, 'GET', '/portal/sim-cards?simType=physical&status=active&size=3');
    const other = others.items[2];
    await page.getByTestId('sim-find-text').fill(other.iccid.slice(-7));
    await page.getByTestId('sim-find-text').press('Enter');
    await expect.poll(() => page.getByTestId('sim-find-table').locator('tbody tr td:first-child').allInnerTexts()).toEqual([other.iccid]);
    await page.getByRole('link', { name: other.iccid }).click();
    await expect.poll(() => page.getByTestId('sim-iccid').innerText()).toBe(other.iccid);
    expect(await page.getByTestId('sim-facts').innerText()).toContain('Physical SIM');
    expect(await page.getByTestId('panel-sim-esim').count()).toBe(0);
  });

  it('shows the seeded month of network events on the subscriber page', async () => {
    await page.goto(`${portal.url}/#/subscriber/${esim.subscriberId}`);
    const panel = page.getByTestId('panel-network-events');
    const rows = panel.getByTestId('network-events-table').locator('tbody tr');
    await rows.first().waitFor();
    const texts = await rows.allInnerTexts();
    expect(texts.length).toBeGreaterThan(3);
    expect(texts.some((t) => /updateLocation/.test(t))).toBe(true);
    expect(texts.every((t) => /SS7|Diameter/.test(t))).toBe(true);
    const total = Number((await panel.getByTestId('list-total').innerText()).replace(/\D/g, ''));
    expect(total).toBeGreaterThanOrEqual(texts.length);
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/subscriber-network-events.png` });
  });

  it('looks right in dark mode and right to left in Hebrew', async () => {
    await page.goto(`${portal.url}/#/sim/${esim.iccid}`);
    await page.getByTestId('esim-qr').waitFor();
    await setDarkMode(page, true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/sim-detail-dark.png`, fullPage: true });
    await page.getByTestId('language-select').selectOption('he');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await expect.poll(() => page.getByTestId('sim-panels').innerText()).toContain('כרטיס SIM');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/sim-detail-he-dark.png` });
    await setDarkMode(page, false);
    await page.screenshot({ path: `${SHOTS}/sim-detail-he.png` });
    await page.getByTestId('language-select').selectOption('en');
    expect(errors).toEqual([]);
  });
});
