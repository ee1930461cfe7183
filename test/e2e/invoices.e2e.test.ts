import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, browserSession, setDarkMode, SHOTS, signIn } from './harness';

/** The text a PDF shows: each content stream inflated, the glyph strings of its text operators joined. */
function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const streams = [...raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)].map((m) => {
    const bytes = Buffer.from(m[1], 'latin1');
    try {
      return inflateSync(bytes).toString('latin1');
    } catch {
      return m[1];
    }
  });
  return streams
    .flatMap((s) => [...s.matchAll(/\[((?:<[0-9a-f]*>|\s|-?[\d.]+)*)\]\s*TJ/g)])
    .map((m) => [...m[1].matchAll(/<([0-9a-f]*)>/g)].map((h) => Buffer.from(h[1], 'hex').toString('latin1')).join(''))
    .join('\n');
}

/** The month before the current one, as the issue picker offers it first. */
function lastMonth() {
  const now = new Date();
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

describe('invoices in the browser', () => {
  const session = browserSession();

  it("issues a reseller's invoice from its page and downloads it as a PDF that opens", async () => {
    const { page, portal } = session;
    await signIn(page, portal, 'admin', ADMIN_PASSWORD);
    await page.goto(`${portal.url}/#/reseller/1?tab=invoices`);
    const panel = page.getByTestId('reseller-invoices');
    await panel.waitFor();
    await panel.getByTestId('invoices-empty').waitFor();

    // Last month, offered first; the invoice is listed once issued.
    expect(await panel.getByTestId('invoice-issue-month').inputValue()).toBe(lastMonth());
    await panel.getByTestId('invoice-issue').click();
    const row = panel.locator('tr[data-testid^="invoice-row-"]').first();
    await row.waitFor();
    const number = Number((await row.getAttribute('data-testid'))!.replace('invoice-row-', ''));
    const padded = String(number).padStart(6, '0');
    expect(await row.innerText()).toContain(padded);
    await expect.poll(() => page.getByText(`Invoice ${padded} issued for`).count()).toBeGreaterThan(0);

    // The same month again: refused, with the reason.
    await panel.getByTestId('invoice-issue').click();
    await expect.poll(() => page.getByText('This month already has an invoice.').count()).toBeGreaterThan(0);
    expect(await panel.locator('tr[data-testid^="invoice-row-"]').count()).toBe(1);

    // The PDF, fetched with the session's token and saved by the browser: a PDF document showing the number.
    const [download] = await Promise.all([page.waitForEvent('download'), panel.getByTestId(`invoice-pdf-${number}`).click()]);
    expect(download.suggestedFilename()).toBe(`invoice-${padded}.pdf`);
    const pdf = readFileSync((await download.path())!);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfText(pdf)).toContain(`No. ${padded}`);
    expect(pdfText(pdf)).toContain('Northwind Mobile');

    const [csv] = await Promise.all([page.waitForEvent('download'), panel.getByTestId(`invoice-csv-${number}`).click()]);
    expect(csv.suggestedFilename()).toBe(`invoice-${padded}.csv`);
    expect(
      readFileSync((await csv.path())!, 'utf8')
        .replace(/^\uFEFF/, '')
        .split(/\r?\n/)[0],
    ).toBe('date,kind,method,reference,amount,fee,balanceAfter,confirmationCode');

    await panel.scrollIntoViewIfNeeded();
    await panel.screenshot({ path: `${SHOTS}/invoices.png` });
    await setDarkMode(page, true);
    await panel.screenshot({ path: `${SHOTS}/invoices-dark.png` });
    await setDarkMode(page, false);
    await page.getByTestId('language-select').selectOption('he');
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    await panel.screenshot({ path: `${SHOTS}/invoices-he.png` });
    await page.getByTestId('language-select').selectOption('en');
    expect(session.errors).toEqual([]);
  });
});
