/**
 * The pieces every range form shares: the range's own fields (range type, start, end and the quantity they
 * span), the choice of an account or a profile, and the server's refusal, worded as the server words it, with
 * the subscribers it names linked to their pages.
 */
import { Button, Callout, Classes, FormGroup, HTMLSelect, Intent } from '@blueprintjs/core';
import { useState, type FormEvent, type ReactElement, type ReactNode } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { Link } from 'react-router-dom';
import type { FieldError } from '@shared/wire';
import { LabelledInput } from '@web/ui/LabelledInput';
import { apiErrorOf, httpStatus, type QueryError } from '@web/core/apiErrors';
import { RANGE_MAX, RANGE_TYPES, rangeFieldOf, rangeProblems, rangeQuantity, type RangeField, type RangeType } from './range';
import { messageOr } from '@web/core/messages';

/** A refusal naming subscribers: the server adds them (the first 100) and their count to the field error. */
type Refusal = FieldError & { subscriberIds?: number[]; count?: number };

/** The server's text of an error in the user's language when the catalogue has it, else as the server sent it. */
export function serverText(intl: IntlShape, error: { messageId: string; message: string }): string {
  return messageOr(intl, error.messageId, error.message);
}

/** The typed range of a form: its values, which fields were left, and the checks to show. */
export function useRangeInput() {
  const [type, setType] = useState<RangeType>('SUBSCRIBER_ID');
  const [values, setValues] = useState<Record<RangeField, string>>({ rangeStart: '', rangeEnd: '' });
  const [left, setLeft] = useState<ReadonlySet<RangeField>>(new Set());
  const problems = rangeProblems(type, values.rangeStart, values.rangeEnd);
  return {
    type,
    setType,
    values,
    set: (field: RangeField, value: string) => setValues((was) => ({ ...was, [field]: value })),
    leave: (field: RangeField) => setLeft((was) => new Set([...was, field])),
    /** Marks both fields as left (a submit), and tells whether the range holds. */
    check: () => {
      setLeft(new Set(['rangeStart', 'rangeEnd']));
      return !problems.rangeStart && !problems.rangeEnd;
    },
    shown: (field: RangeField) => (left.has(field) ? problems[field] : undefined),
    quantity: rangeQuantity(type, values.rangeStart, values.rangeEnd),
    range: { rangeStart: values.rangeStart.trim(), rangeEnd: values.rangeEnd.trim() },
  };
}

export type RangeInput = ReturnType<typeof useRangeInput>;

/** The server's errors of the range fields, by field. */
function serverRangeErrors(intl: IntlShape, error: QueryError): Partial<Record<RangeField, string>> {
  const found: Partial<Record<RangeField, string>> = {};
  for (const f of apiErrorOf(error)?.fields ?? []) {
    const field = rangeFieldOf(f.field);
    if (field) found[field] ??= serverText(intl, f);
  }
  return found;
}

/** The message of the server's error naming `field` (and no subscribers), to show under that field. */
export function serverFieldText(intl: IntlShape, error: QueryError, field: string): string | undefined {
  const found = (apiErrorOf(error)?.fields as Refusal[] | undefined)?.find((f) => f.field === field && !f.subscriberIds);
  return found ? serverText(intl, found) : undefined;
}

interface RangeFieldsProps {
  input: RangeInput;
  /** Prefix of the inputs' ids, unique on the page. */
  idPrefix: string;
  /** The last call's error: its range field errors show under the fields. */
  error?: QueryError;
  /** Offer the range types (else subscriber ids only). */
  withType?: boolean;
}

export function RangeFields({ input, idPrefix, error, withType }: RangeFieldsProps) {
  const intl = useIntl();
  const server = serverRangeErrors(intl, error);
  const label = (field: RangeField) => intl.formatMessage({ id: field === 'rangeStart' ? 'assign.range.start' : 'assign.range.end' });
  const message = (field: RangeField) => {
    const problem = input.shown(field);
    return problem ? intl.formatMessage({ id: problem }, { field: label(field) }) : server[field];
  };
  return (
    <div className="portal-assign-range">
      {withType && (
        <FormGroup className="portal-assign-wide" label={intl.formatMessage({ id: 'assign.rangeType' })} labelFor={`${idPrefix}-rangeType`}>
          <HTMLSelect
            id={`${idPrefix}-rangeType`}
            value={input.type}
            onChange={(e) => input.setType(e.currentTarget.value as RangeType)}
            options={RANGE_TYPES.map((t) => ({ value: t, label: intl.formatMessage({ id: `assign.rangeType.${t}` }) }))}
            data-testid={`${idPrefix}-rangeType`}
          />
        </FormGroup>
      )}
      {(['rangeStart', 'rangeEnd'] as const).map((field) => (
        <LabelledInput
          key={field}
          id={`${idPrefix}-${field}`}
          label={label(field)}
          value={input.values[field]}
          onChange={(e) => input.set(field, e.currentTarget.value)}
          onBlur={() => input.leave(field)}
          inputMode="numeric"
          autoComplete="off"
          dir="ltr"
          error={message(field)}
          errorRole={input.shown(field) ? undefined : 'alert'}
          data-testid={`${idPrefix}-${field}`}
        />
      ))}
      <FormGroup
        className="portal-assign-wide"
        label={intl.formatMessage({ id: 'assign.quantity' })}
        helperText={intl.formatMessage({ id: 'assign.quantity.limit' }, { max: RANGE_MAX })}
      >
        <output className="portal-assign-quantity" data-testid={`${idPrefix}-quantity`} aria-live="polite">
          {input.quantity === undefined ? (
            <span className={Classes.TEXT_MUTED}>–</span>
          ) : (
            <FormattedMessage id="assign.quantity.value" values={{ count: Number(input.quantity) }} />
          )}
        </output>
      </FormGroup>
    </div>
  );
}

