import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, browserSession, setDarkMode, SHOTS, signIn } from './harness';

/** A receiver on loopback (allowed by WEBHOOK_ALLOW_PRIVATE, as an operator would for tests): it keeps what it gets. */
const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
let receiver: Server;
let url = '';

describe('reseller webhooks in the browser', () => {
  const session = browserSession({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  beforeAll(async () => {
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push({ headers: request.headers, body });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it('saves a URL, shows the secret once, sends a signed test event and lists the delivery', async () => {
    const { page, portal } = session;
    await signIn(page, portal, 'admin', ADMIN_PASSWORD);
    await page.getByTestId('menu-Resellers').click();
    const names = page.getByTestId('grid-reseller').locator('[role="gridcell"][col-id="name"]');
    await names.first().waitFor();
    await names.filter({ hasText: /^Blue Sky Telecom$/ }).click();
    await page.getByTestId('reseller-tab-webhooks').click();
    await page.getByTestId('reseller-webhooks').waitFor();

    // The status URL, then a secret rotated and shown once, which the receiver checks the signature with.
    await page.getByTestId('webhook-url-SUBSCRIPTION_STATUS_UPDATE').fill(url);
    await page.getByTestId('webhook-save-SUBSCRIPTION_STATUS_UPDATE').click();
    await expect.poll(() => page.getByTestId('webhook-test-SUBSCRIPTION_STATUS_UPDATE').isEnabled()).toBe(true);
    await page.getByTestId('webhook-secret-rotate').click();
    await page.locator('.bp6-alert').getByRole('button', { name: 'Rotate secret' }).click();
    const secret = await page.getByTestId('webhook-secret-shown').locator('code').innerText();
    expect(secret.length).toBeGreaterThan(20);

    await page.getByTestId('webhook-test-SUBSCRIPTION_STATUS_UPDATE').click();
    await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThan(0);
    const [first] = received;
    const timestamp = String(first.headers['x-portal-timestamp']);
    const expected = createHmac('sha256', secret).update(`${timestamp}.${first.body}`).digest('hex');
    expect(first.headers['x-portal-signature']).toBe(`v1=${expected}`);
    expect(JSON.parse(first.body)).toMatchObject({ type: 'TEST' });

    // The delivery in the log, delivered.
    await expect.poll(async () => (await page.getByTestId('webhook-delivery-status').allInnerTexts()).join(' '), { timeout: 30_000 }).toMatch(/delivered/i);
    await page.getByTestId('reseller-webhooks').screenshot({ path: `${SHOTS}/reseller-webhooks.png` });
    await setDarkMode(page, true);
    await page.getByTestId('reseller-webhooks').screenshot({ path: `${SHOTS}/reseller-webhooks-dark.png` });
    await setDarkMode(page, false);
    expect(session.errors).toEqual([]);
  });
});
