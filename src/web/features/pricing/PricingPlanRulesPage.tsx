/**
 * `/pricing-plan-rules/{id}`: the roaming rules of one local plan in the spreadsheet grid, with rule files below;
 * `/pricing-plan-rules/{id}/{ruleId}` opens one rule's form (`new` for an empty one).
 */
import { ArrowLeftIcon } from '@blueprintjs/icons';
import { Button, H2 } from '@blueprintjs/core';
import { useCallback } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate, useParams } from 'react-router-dom';
import { entityEndpoints } from '@web/core/endpoints';
import { useMayWriteRows } from '@web/core/useCaller';
import { usePageTitle } from '@web/engine/pageTitle';
import { findSchema } from '@web/core/schemas';
import { RuleFilePanel } from './RuleFilePanel';
import { RuleFormPage } from './RuleFormPage';
import { ROAMING_RULES } from './ruleKinds';
import { RulesGrid } from './RulesGrid';

const planSchema = findSchema('pricingPlan')!;

/** A new rule starts in the plan's currency, today, without caps or discounts. */
export function newRoamingRule(currency: unknown) {
  return () => ({
    currency: typeof currency === 'string' && currency ? currency : 'USD',
    startDate: `${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`,
    dailyCap: false,
    discounted: false,
    hidden: false,
  });
}

export default function PricingPlanRulesPage() {
  const { id = '', ruleId } = useParams();
  const navigate = useNavigate();
  const plan = entityEndpoints(planSchema).get!.useQuery(id).data;
  // Whoever may not write the plan (an account's user) reads its rules only, as the server lets it.
  const readOnly = !useMayWriteRows(planSchema);
  const rulePath = useCallback((rule: string) => `/pricing-plan-rules/${encodeURIComponent(id)}/${encodeURIComponent(rule)}`, [id]);
  const newRow = useCallback(() => newRoamingRule(plan?.currency)(), [plan?.currency]);
  const back = `/pricing-plan-rules/${encodeURIComponent(id)}`;
  const intl = useIntl();
  const title = intl.formatMessage({ id: 'pricingRules.title' }, { plan: String(plan?.name ?? id) });
  usePageTitle(ruleId ? undefined : title);

  if (ruleId) return <RuleFormPage kind={ROAMING_RULES} planId={id} ruleId={ruleId} back={back} defaults={newRow} readOnly={readOnly} />;

  return (
    <div className="portal-page" data-testid="pricing-plan-rules">
      <header className="portal-page-header">
        <H2>{title}</H2>
        <Button variant="minimal" icon={<ArrowLeftIcon className="portal-mirror-rtl" />} onClick={() => navigate(`/pricing-plan/${encodeURIComponent(id)}`)}>
          <FormattedMessage id="entity.pricingPlan.single" />
        </Button>
      </header>
      <RulesGrid
        kind={ROAMING_RULES}
        planId={id}
        currency={typeof plan?.currency === 'string' ? plan.currency : undefined}
        newRow={newRow}
        rulePath={rulePath}
        readOnly={readOnly}
      />
      <RuleFilePanel planId={id} readOnly={readOnly} />
    </div>
  );
}
