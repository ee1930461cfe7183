import { describe, expect, it } from 'vitest';
import { planLabel } from './pricing';

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
