/** What every panel of the subscriber shares: the panel frame, its labels, load errors and the field form. */
import { Callout, Intent, Section, SectionCard } from '@blueprintjs/core';
import { Suspense, lazy, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { CustomFieldDefinition } from '@shared/customFields';
import type { EntitySchema } from '@shared/schema';
import type { FieldError } from '@shared/wire';
import { Loading } from '@web/ui/Loading';
import { apiErrorOf } from '@web/core/apiErrors';
import { entityEndpoints } from '@web/core/endpoints';
import { showToast } from '@web/ui/toaster';
import type { EntityRow } from '@web/core/types';
import { errorText } from '../operations';

const EntityForm = lazy(() => import('@web/engine/form/EntityForm'));

export type Subscriber = EntityRow & {
  subscriberId: number;
  name?: string | null;
  status?: 'active' | 'suspended';
  imsi?: string;
  iccid?: string;
  msisdn?: string | null;
  pricingPlanId?: number | null;
};

export interface PanelProps {
  subscriber: Subscriber;
  schema: EntitySchema;
}

/** One panel: a titled section; `wide` ones (the logs) span the whole row. */
export function Panel({ id, title, wide, actions, children }: { id: string; title: string; wide?: boolean; actions?: ReactNode; children: ReactNode }) {
  return (
    <Section
      className={wide ? 'portal-panel portal-panel-wide' : 'portal-panel'}
      compact
      title={title}
      rightElement={actions ? <div className="portal-panel-actions">{actions}</div> : undefined}
      data-testid={`panel-${id}`}
    >
      <SectionCard>{children}</SectionCard>
    </Section>
  );
}

export function useLabel() {
  const intl = useIntl();
  return (id: string) => intl.formatMessage({ id });
}
export const field = (name: string) => `entity.subscriber.field.${name}`;

export function LoadError({ error }: { error: unknown }) {
  const intl = useIntl();
  return <Callout intent={Intent.DANGER}>{errorText(intl, error as never)}</Callout>;
}

export function Empty() {
  return (
    <p className="portal-empty">
      <FormattedMessage id="subscriber.empty" />
    </p>
  );
}

/** Edits some of the subscriber's own fields with the schema's form and rules. */
export function FieldsForm({
  subscriber,
  schema,
  fields,
  customFields,
}: PanelProps & { fields: readonly string[]; customFields?: readonly CustomFieldDefinition[] }) {
  const intl = useIntl();
  const [update, state] = entityEndpoints(schema).update!.useMutation();
  const [serverErrors, setServerErrors] = useState<FieldError[]>([]);
  const submit = async (data: Record<string, unknown>) => {
    setServerErrors([]);
    // Every writable field goes along, as read with the row: an update keeps what it is sent.
    const result = await update({ ...data, subscriberId: subscriber.subscriberId });
    if (result.error) {
      setServerErrors(apiErrorOf(result.error)?.fields ?? []);
      showToast({ intent: Intent.DANGER, message: intl.formatMessage({ id: 'form.saveError' }, { message: errorText(intl, result.error) }) });
    } else showToast({ intent: Intent.SUCCESS, message: intl.formatMessage({ id: 'form.saved' }) });
  };
  return (
    <Suspense fallback={<Loading />}>
      <EntityForm
        schema={schema}
        formData={subscriber}
        fields={fields}
        onSubmit={submit}
        submitting={state.isLoading}
        serverErrors={serverErrors}
        customFields={customFields}
      />
    </Suspense>
  );
}
