/**
 * The local and international plans of the user's reseller subtree, loaded once after sign-in and used wherever
 * a screen names a plan by its id. A plan outside the list was set by an ancestor the user cannot see.
 */
import type { IntlShape } from 'react-intl';
import type { SelectOption } from './types';
import { enhancedApi } from './pricingPlansApi.gen';

export interface PricingPlanLists {
  pricingPlans: { pricingPlanId: number; pricingPlanName: string; assignable: boolean }[];
  internationalPricingPlans: { internationalPricingPlanId: number; internationalPricingPlanName: string }[];
}

/** The id that means "no plan". */
export const NO_PLAN = -1;

/** References (`x-reference`) that name a plan of these lists. */
export type PlanReference = 'pricingPlan' | 'internationalPlan';

export function isPlanReference(reference: string | undefined): reference is PlanReference {
  return reference === 'pricingPlan' || reference === 'internationalPlan';
}

export const pricingPlansApi = enhancedApi.enhanceEndpoints({
  endpoints: {
    getPricingPlans: {
      providesTags: [
        { type: 'pricingPlan', id: 'LIST' },
        { type: 'internationalPlan', id: 'LIST' },
      ],
    },
  },
});

export const { useGetPricingPlansQuery } = pricingPlansApi;

/**
 * The plans of one kind the user sees, as select options; the plan its parent assigned its own reseller, which the
 * server refuses anywhere else, is marked `assignable: false`: named as a value already set, never offered (see
 * `planChoices` and `assignablePlans`).
 */
export function planOptions(lists: PricingPlanLists, reference: PlanReference): SelectOption[] {
  return reference === 'pricingPlan'
    ? lists.pricingPlans.map((p) => ({ value: p.pricingPlanId, label: p.pricingPlanName, ...(p.assignable ? {} : { assignable: false }) }))
    : lists.internationalPricingPlans.map((p) => ({ value: p.internationalPricingPlanId, label: p.internationalPricingPlanName }));
}

/** The options a user may give. */
export const assignablePlans = (options: readonly SelectOption[]) => options.filter((o) => o.assignable !== false);

/**
 * A plan's choices for a form: "N/D" for no plan first, then the plans offered, and the current value when it is not
 * among them: by its name when the user sees it (`known`), else as "Set by admin", so it is kept rather than shown as a
 * bare number.
 */
export function planChoices(visible: readonly SelectOption[], value: unknown, intl: IntlShape, known: readonly SelectOption[] = []): SelectOption[] {
  const choices: SelectOption[] = [{ value: NO_PLAN, label: intl.formatMessage({ id: 'pricingPlan.none' }) }, ...visible];
  const empty = value === undefined || value === null || value === '';
  if (!empty && !choices.some((c) => String(c.value) === String(value))) {
    const named = known.find((c) => String(c.value) === String(value));
    choices.push({ value: value as number, label: named?.label ?? intl.formatMessage({ id: 'pricingPlan.setByAdmin' }) });
  }
  return choices;
}
