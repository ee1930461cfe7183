/** The plan lists `GET /portal/pricing-plans/` returns, used wherever a screen names a plan. */
export interface PlanLists {
  pricingPlans: { pricingPlanId: number; pricingPlanName: string }[];
  internationalPricingPlans: { internationalPricingPlanId: number; internationalPricingPlanName: string }[];
}

/** What a plan id reads as: its name; 'N/D' (not defined) for -1; 'Set by admin' for a plan the caller cannot see. */
export type PlanLabel = { kind: 'name'; name: string } | { kind: 'notDefined' } | { kind: 'setByAdmin' };

export function planLabel(lists: PlanLists | undefined, id: number | null | undefined, international = false): PlanLabel {
  if (id === -1 || id === null || id === undefined) return { kind: 'notDefined' };
  const name = international
    ? lists?.internationalPricingPlans.find((p) => p.internationalPricingPlanId === id)?.internationalPricingPlanName
    : lists?.pricingPlans.find((p) => p.pricingPlanId === id)?.pricingPlanName;
  return name === undefined ? { kind: 'setByAdmin' } : { kind: 'name', name };
}

/** Message ids of the two labels that are not names. */
export const PLAN_LABEL_MESSAGES = { notDefined: 'entity.pricingPlan.notDefined', setByAdmin: 'entity.pricingPlan.setByAdmin' } as const;
