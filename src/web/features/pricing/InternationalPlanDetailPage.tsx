/** `/international-pricing-plan/{id}`: the plan's form and, below it, its international rules to edit in place. */
import { H3 } from '@blueprintjs/core';
import { FormattedMessage } from 'react-intl';
import { useParams } from 'react-router-dom';
import EntityDetailPage from '@web/engine/EntityDetailPage';
import { findSchema, NEW_ID } from '@web/core/schemas';
import { useMayWriteRows } from '@web/core/useCaller';
import { INTERNATIONAL_RULES } from './ruleKinds';
import { RulesGrid } from './RulesGrid';
import './pricing.css';

const planSchema = findSchema('internationalPlan')!;

/** A new international rule: mobile numbers, from today, shown. */
function newInternationalRule() {
  return { countryGroup: 'Mobile', startDate: `${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`, hidden: false };
}

export default function InternationalPlanDetailPage() {
  const { id = NEW_ID } = useParams();
  const readOnly = !useMayWriteRows(planSchema);
  return (
    <>
      <EntityDetailPage schema={planSchema} />
      {id !== NEW_ID && (
        <section className="portal-page portal-rules-section" data-testid="international-rules">
          <H3>
            <FormattedMessage id="entity.internationalRule.title" />
          </H3>
          <RulesGrid kind={INTERNATIONAL_RULES} planId={id} currency="USD" newRow={newInternationalRule} readOnly={readOnly} />
        </section>
      )}
    </>
  );
}
