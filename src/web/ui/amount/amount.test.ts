import { describe, expect, it } from 'vitest';
import { formatAmount, parseAmount, paymentRangeError } from './amount';

describe('an amount as typed', () => {
  it('reads plain and thousands-grouped amounts with at most two decimals', () => {
    expect(parseAmount('1500')).toBe(1500);
    expect(parseAmount(' 1,500.25 ')).toBe(1500.25);
    expect(parseAmount('1 500,5')).toBe(1500.5);
    expect(parseAmount('99999999.99')).toBe(99999999.99);
  });

  it("reads the grouping of the reader's language", () => {
    expect(parseAmount('1.500,25', { locale: 'de' })).toBe(1500.25);
    expect(parseAmount('1\u00a0500,25', { locale: 'ru' })).toBe(1500.25);
    expect(parseAmount('12,345.6', { locale: 'zh-Hans' })).toBe(12345.6);
    expect(parseAmount('1.500', { locale: 'de' })).toBe(1500);
    expect(parseAmount('1.500', { locale: 'en' })).toBeUndefined();
  });

  it('refuses what the server would refuse: signs, three decimals, text, too many digits', () => {
    for (const text of ['', '-1', '12.345', 'ten', '1,50,0', '123456789', '1.500.25'] as const) expect(parseAmount(text), text).toBeUndefined();
  });

  it('takes a minus only where the amount may be negative', () => {
    expect(parseAmount('-1,500.25', { signed: true })).toBe(-1500.25);
    expect(parseAmount('\u22125', { signed: true })).toBe(-5);
    expect(parseAmount('--5', { signed: true })).toBeUndefined();
    expect(parseAmount('-5')).toBeUndefined();
  });

  it('writes amounts back grouped, the way it reads them', () => {
    for (const locale of ['en', 'de', 'ru', 'he', 'zh-Hans', 'es']) {
      for (const value of [1500.25, 99999.5, 12, -1234.5])
        expect(parseAmount(formatAmount(value, locale), { signed: true, locale }), `${locale} ${value}`).toBe(value);
    }
  });

  it("holds payments inside the specification's range, both ends exclusive", () => {
    expect(paymentRangeError(-100000)).toBe('validation.payment.amount.tooLow');
    expect(paymentRangeError(-99999.99)).toBeUndefined();
    expect(paymentRangeError(99999.98)).toBeUndefined();
    expect(paymentRangeError(99999.99)).toBe('validation.payment.amount.tooHigh');
  });
});
