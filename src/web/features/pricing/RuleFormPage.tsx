/** One rule of a plan in the schema's form: loaded through its plan, saved with the rule calls. */
import { ArrowLeftIcon, ErrorIcon, SearchIcon, TickIcon } from '@blueprintjs/icons';
import { Button, H2, Intent, NonIdealState } from '@blueprintjs/core';
import { lazy, Suspense, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import type { FieldError } from '@shared/wire';
import { Loading } from '@web/ui/Loading';
import { apiErrorOf, httpStatus } from '@web/core/apiErrors';
import { NEW_ID } from '@web/core/schemas';
import { showToast } from '@web/ui/toaster';
import { usePageTitle } from '@web/engine/pageTitle';
import type { EntityRow } from '@web/core/types';
import type { RuleKind } from './ruleKinds';
import { usePlanRuleQuery, useSavePlanRuleMutation } from './rulesApi';

const EntityForm = lazy(() => import('@web/engine/form/EntityForm'));

export interface RuleFormPageProps {
  kind: RuleKind;
  planId: string;
  ruleId: string;
  /** Where Cancel and the back button lead. */
  back: string;
  defaults: () => EntityRow;
  /** Only to read (a user the server would refuse): the rule's form without Save, and no new rule. */
  readOnly?: boolean;
}

export function RuleFormPage({ kind, planId, ruleId, back, defaults, readOnly = false }: RuleFormPageProps) {
  const intl = useIntl();
  const navigate = useNavigate();
  const creating = ruleId === NEW_ID;
  const rule = usePlanRuleQuery({ kind: kind.name, planId, ruleId }, { skip: creating });
  const [save, saving] = useSavePlanRuleMutation();
  const [serverErrors, setServerErrors] = useState<FieldError[]>([]);
  const entity = intl.formatMessage({ id: `entity.${kind.schema['x-entity'].name}.single` });
  const title = creating ? intl.formatMessage({ id: 'form.create.title' }, { entity }) : intl.formatMessage({ id: 'form.edit.title' }, { entity, id: ruleId });
  usePageTitle(title);

  const onSubmit = async (data: EntityRow) => {
    setServerErrors([]);
    const answer = await save({ kind: kind.name, planId, ruleId: creating ? undefined : ruleId, rule: data });
    if (answer.error) {
      setServerErrors(apiErrorOf(answer.error)?.fields ?? []);
      showToast({
        intent: Intent.DANGER,
        icon: <ErrorIcon />,
        message: intl.formatMessage({ id: 'form.saveError' }, { message: intl.formatMessage({ id: 'error.validation' }) }),
      });
      return;
    }
    showToast({ intent: Intent.SUCCESS, icon: <TickIcon />, message: intl.formatMessage({ id: 'form.saved' }) });
    if (creating) navigate(back);
  };

  const missing = creating ? readOnly : [400, 403, 404].includes(httpStatus(rule.error) ?? 0);
  return (
    <div className="portal-page portal-detail" data-testid="rule-form">
      <header className="portal-page-header">
        <H2>{title}</H2>
        <Button variant="minimal" icon={<ArrowLeftIcon className="portal-mirror-rtl" />} onClick={() => navigate(back)}>
          <FormattedMessage id="pricingRules.backToRules" />
        </Button>
      </header>
      {missing ? (
        <NonIdealState icon={<SearchIcon size={48} />} description={<FormattedMessage id="form.notFound" />} />
      ) : !creating && !rule.data ? (
        <Loading />
      ) : (
        <Suspense fallback={<Loading />}>
          <EntityForm
            schema={kind.schema}
            formData={creating ? defaults() : rule.data}
            onSubmit={onSubmit}
            submitting={saving.isLoading}
            serverErrors={serverErrors}
            onCancel={() => navigate(back)}
            readOnly={readOnly}
          />
        </Suspense>
      )}
    </div>
  );
}
