import { Button, Callout, Classes, FormGroup, H3, HTMLSelect, InputGroup, Intent, TextArea } from '@blueprintjs/core';
import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { JOIN_PROVIDER_TYPES } from '@shared/join';
import { PRODUCT_URL } from '@web/core/config';
import { httpStatus } from '@web/core/apiErrors';
import { useCheckRobotMutation, useSendJoinRequestMutation } from '@web/core/accessApi';
import { fieldErrorsOf } from '@web/core/fieldErrors';
import { joinBody, joinMaxLength, joinProblems, type JoinField, type JoinValues } from './joinRules';
import { RobotCheck, type RobotCheckHandle, type RobotCheckState } from './RobotCheck';
import { messageOr } from '@web/core/messages';

type ProviderType = (typeof JOIN_PROVIDER_TYPES)[number];

/** Labels of the offered types; the value sent is the English name the server knows. */
const TYPE_LABELS: Record<ProviderType, string> = {
  'Mobile Operator': 'join.type.mobileOperator',
  'IoT provider': 'join.type.iotProvider',
  'A2P provider': 'join.type.a2pProvider',
  'eSIM reseller': 'join.type.esimReseller',
  'Service provider': 'join.type.serviceProvider',
};

/** The select's value for "Other": the visitor then types a type of their own. */
const OTHER = 'other';

type TextField = Exclude<JoinField, 'type'>;

const EMPTY: Record<TextField, string> = { firstName: '', lastName: '', email: '', company: '', phoneNumber: '', comment: '' };

type Robot =
  | { status: 'none' }
  | { status: 'checking' }
  | { status: 'passed'; payload: string }
  /** The server refused the solution (or a submission refused it): the widget was reset. */
  | { status: 'failed' };

type Outcome = { kind: 'idle' } | { kind: 'sent' } | { kind: 'failed'; fieldErrors: boolean };

/**
 * The join request ("request access"). Send stays disabled until every field holds, the phone number is valid
 * and the robot check passed. The widget's solution is checked with the server once, from its event handler.
 */
