/**
 * The two kinds of plan rules the portal edits in a grid: roaming rules of a local plan and international rules
 * of an international plan. Each is a child schema (schemas/children/) reached through its plan's API path.
 */
import type { EntitySchema } from '@shared/schema';
import internationalRule from '@schemas/children/international-rule.json';
import roamingRule from '@schemas/children/roaming-rule.json';

export type RuleKindName = 'roaming' | 'international';

export interface RuleKind {
  name: RuleKindName;
  schema: EntitySchema;
  /** The cache tag of the plan entity, so a rule change refreshes what reads the plan's rules. */
  planTag: 'pricingPlan' | 'internationalPlan';
  /** The API path of one plan's rules, under the configured base. */
  rulesPath: (planId: string | number) => string;
  /** Whether the kind has rule files (upload and download). */
  files: boolean;
}

export const ROAMING_RULES: RuleKind = {
  name: 'roaming',
  schema: roamingRule as unknown as EntitySchema,
  planTag: 'pricingPlan',
  rulesPath: (planId) => `/pricing-plans/local/${encodeURIComponent(String(planId))}/rules`,
  files: true,
};

export const INTERNATIONAL_RULES: RuleKind = {
  name: 'international',
  schema: internationalRule as unknown as EntitySchema,
  planTag: 'internationalPlan',
  rulesPath: (planId) => `/pricing-plans/international/${encodeURIComponent(String(planId))}/rules`,
  files: false,
};

export const RULE_KINDS: Record<RuleKindName, RuleKind> = { roaming: ROAMING_RULES, international: INTERNATIONAL_RULES };
