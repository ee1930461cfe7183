/** `/pricing-plan/{id}`: the plan's form, and the way to its roaming rules. */
import { PropertiesIcon } from '@blueprintjs/icons';
import { Button } from '@blueprintjs/core';
import { FormattedMessage } from 'react-intl';
import { useNavigate, useParams } from 'react-router-dom';
import EntityDetailPage from '@web/engine/EntityDetailPage';
import { findSchema, NEW_ID } from '@web/engine/schemas';

const planSchema = findSchema('pricingPlan')!;

export default function PricingPlanDetailPage() {
  const { id = NEW_ID } = useParams();
  const navigate = useNavigate();
  return (
    <>
      {id !== NEW_ID && (
        <div className="portal-plan-rules-link">
          <Button icon={<PropertiesIcon />} onClick={() => navigate(`/pricing-plan-rules/${encodeURIComponent(id)}`)} data-testid="plan-rules-link">
            <FormattedMessage id="pricingRules.openRules" />
          </Button>
        </div>
      )}
      <EntityDetailPage schema={planSchema} />
    </>
  );
}
