import { describe, expect, it } from 'vitest';
import { isValidIccid, luhnDigit, luhnValid } from './iccid';

describe('Luhn check digits', () => {
  it('computes the digit of known numbers', () => {
    expect(luhnDigit('7992739871')).toBe('3');
    expect(luhnValid('79927398713')).toBe(true);
    expect(luhnValid('79927398710')).toBe(false);
    // An IMEI from the GSMA's documentation.
    expect(luhnValid('490154203237518')).toBe(true);
  });

  it('accepts ICCIDs of 18 to 22 digits with a valid check digit only', () => {
    const body = '898822800000010000';
    const iccid = body + luhnDigit(body);
    expect(isValidIccid(iccid)).toBe(true);
    expect(isValidIccid(iccid.slice(0, -1) + String((Number(iccid.slice(-1)) + 1) % 10))).toBe(false);
    expect(isValidIccid('8988228' + luhnDigit('8988228'))).toBe(false); // too short
    expect(isValidIccid('89882280000001000012345')).toBe(false); // 23 digits
    expect(isValidIccid('89882280000001000a0')).toBe(false);
  });
});
