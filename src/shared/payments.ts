/**
 * Payment rules shared by the server and the web app: the methods, the checks of a card, a holder's ID number, a
 * wire reference and an amount, each answering the message id a form shows (undefined when the value is fine).
 */

export const PAYMENT_METHODS = ['CREDIT_CARD', 'BIT_PAY', 'BANK_WIRE', 'STRIPE', 'MANUAL'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** What a payment has become: pending until credited (card and manual are credited at once). */
export const PAYMENT_STATUSES = ['pending', 'confirmed', 'declined', 'failed', 'reset'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** The ledger's currency, the only one payments are made in. */
export const PAYMENT_CURRENCIES = [{ code: 'USD', symbol: '$' }] as const;

/** A payment amount lies strictly between these (the administrator's manual ones may be negative). */
export const PAYMENT_AMOUNT_MIN = -100000;
export const PAYMENT_AMOUNT_MAX = 99999.99;

/** Whether a digit string passes the Luhn check of card numbers. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** A card number's message: digits only (spaces and dashes between groups allowed), 12 to 19 of them, Luhn. */
export function cardNumberMessage(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.trim()) return 'validation.required';
  const digits = value.replace(/[\s-]/g, '');
  if (!/^\d+$/.test(digits)) return 'validation.input.invalid';
  if (digits.length < 12 || digits.length > 19 || !luhnValid(digits)) return 'validation.card.invalid';
  return undefined;
}

/** The card number without the spaces and dashes a payer may type. */
export const cardDigits = (value: string) => value.replace(/[\s-]/g, '');

/**
 * An Israeli ID number (teudat zehut): 9 digits whose last is the check digit. Each digit is weighed 1, 2, 1, 2, …
 * from the left, a two-digit product counts as the sum of its digits, and the total is a multiple of 10.
 */
export function israeliIdValid(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i += 1) {
    const p = (value.charCodeAt(i) - 48) * ((i % 2) + 1);
    sum += p > 9 ? p - 9 : p;
  }
  return sum % 10 === 0;
}

export function idNumberMessage(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.trim()) return 'validation.idNumber.required';
  return israeliIdValid(value.trim()) ? undefined : 'validation.idNumber.invalid';
}

/** A bank wire's reference: required, 6 to 16 characters. */
export function referenceMessage(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.trim()) return 'validation.reference.required';
  const text = value.trim();
  if (text.length > 16) return 'validation.reference.tooLong';
  if (text.length < 6) return 'validation.reference.invalid';
  return undefined;
}

/**
 * A payment amount's message: a number with at most 2 decimals strictly between -100000 and 99999.99; with
 * `positive`, also above 0 (every payer's payment; only the administrator's manual ones may be negative or zero is never one).
 */
export function amountMessage(value: unknown, positive: boolean): string | undefined {
  if (value === undefined || value === null || value === '') return 'validation.amount.required';
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isFinite(n)) return 'validation.amount.invalid';
  if (n <= PAYMENT_AMOUNT_MIN) return 'payment.amount.tooLow';
  if (n >= PAYMENT_AMOUNT_MAX) return 'payment.amount.tooHigh';
  if (Math.abs(n * 100 - Math.round(n * 100)) > 1e-6) return 'validation.amount.invalid';
  if (positive ? n <= 0 : n === 0) return 'validation.amount.range';
  return undefined;
}

/** Cents of an amount with at most two decimals (a number or exact decimal text). */
export function toCents(value: number | string): number {
  if (typeof value === 'number') return Math.round(value * 100);
  const m = /^(-?)(\d+)(?:\.(\d{1,2})\d*)?$/.exec(value.trim());
  if (!m) return NaN;
  const cents = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] ? -cents : cents;
}

/** Exact decimal text of cents: 12345 → "123.45". */
export function fromCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** The fee of an amount at a rate (0.0300 is 3 %), in cents, rounded half up. */
export function feeCents(amountCents: number, rate: number): number {
  return Math.round((amountCents * Math.round(rate * 10000)) / 10000);
}
