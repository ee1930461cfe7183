import { describe, expect, it } from 'vitest';
import { isValidIccid } from '@shared/iccid';
import { iccidAfter } from './iccidRange';

describe('the end of an ICCID range', () => {
  it('counts consecutive numbers before the check digit and appends the check digit', () => {
    const start = '8988228000000000012';
    expect(isValidIccid(start)).toBe(true);
    expect(iccidAfter(start, 1)).toBe(start);
    const end = iccidAfter(start, 120)!;
    expect(BigInt(end.slice(0, -1)) - BigInt(start.slice(0, -1))).toBe(119n);
    expect(isValidIccid(end)).toBe(true);
  });

  it('gives nothing for a start that is no ICCID or a count below one', () => {
    expect(iccidAfter('123', 5)).toBeUndefined();
    expect(iccidAfter('8988228000000000012', 0)).toBeUndefined();
    expect(iccidAfter('9999999999999999999', 2)).toBeUndefined();
  });
});
