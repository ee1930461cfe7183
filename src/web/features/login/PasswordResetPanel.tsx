import { Button, Callout, H3, Intent } from '@blueprintjs/core';
import { LabelledInput } from '@web/ui/LabelledInput';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { apiErrorOf } from '@web/core/apiErrors';
import { NewPasswordFields } from '@web/ui/password/NewPasswordFields';
import { EMPTY_NEW_PASSWORD, newPasswordProblems, type NewPasswordValues } from '@web/ui/password/newPassword';
import { usePutUserPasswordResetMutation } from '@web/core/accessApi';
import { fieldErrorsOf } from '@web/core/fieldErrors';
import { joinFieldProblem } from './joinRules';
import { BackToSignIn } from './BackToSignIn';
import { messageOr } from '@web/core/messages';

interface Props {
  /** The reset token from the address (`password_reset`); without it the panel asks for an e-mail address. */
  token: string | null;
  onBack(): void;
  /** The link was refused: ask for a new one. */
  onRequestNewLink(): void;
}

/** The password-reset panel of the login screen: ask for a link, or set a new password with one. */
export function PasswordResetPanel({ token, onBack, onRequestNewLink }: Props) {
  return token ? <NewPasswordForm key={token} token={token} onBack={onBack} onRequestNewLink={onRequestNewLink} /> : <ResetRequestForm onBack={onBack} />;
}

type RequestOutcome = { kind: 'idle' } | { kind: 'sent' } | { kind: 'failed'; message: string };

/** Asks for a reset link. The answer reads the same whether or not the address is known; the field clears after it. */
function ResetRequestForm({ onBack }: { onBack(): void }) {
  const intl = useIntl();
  const [requestReset, { isLoading }] = usePutUserPasswordResetMutation();
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const [outcome, setOutcome] = useState<RequestOutcome>({ kind: 'idle' });
  // The e-mail rule of the join form, the one the server applies here too.
  const problem = joinFieldProblem('email', email);
  const error = touched && problem ? messageOr(intl, problem) : undefined;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem) return;
    const result = await requestReset({ email: email.trim() });
    if ('data' in result) setOutcome({ kind: 'sent' });
    else {
      const fieldError = fieldErrorsOf(result.error).email;
      console.warn('Password reset request failed', apiErrorOf(result.error)?.code);
      setOutcome({
        kind: 'failed',
        message: fieldError ? messageOr(intl, fieldError.messageId, fieldError.message) : intl.formatMessage({ id: 'reset.error' }),
      });
    }
    setEmail('');
    setTouched(false);
  };

  return (
    <form className="portal-reset" onSubmit={onSubmit} noValidate data-testid="reset-request-form">
      <H3>
        <FormattedMessage id="reset.title" />
      </H3>
      <p className="portal-login-intro">
        <FormattedMessage id="reset.intro" />
      </p>
      {outcome.kind === 'sent' && (
        <Callout intent={Intent.SUCCESS} role="status" className="portal-login-error" data-testid="reset-message">
          <FormattedMessage id="reset.requested" />
        </Callout>
      )}
      {outcome.kind === 'failed' && (
        <Callout intent={Intent.DANGER} role="alert" className="portal-login-error" data-testid="reset-error">
          {outcome.message}
        </Callout>
      )}
      <LabelledInput
        id="reset-email"
        label={intl.formatMessage({ id: 'reset.email' })}
        error={error}
        name="email"
        type="email"
        autoComplete="email"
        autoFocus
        value={email}
        onBlur={() => email && setTouched(true)}
        onChange={(e) => setEmail(e.currentTarget.value)}
      />
      <Button type="submit" intent={Intent.PRIMARY} fill loading={isLoading} data-testid="reset-submit">
        <FormattedMessage id="reset.submit" />
      </Button>
      <BackToSignIn onBack={onBack} />
    </form>
  );
}

type NewPasswordOutcome = { kind: 'idle' } | { kind: 'done' } | { kind: 'tokenInvalid' } | { kind: 'failed' };

/** Sets a new password with the token of a reset link. */
function NewPasswordForm({ token, onBack, onRequestNewLink }: { token: string } & Omit<Props, 'token'>) {
  const intl = useIntl();
  const [resetPassword, { isLoading }] = usePutUserPasswordResetMutation();
  const [values, setValues] = useState<NewPasswordValues>(EMPTY_NEW_PASSWORD);
  const [serverError, setServerError] = useState<string>();
  const [outcome, setOutcome] = useState<NewPasswordOutcome>({ kind: 'idle' });
  const ready = Object.keys(newPasswordProblems(values)).length === 0;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    const result = await resetPassword({ newPassword: values.newPassword, token });
    if ('data' in result) {
      setOutcome({ kind: 'done' });
      return;
    }
    const apiError = apiErrorOf(result.error);
    const fieldError = fieldErrorsOf(result.error).newPassword;
    if (apiError?.code === 'RESET_TOKEN_INVALID') setOutcome({ kind: 'tokenInvalid' });
    else if (fieldError) {
      setServerError(messageOr(intl, fieldError.messageId, fieldError.message));
      setOutcome({ kind: 'idle' });
    } else setOutcome({ kind: 'failed' });
  };

  if (outcome.kind === 'done' || outcome.kind === 'tokenInvalid') {
    const done = outcome.kind === 'done';
    return (
      <div className="portal-reset" data-testid={done ? 'reset-done' : 'reset-token-invalid'}>
        <H3>
          <FormattedMessage id="reset.newPassword.title" />
        </H3>
        <Callout intent={done ? Intent.SUCCESS : Intent.DANGER} role={done ? 'status' : 'alert'} className="portal-login-error" data-testid="reset-message">
          <FormattedMessage id={done ? 'reset.done' : 'reset.tokenInvalid'} />
        </Callout>
        {done ? (
          <Button intent={Intent.PRIMARY} fill onClick={onBack} data-testid="back-to-sign-in">
            <FormattedMessage id="login.backToSignIn" />
          </Button>
        ) : (
          <>
            <Button intent={Intent.PRIMARY} fill onClick={onRequestNewLink} data-testid="reset-request-new-link">
              <FormattedMessage id="reset.requestNewLink" />
            </Button>
            <BackToSignIn onBack={onBack} />
          </>
        )}
      </div>
    );
  }

  return (
    <form className="portal-reset" onSubmit={onSubmit} noValidate data-testid="reset-new-password-form">
      <H3>
        <FormattedMessage id="reset.newPassword.title" />
      </H3>
      <p className="portal-login-intro">
        <FormattedMessage id="reset.newPassword.intro" />
      </p>
      {outcome.kind === 'failed' && (
        <Callout intent={Intent.DANGER} role="alert" className="portal-login-error" data-testid="reset-error">
          <FormattedMessage id="app.error.generic" />
        </Callout>
      )}
      <NewPasswordFields
        idPrefix="reset"
        values={values}
        serverError={serverError}
        autoFocus
        onChange={(next) => {
          if (next.newPassword !== values.newPassword) setServerError(undefined);
          setValues(next);
        }}
      />
      <Button type="submit" intent={Intent.PRIMARY} fill disabled={!ready} loading={isLoading} data-testid="reset-submit">
        <FormattedMessage id="reset.newPassword.submit" />
      </Button>
      <BackToSignIn onBack={onBack} />
    </form>
  );
}
