/**
 * Amounts of money as people type them: grouped in thousands the way their language writes numbers (1,500.25 in
 * English, 1.500,25 in German, 1 500,25 in Russian), or plainly, with at most two decimals. The server refuses
 * anything else, so the forms refuse it first.
 */

const separatorCache = new Map<string, { group: string; decimal: string }>();

/** The thousands and decimal separators of a locale. */
export function separators(locale: string): { group: string; decimal: string } {
  let found = separatorCache.get(locale);
  if (!found) {
    const parts = new Intl.NumberFormat(locale).formatToParts(12345.6);
    found = { group: parts.find((p) => p.type === 'group')?.value ?? ',', decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.' };
    separatorCache.set(locale, found);
  }
  return found;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Spaces, apostrophes (Swiss grouping) and the direction marks right-to-left languages put around numbers. */
const SPACES = /[\s\u00a0\u202f\u200e\u200f\u061c']/g;

/**
 * An amount as typed, or undefined when it is not one: digits grouped by the locale's separator or not at all, an
 * optional decimal point or comma and at most two decimals; a leading minus only when `signed`.
 */
export function parseAmount(text: string, { signed = false, locale = 'en' }: { signed?: boolean; locale?: string } = {}): number | undefined {
  const { group, decimal } = separators(locale);
  let plain = text.trim().replace(SPACES, '');
  const negative = signed && /^[-\u2212]/.test(plain);
  if (negative) plain = plain.slice(1);
  const groupChar = group.replace(SPACES, '');
  const grouped = groupChar && new RegExp(`^\\d{1,3}(${escape(groupChar)}\\d{3})+(${escape(decimal)}\\d{1,2})?$`).test(plain);
  const normalised = grouped ? plain.split(groupChar).join('').replace(decimal, '.') : plain.replace(decimal, '.').replace(',', '.');
  if (!/^\d{1,8}(\.\d{1,2})?$/.test(normalised)) return undefined;
  const value = Number(normalised);
  return negative && value !== 0 ? -value : value;
}

/** An amount written back grouped in thousands, with the decimals it has (at most two). */
export function formatAmount(value: number, locale = 'en'): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 2, minimumFractionDigits: Number.isInteger(value) ? 0 : 2 }).format(value);
}

/** The specification's payment range: above -100,000 and below 99,999.99; the message id of a breach, if any. */
export function paymentRangeError(amount: number): string | undefined {
  if (amount <= -100000) return 'validation.payment.amount.tooLow';
  if (amount >= 99999.99) return 'validation.payment.amount.tooHigh';
  return undefined;
}
