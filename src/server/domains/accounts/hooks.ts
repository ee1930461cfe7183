import { sql, type Kysely } from 'kysely';
import type { Principal } from '../../http/principal';
import type { EntityHooks } from '../../engine/routes';
import { fieldError, invalid } from '../../http/errors';

/** The plan fields of an account, the table each names a row of, and the message for one out of reach. */
const PLAN_FIELDS = [
  { field: 'pricingPlanId', table: 'pricing_plan', message: 'validation.pricingPlan.unknown' },
  { field: 'internationalPricingPlanId', table: 'international_plan', message: 'validation.internationalPlan.unknown' },
] as const;

/** -1 (and no value) means no plan: the portal shows it as N/D. */
const NO_PLAN = -1;

async function visiblePlan(trx: Kysely<any>, table: string, id: number, principal: Principal): Promise<boolean> {
  const row = await trx.selectFrom(`${table} as p`).innerJoin('reseller as r', 'r.id', 'p.resellerId')
    .where('p.id', '=', id).where('r.path', 'like', sql<string>`${principal.resellerPath} || '%'`)
    .select('p.id').executeTakeFirst();
  return row !== undefined;
}

/**
 * Accounts: a plan chosen for an account must be one the editor can see. A plan an ancestor (the administrator)
 * set stays as it is while the editor leaves it unchanged, though the editor cannot see it ('Set by admin').
 */
export const accountHooks: EntityHooks = {
  async beforeWrite({ mode, values, existing, principal, trx }) {
    const errors = [];
    for (const { field, table, message } of PLAN_FIELDS) {
      const id = values[field];
      if (typeof id !== 'number' || id === NO_PLAN) continue;
      if (mode === 'update' && existing?.[field] === id) continue;
      if (!(await visiblePlan(trx, table, id, principal))) errors.push(fieldError(field, 'exists', message));
    }
    if (errors.length) throw invalid(errors);
    return values;
  },
};