/** One choice from a list; while the list cannot be had (e.g. no privilege to read it), its id is typed. */
export function Choice({
  id,
  label,
  value,
  onChange,
  options,
  error,
  required,
  testId,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  options?: { value: number; label: string }[];
  error?: string;
  required?: boolean;
  testId: string;
}) {
  const intl = useIntl();
  if (!options) {
    return (
      <LabelledInput
        id={id}
        label={label}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        inputMode="numeric"
        dir="ltr"
        error={error}
        data-testid={testId}
      />
    );
  }
  return (
    <FormGroup
      label={label}
      labelFor={id}
      labelInfo={required ? intl.formatMessage({ id: 'form.required' }) : undefined}
      intent={error ? Intent.DANGER : Intent.NONE}
      helperText={error}
    >
      <HTMLSelect
        id={id}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        options={[
          { value: '', label: intl.formatMessage({ id: required ? 'form.select.placeholder' : 'assign.any' }) },
          ...options.map((o) => ({ value: String(o.value), label: o.label })),
        ]}
        aria-invalid={Boolean(error)}
        data-testid={testId}
      />
    </FormGroup>
  );
}

/** Subscriber ids as links to their pages. */
function SubscriberLinks({ ids, count }: { ids: number[]; count: number }) {
  return (
    <span className="portal-assign-ids" data-testid="refusal-subscribers">
      {ids.map((id) => (
        <Link key={id} to={`/subscriber/${id}`} dir="ltr">
          {id}
        </Link>
      ))}
      {count > ids.length && <FormattedMessage id="assign.refusal.more" values={{ count: count - ids.length }} />}
    </span>
  );
}

/**
 * A failed call: the errors not shown under a field of the form (those of `inline`), and every refusal that names
 * subscribers with how many there are and links to them.
 */
export function RefusalCallout({ error, inline, testId }: { error: QueryError; inline: readonly string[]; testId: string }) {
  const intl = useIntl();
  if (!error) return null;
  const apiError = apiErrorOf(error);
  const fields = ((apiError?.fields ?? []) as Refusal[]).filter((f) => f.subscriberIds || !(inline.includes(f.field) || rangeFieldOf(f.field)));
  const status = httpStatus(error);
  const general = status === 403 ? intl.formatMessage({ id: 'error.forbidden' }) : apiError && !apiError.fields?.length ? apiError.message : undefined;
  if (!fields.length && !general && apiError?.fields?.length) return null;
  let body: ReactNode;
  if (fields.length) {
    body = (
      <ul className="portal-assign-refusals">
        {fields.map((f) => (
          <li key={`${f.field}:${f.messageId}`} data-testid="refusal" data-rule={f.rule}>
            {serverText(intl, f)}
            {f.subscriberIds && (
              <div className="portal-assign-named">
                <FormattedMessage id="assign.refusal.count" values={{ count: f.count ?? f.subscriberIds.length }} />{' '}
                <SubscriberLinks ids={f.subscriberIds} count={f.count ?? f.subscriberIds.length} />
              </div>
            )}
          </li>
        ))}
      </ul>
    );
  } else body = general ?? intl.formatMessage({ id: 'app.error.generic' });
  return (
    <Callout intent={Intent.DANGER} role="alert" title={intl.formatMessage({ id: 'assign.refused' })} className="portal-assign-callout" data-testid={testId}>
      {body}
    </Callout>
  );
}

interface RangeFormProps {
  /** Names the form's test ids (`assign-<name>`, `<name>-submit`, `<name>-refusal`) and its inputs' ids. */
  name: string;
  input: RangeInput;
  /** Message ids of the sentence above the form and of its button. */
  intro: string;
  submit: string;
  icon: ReactElement;
  withType?: boolean;
  /** The last call: its range errors show under the range, the others under their field or in the refusal. */
  call: { isLoading: boolean; error?: QueryError };
  /** Fields of the form that show the server's error for themselves. */
  inline: readonly string[];
  /** Checks the form's other fields and sends the call; the range is checked first. */
  onSubmit: (rangeHolds: boolean) => void;
  /** The fields below the range. */
  children?: ReactNode;
  /** What the call answered. */
  result?: ReactNode;
}

/** One range form: the intro, the range, the form's own fields, the button, the refusal and the result. */
export function RangeForm({ name, input, intro, submit, icon, withType, call, inline, onSubmit, children, result }: RangeFormProps) {
  const send = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(input.check());
  };
  return (
    <form onSubmit={send} noValidate className="portal-assign-form" data-testid={`assign-${name}`}>
      <p className="portal-page-intro">
        <FormattedMessage id={intro} />
      </p>
      <RangeFields input={input} idPrefix={name} error={call.error} withType={withType} />
      {children}
      <Button type="submit" intent={Intent.PRIMARY} icon={icon} loading={call.isLoading} data-testid={`${name}-submit`}>
        <FormattedMessage id={submit} />
      </Button>
      {call.error && <RefusalCallout error={call.error} inline={inline} testId={`${name}-refusal`} />}
      {result}
    </form>
  );
}
