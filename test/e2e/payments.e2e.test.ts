import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, browserSession, demoPassword, screenshotThemes, setDarkMode, SHOTS, signIn } from './harness';

/** Dollars as the widget shows them ("$1,234.50", "-$5.00") back to a number. */
const dollars = (text: string) => Number(text.replace(/[^0-9.-]/g, ''));

/** A small real PDF, as a scanned transfer slip would be. */
function proofPdf(): string {
  const path = join(tmpdir(), `wire-proof-${process.pid}.pdf`);
  const body =
    '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n';
  writeFileSync(path, body);
  return path;
}

/** Top ups from the balance widget: a card credited at once, a declined card, and a bank wire the administrator confirms. */
describe('payments in the browser', () => {
  const session = browserSession({ BITPAY_SANDBOX_CONFIRM_SECONDS: '2', PAYMENT_SWEEP_SECONDS: '1' });

  it('tops up by card from the dashboard, says why a card is declined, and takes a bank wire to the administrator', async () => {
    const { page, portal } = session;
    await signIn(page, portal, 'northwind', demoPassword(portal));
    const balance = page.getByTestId('balance-widget-balance');
    await balance.waitFor();
    const before = dollars(await balance.innerText());

    // A new card, kept for later: credited at once, the widget follows.
    await page.getByTestId('balance-top-up').click();
    await page.getByTestId('top-up-amount').fill('1250.5');
    await page.getByTestId('top-up-amount').blur();
    expect(await page.getByTestId('top-up-amount').inputValue()).toBe('1,250.50');
    await expect.poll(() => page.getByTestId('top-up-fee').count()).toBe(1);
    await page.getByTestId('top-up-submit').click();
    // Nothing sent while the card is incomplete: each field says what it lacks.
    await expect.poll(() => page.getByTestId('top-up-dialog').locator('.bp6-form-group.bp6-intent-danger').count()).toBeGreaterThanOrEqual(3);
    await page.getByTestId('top-up-card-number').fill('4242 4242 4242 4241');
    await page.getByTestId('top-up-submit').click();
    await expect.poll(() => page.getByText('Card must be valid').count()).toBe(1);
    await page.getByTestId('top-up-card-number').fill('4242 4242 4242 4242');
    await page.getByTestId('top-up-card-holderName').fill('Nora North');
    await page.getByTestId('top-up-card-holderIdNumber').fill('123456789');
    await page.getByTestId('top-up-submit').click();
    await expect.poll(() => page.getByText('ID must be valid').count()).toBe(1);
    await page.getByTestId('top-up-card-holderIdNumber').fill('123456782');
    await page.getByTestId('top-up-dialog').screenshot({ path: `${SHOTS}/top-up-card.png` });
    await page.getByTestId('top-up-submit').click();
    await page.getByTestId('top-up-dialog').waitFor({ state: 'detached' });
    await expect.poll(async () => dollars(await balance.innerText())).toBeCloseTo(before + 1250.5, 2);

    // A declined card: the processor's answer, and nothing credited.
    await page.getByTestId('balance-top-up').click();
    await page.getByTestId('top-up-amount').fill('20');
    await page.getByTestId('top-up-card').selectOption('new');
    await page.getByTestId('top-up-card-number').fill('4000 0000 0000 0002');
    await page.getByTestId('top-up-card-holderName').fill('Nora North');
    await page.getByTestId('top-up-card-holderIdNumber').fill('123456782');
    await page.getByTestId('top-up-submit').click();
    await page.getByTestId('top-up-failure').waitFor();
    const declined = await page.getByTestId('top-up-failure').innerText();
    expect(declined).toMatch(/\S/);
    expect(declined).not.toMatch(/^payments\.|^validation\./);
    await page.getByTestId('top-up-dialog').screenshot({ path: `${SHOTS}/top-up-declined.png` });

    // A bank wire with its proof: recorded, not credited yet.
    await page.getByTestId('top-up-method-BANK_WIRE').click();
    await page.getByTestId('top-up-amount').fill('5,000');
    await page.getByTestId('top-up-reference').fill('NW1');
    await page.getByTestId('top-up-submit').click();
    await expect.poll(() => page.getByText('Reference must be valid').count()).toBe(1);
    await expect.poll(() => page.getByText('Please select a file.').count()).toBe(1);
    await page.getByTestId('top-up-reference').fill('NW-WIRE-2026');
    await page.locator('#top-up-proof').setInputFiles(proofPdf());
    await page.getByTestId('top-up-submit').click();
    await page.getByTestId('top-up-wire-recorded').waitFor();
    await page.getByTestId('top-up-close').click();
    const afterCard = dollars(await balance.innerText());
    expect(afterCard).toBeCloseTo(before + 1250.5, 2);

    // The payments screen: the saved card, the limits in use, and the history.
    await page.goto(`${portal.url}/#/payment-methods`);
    await page.getByTestId('saved-card-4242').waitFor();
    await page.getByTestId('payments-table').locator('tbody tr').first().waitFor();
    expect(await page.getByTestId('payments-table').locator('[data-status="declined"]').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('payments-table').locator('[data-status="pending"]').count()).toBeGreaterThan(0);
    await screenshotThemes(page, `${SHOTS}/payment-methods`);

    // The administrator confirms the wire; Northwind's balance takes it once.
    await page.getByTestId('sign-out').click();
    await page.locator('#login-userName').waitFor();
    await signIn(page, portal, 'admin', ADMIN_PASSWORD);
    await page.goto(`${portal.url}/#/bank-wires`);
    const row = page.getByTestId('bank-wires-table').locator('tr', { hasText: 'NW-WIRE-2026' });
    await row.waitFor();
    await page.screenshot({ path: `${SHOTS}/bank-wires.png`, fullPage: true });
    await setDarkMode(page, true);
    await page.screenshot({ path: `${SHOTS}/bank-wires-dark.png`, fullPage: true });
    await setDarkMode(page, false);
    await row.getByRole('button', { name: 'Confirm' }).click();
    await page.locator('.bp6-alert').getByRole('button', { name: 'Confirm' }).click();
    await row.waitFor({ state: 'detached' });

    // On Northwind's page, the administrator records a correction; the history shows it and the wire, confirmed.
    await page.goto(`${portal.url}/#/resellers`);
    await page
      .getByTestId('grid-reseller')
      .locator('[role="gridcell"][col-id="name"]')
      .filter({ hasText: /^Northwind Mobile$/ })
      .click();
    await page.getByTestId('reseller-tab-payments').click();
    await page.getByTestId('manual-amount').fill('-25');
    await page.getByTestId('manual-description').fill('Roaming dispute settled');
    await page.getByTestId('manual-payment-save').click();
    const history = page.getByTestId('reseller-payments-table');
    await expect.poll(() => history.locator('tr', { hasText: 'Roaming dispute settled' }).count()).toBe(1);
    expect(await history.locator('tr', { hasText: 'NW-WIRE-2026' }).locator('[data-status]').getAttribute('data-status')).toBe('confirmed');
    await page.getByTestId('reseller-payments').screenshot({ path: `${SHOTS}/reseller-payments.png` });

    // Northwind IoT, put in debt by a correction, cannot have its credit limit lowered below the credit it uses.
    await page.goto(`${portal.url}/#/resellers`);
    await page
      .getByTestId('grid-reseller')
      .locator('[role="gridcell"][col-id="name"]')
      .filter({ hasText: /^Northwind IoT$/ })
      .click();
    // Its standing tab opens first.
    const iotBalance = dollars(await page.getByTestId('figure-balance').innerText());
    await page.getByTestId('reseller-tab-payments').click();
    await page.getByTestId('manual-amount').fill(String(-(iotBalance + 300)));
    await page.getByTestId('manual-description').fill('Usage not covered');
    await page.getByTestId('manual-payment-save').click();
    await expect.poll(() => page.getByTestId('reseller-payments-table').locator('tr', { hasText: 'Usage not covered' }).count()).toBe(1);
    await page.getByTestId('reseller-tab-standing').click();
    await expect.poll(async () => dollars(await page.getByTestId('figure-balance').innerText())).toBeCloseTo(-300, 2);
    await page.locator('#reseller-credit-limit').fill('100');
    await page.getByTestId('reseller-credit-limit-save').click();
    await expect.poll(() => page.getByText('credit limit too high for used credit', { exact: false }).count()).toBeGreaterThan(0);
    await page.getByTestId('reseller-standing').screenshot({ path: `${SHOTS}/credit-limit-refused.png` });
    await page.getByTestId('sign-out').click();
    await page.locator('#login-userName').waitFor();
    await signIn(page, portal, 'northwind', demoPassword(portal));
    await expect.poll(async () => dollars(await page.getByTestId('balance-widget-balance').innerText())).toBeCloseTo(afterCard + 5000 - 25, 2);
    expect(session.errors).toEqual([]);
  });
});
