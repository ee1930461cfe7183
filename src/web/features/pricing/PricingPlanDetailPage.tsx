/** `/pricing-plan/{id}`: the plan's form and, below it, the way to its roaming rules. */
import { PropertiesIcon } from '@blueprintjs/icons';
import { Button, H3 } from '@blueprintjs/core';
import { FormattedMessage } from 'react-intl';
import { useNavigate, useParams } from 'react-router-dom';
import EntityDetailPage from '@web/engine/EntityDetailPage';
import { findSchema, NEW_ID } from '@web/core/schemas';
import './pricing.css';

const planSchema = findSchema('pricingPlan')!;

export default function PricingPlanDetailPage() {
  const { id = NEW_ID } = useParams();
  const navigate = useNavigate();
  return (
    <>
      <EntityDetailPage schema={planSchema} />
      {id !== NEW_ID && (
        <section className="portal-page portal-rules-section">
          <H3>
            <FormattedMessage id="pricingRules.openRules" />
          </H3>
          <Button icon={<PropertiesIcon />} onClick={() => navigate(`/pricing-plan-rules/${encodeURIComponent(id)}`)} data-testid="plan-rules-link">
            <FormattedMessage id="pricingRules.openRulesButton" />
          </Button>
        </section>
      )}
    </>
  );
}
