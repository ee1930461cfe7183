import { describe, expect, it } from 'vitest';
import { formatRate, parseDecimal, planLabel } from './pricing';

const lists = {
  pricingPlans: [{ pricingPlanId: 4, pricingPlanName: 'Europe IoT Standard' }],
  internationalPricingPlans: [{ internationalPricingPlanId: 4, internationalPricingPlanName: 'International Calls Basic' }],
};

describe('plan labels', () => {
  it('names a known plan from the right list', () => {
    expect(planLabel(lists, 4)).toEqual({ kind: 'name', name: 'Europe IoT Standard' });
    expect(planLabel(lists, 4, true)).toEqual({ kind: 'name', name: 'International Calls Basic' });
  });
  it("reads 'N/D' for -1 and no plan, 'Set by admin' for a plan the caller cannot see", () => {
    expect(planLabel(lists, -1)).toEqual({ kind: 'notDefined' });
    expect(planLabel(lists, null)).toEqual({ kind: 'notDefined' });
    expect(planLabel(lists, 99)).toEqual({ kind: 'setByAdmin' });
    expect(planLabel(undefined, 4)).toEqual({ kind: 'setByAdmin' });
  });
});

describe('rates', () => {
  it("formats in the reader's locale and currency, keeping every stored decimal", () => {
    expect(formatRate('en', 0.0035, 'EUR')).toBe('€0.0035');
    expect(formatRate('de', 0.0035, 'EUR')).toBe('0,0035\u00a0€');
    expect(formatRate('en', 1234.5, 'USD')).toBe('$1,234.50');
    expect(formatRate('en', 123456.789012)).toBe('123,456.789012');
    expect(formatRate('he', 0.1, 'ILS')).toMatch(/0\.10/);
  });
  it('reads what people type or paste, and leaves anything else as text', () => {
    expect(parseDecimal('0.05')).toBe(0.05);
    expect(parseDecimal(' 0,05 ')).toBe(0.05);
    expect(parseDecimal('1 234,5')).toBe(1234.5);
    expect(parseDecimal('1,234.5')).toBe(1234.5);
    expect(parseDecimal('abc')).toBe('abc');
    expect(parseDecimal('')).toBe('');
  });
});
