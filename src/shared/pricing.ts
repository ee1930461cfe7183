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

/** Rates and prices carry up to six decimals; at least two are shown, as money reads. */
export const RATE_DECIMALS = 6;

/**
 * A rate or price in the reader's locale, in its currency when it has a valid one (else as a plain amount):
 * `formatRate('de', 0.0035, 'EUR')` is "0,0035 €". Shows every stored decimal, so nothing is rounded away.
 */
export function formatRate(locale: string, value: number, currency?: string): string {
  const digits = { minimumFractionDigits: 2, maximumFractionDigits: RATE_DECIMALS };
  if (currency && /^[A-Z]{3}$/.test(currency)) {
    try {
      return new Intl.NumberFormat(locale, { ...digits, style: 'currency', currency }).format(value);
    } catch {
      // An unknown currency code reads as a plain amount.
    }
  }
  return new Intl.NumberFormat(locale, digits).format(value);
}

/**
 * A decimal typed or pasted by a person: "0.05", "0,05" (a decimal comma), "1 234,5" or "1,234.5". Answers the
 * number, or the text unchanged when it is not one, so validation names the mistake instead of losing it.
 */
export function parseDecimal(text: string): number | string {
  const compact = text.trim().replace(/[\s\u00a0\u202f']/g, '');
  const lastComma = compact.lastIndexOf(',');
  const lastDot = compact.lastIndexOf('.');
  // The later of comma and dot is the decimal separator; the other groups thousands.
  const normal = lastComma > lastDot ? compact.replace(/\./g, '').replace(',', '.') : compact.replace(/,/g, '');
  return /^-?\d+(\.\d+)?$/.test(normal) ? Number(normal) : text;
}