export function JoinForm() {
  const intl = useIntl();
  const [checkRobot] = useCheckRobotMutation();
  const [sendJoinRequest, { isLoading }] = useSendJoinRequestMutation();
  const [fields, setFields] = useState(EMPTY);
  const [typeChoice, setTypeChoice] = useState('');
  const [customType, setCustomType] = useState('');
  const [touched, setTouched] = useState<ReadonlySet<JoinField>>(new Set());
  const [focused, setFocused] = useState<JoinField | null>(null);
  const [serverErrors, setServerErrors] = useState<Partial<Record<JoinField | 'altcha', string>>>({});
  const [robot, setRobot] = useState<Robot>({ status: 'none' });
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const widget = useRef<RobotCheckHandle>(null);
  // Each solution goes to the server once: a second check of the same payload would answer false.
  const checkedPayloads = useRef(new Set<string>());

  const values: JoinValues = { ...fields, type: typeChoice === OTHER ? customType : typeChoice };
  const problems = joinProblems(values);
  if (typeChoice === OTHER && !customType.trim()) problems.type = 'validation.required';
  const ready = Object.keys(problems).length === 0 && robot.status === 'passed';

  const errorOf = (field: JoinField): string | undefined => {
    const server = serverErrors[field];
    if (server) return server;
    // The phone number is judged when the visitor leaves the field, not while typing it.
    if (!touched.has(field) || (field === 'phoneNumber' && focused === field)) return undefined;
    return problems[field] ? messageOr(intl, problems[field]) : undefined;
  };

  const edited = (field: JoinField) => {
    if (serverErrors[field]) setServerErrors(({ [field]: _gone, ...rest }) => rest);
  };

  const onVerified = async (payload: string) => {
    if (checkedPayloads.current.has(payload)) return;
    checkedPayloads.current.add(payload);
    setRobot({ status: 'checking' });
    const result = await checkRobot({ token: payload });
    if ('data' in result && result.data === true) {
      setRobot({ status: 'passed', payload });
      setServerErrors(({ altcha: _gone, ...rest }) => rest);
      return;
    }
    widget.current?.reset();
    setRobot({ status: 'failed' });
  };

  const onRobotState = (state: RobotCheckState) => {
    if (state === 'verifying') setRobot({ status: 'none' });
    // Expired or reset: a solution from before no longer counts; a refusal stays on screen.
    else if (state !== 'verified') setRobot((r) => (r.status === 'failed' ? r : { status: 'none' }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready || robot.status !== 'passed') return;
    const result = await sendJoinRequest(joinBody(values, robot.payload));
    if ('data' in result) {
      setOutcome({ kind: 'sent' });
      return;
    }
    const byField = fieldErrorsOf(result.error);
    const errors: Partial<Record<JoinField | 'altcha', string>> = {};
    for (const [field, error] of Object.entries(byField)) {
      errors[field as JoinField] = messageOr(intl, error.messageId, error.message);
    }
    if (byField.altcha) {
      // A refused or spent solution: the visitor solves a new challenge.
      widget.current?.reset();
      setRobot({ status: 'none' });
    }
    setServerErrors(errors);
    // Validation starts afresh: what the server found shows, the rest waits for the next edit.
    setTouched(new Set());
    setOutcome({ kind: 'failed', fieldErrors: httpStatus(result.error) === 400 && Object.keys(byField).length > 0 });
  };

  if (outcome.kind === 'sent') {
    return (
      <div className="portal-join-thanks" data-testid="join-thanks" role="status">
        <H3>
          <FormattedMessage id="join.thanks.title" />
        </H3>
        <p>
          <FormattedMessage id="join.thanks.body" />
        </p>
        <p>
          <a href={PRODUCT_URL} data-testid="join-product-link" target="_blank" rel="noopener noreferrer">
            <FormattedMessage id="join.thanks.link" />
          </a>
        </p>
      </div>
    );
  }

  const text = (field: TextField) => ({
    id: `join-${field}`,
    name: field,
    value: fields[field],
    intent: errorOf(field) ? Intent.DANGER : Intent.NONE,
    'aria-invalid': Boolean(errorOf(field)),
    'aria-describedby': errorOf(field) ? `join-${field}-error` : undefined,
    onFocus: () => setFocused(field),
    onBlur: () => {
      setFocused(null);
      setTouched((t) => new Set(t).add(field));
    },
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      const value = e.currentTarget.value;
      setFields((f) => ({ ...f, [field]: value }));
      edited(field);
    },
  });
  const group = (field: JoinField, label: string, required: boolean, labelFor = `join-${field}`) => ({
    label: intl.formatMessage({ id: label }),
    labelFor,
    labelInfo: required ? intl.formatMessage({ id: 'join.required' }) : undefined,
    intent: errorOf(field) ? Intent.DANGER : Intent.NONE,
    helperText: errorOf(field) ? <span id={`join-${field}-error`}>{errorOf(field)}</span> : undefined,
  });

  const commentLength = [...fields.comment].length;
  const commentMax = joinMaxLength('comment') ?? 0;
  const typeError = errorOf('type');

  return (
    <form className="portal-join" onSubmit={onSubmit} noValidate data-testid="join-form">
      <H3>
        <FormattedMessage id="join.title" />
      </H3>
      <p className="portal-login-intro">
        <FormattedMessage id="join.intro" />
      </p>
      {outcome.kind === 'failed' && (
        <Callout intent={Intent.DANGER} role="alert" data-testid="join-error" className="portal-login-error">
          <FormattedMessage id={outcome.fieldErrors ? 'join.error.fields' : 'join.error'} />
        </Callout>
      )}
      <div className="portal-form-row">
        <FormGroup {...group('firstName', 'join.firstName', false)}>
          <InputGroup {...text('firstName')} autoComplete="given-name" autoFocus />
        </FormGroup>
        <FormGroup {...group('lastName', 'join.lastName', true)}>
          <InputGroup {...text('lastName')} autoComplete="family-name" />
        </FormGroup>
      </div>
      <FormGroup {...group('email', 'join.email', true)}>
        <InputGroup {...text('email')} type="email" autoComplete="email" />
      </FormGroup>
      <FormGroup {...group('company', 'join.company', true)}>
        <InputGroup {...text('company')} autoComplete="organization" />
      </FormGroup>
      <FormGroup {...group('phoneNumber', 'join.phoneNumber', true)} subLabel={intl.formatMessage({ id: 'join.phoneNumber.hint' })}>
        <InputGroup {...text('phoneNumber')} type="tel" autoComplete="tel" placeholder="+44 20 7946 0958" dir="ltr" />
      </FormGroup>
      <FormGroup {...group('type', 'join.type', true, 'join-type')}>
        <HTMLSelect
          id="join-type"
          name="type"
          fill
          value={typeChoice}
          aria-invalid={Boolean(typeChoice !== OTHER && typeError)}
          onBlur={() => typeChoice !== OTHER && setTouched((t) => new Set(t).add('type'))}
          onChange={(e) => {
            const choice = e.currentTarget.value;
            setTypeChoice(choice);
            // A chosen type is judged at once; "Other" waits until its own text is left.
            setTouched((t) => {
              const next = new Set(t);
              next.delete('type');
              return choice === OTHER ? next : next.add('type');
            });
            edited('type');
          }}
        >
          <option value="" disabled>
            {intl.formatMessage({ id: 'join.type.choose' })}
          </option>
          {JOIN_PROVIDER_TYPES.map((type) => (
            <option key={type} value={type}>
              {intl.formatMessage({ id: TYPE_LABELS[type] })}
            </option>
          ))}
          <option value={OTHER}>{intl.formatMessage({ id: 'join.type.other' })}</option>
        </HTMLSelect>
        {typeChoice === OTHER && (
          <InputGroup
            id="join-customType"
            name="customType"
            className="portal-join-custom-type"
            value={customType}
            aria-label={intl.formatMessage({ id: 'join.type.custom' })}
            placeholder={intl.formatMessage({ id: 'join.type.custom' })}
            intent={typeError ? Intent.DANGER : Intent.NONE}
            aria-invalid={Boolean(typeError)}
            autoFocus
            onBlur={() => setTouched((t) => new Set(t).add('type'))}
            onChange={(e) => {
              setCustomType(e.currentTarget.value);
              edited('type');
            }}
          />
        )}
      </FormGroup>
      <FormGroup {...group('comment', 'join.comment', false)}>
        <TextArea {...text('comment')} fill rows={3} />
        <div
          className={`portal-counter ${commentLength > commentMax ? 'portal-counter-over' : Classes.TEXT_MUTED}`}
          data-testid="join-comment-counter"
          aria-live="polite"
        >
          <FormattedMessage id="join.comment.counter" values={{ count: commentLength, max: commentMax }} />
        </div>
      </FormGroup>
      <FormGroup
        label={intl.formatMessage({ id: 'join.robotCheck' })}
        intent={robot.status === 'failed' || serverErrors.altcha ? Intent.DANGER : Intent.NONE}
        helperText={
          robot.status === 'failed' ? (
            <span data-testid="robot-check-error">{messageOr(intl, 'validation.altcha.invalid')}</span>
          ) : serverErrors.altcha ? (
            <span data-testid="robot-check-error">{serverErrors.altcha}</span>
          ) : undefined
        }
      >
        <RobotCheck ref={widget} onVerified={onVerified} onStateChange={onRobotState} />
      </FormGroup>
      <Button type="submit" intent={Intent.PRIMARY} fill disabled={!ready} loading={isLoading} data-testid="join-submit">
        <FormattedMessage id="join.submit" />
      </Button>
    </form>
  );
}
