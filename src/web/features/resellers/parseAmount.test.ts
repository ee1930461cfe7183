import { describe, expect, it } from 'vitest';
import { parseAmount } from './ResellerStandingPanel';

describe('an amount as typed', () => {
  it('reads plain and thousands-grouped amounts with at most two decimals', () => {
    expect(parseAmount('1500')).toBe(1500);
    expect(parseAmount(' 1,500.25 ')).toBe(1500.25);
    expect(parseAmount('1 500,5')).toBe(1500.5);
    expect(parseAmount('99999999.99')).toBe(99999999.99);
  });

  it('refuses what the server would refuse: signs, three decimals, text, too many digits', () => {
    for (const text of ['', '-1', '12.345', 'ten', '1,50,0', '123456789'] as const) expect(parseAmount(text), text).toBeUndefined();
  });
});
