import { Button, Callout, Checkbox, H3, Intent } from '@blueprintjs/core';
import { LabelledInput } from '@web/ui/LabelledInput';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import { useLoginMutation } from '@web/core/authApi';
import type { LoginRequest, SignInResponse } from '@web/core/userTypes';
import { TwoFactorStep } from './TwoFactorStep';

interface Fields {
  userName: string;
  password: string;
}

const EMPTY: Fields = { userName: '', password: '' };

function requiredErrors(fields: Fields): Partial<Record<keyof Fields, string>> {
  return {
    ...(fields.userName.trim() ? {} : { userName: 'login.userName.required' }),
    ...(fields.password ? {} : { password: 'login.password.required' }),
  };
}

/**
 * Sign-in with username or e-mail. A refused sign-in clears both fields and starts validation afresh. When the
 * server asks for a second factor, the code step replaces the form.
 */
export function SignInForm() {
  const intl = useIntl();
  const navigate = useNavigate();
  const [login, { isLoading }] = useLoginMutation();
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [remember, setRemember] = useState(false);
  // Errors show after the first submit, so an untouched form is not red.
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState<'login.error' | 'login.disabled' | 'app.error.generic' | 'error.rateLimited' | null>(null);
  const [secondStep, setSecondStep] = useState<{ credentials: LoginRequest; step: Exclude<SignInResponse, { jwt: string }> }>();
  const errors = submitted ? requiredErrors(fields) : {};

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(requiredErrors(fields)).length > 0) return;
    setFailure(null);
    const credentials = { userName: fields.userName.trim(), password: fields.password, remember };
    const result = await login(credentials);
    if (result.data) {
      if ('jwt' in result.data) navigate('/', { replace: true });
      else setSecondStep({ credentials, step: result.data });
      return;
    }
    const status = result.error && 'status' in result.error ? result.error.status : undefined;
    console.warn('Sign-in failed', status);
    const code = result.error && 'data' in result.error ? (result.error.data as { code?: unknown } | undefined)?.code : undefined;
    setFailure(
      code === 'USER_DISABLED'
        ? 'login.disabled'
        : status === 401 || status === 400 || status === 403
          ? 'login.error'
          : status === 429
            ? 'error.rateLimited'
            : 'app.error.generic',
    );
    setFields(EMPTY);
    setSubmitted(false);
  };

  const field = (name: keyof Fields) => {
    const error = errors[name];
    return {
      id: `login-${name}`,
      name,
      value: fields[name],
      error: error ? intl.formatMessage({ id: error }) : undefined,
      onChange: (e: ChangeEvent<HTMLInputElement>) => setFields({ ...fields, [name]: e.currentTarget.value }),
    };
  };

  if (secondStep) {
    return (
      <TwoFactorStep
        credentials={secondStep.credentials}
        step={secondStep.step}
        onBack={() => {
          setSecondStep(undefined);
          setFields(EMPTY);
          setSubmitted(false);
        }}
      />
    );
  }

  return (
    <form className="portal-sign-in" onSubmit={onSubmit} noValidate data-testid="sign-in-form">
      <H3>
        <FormattedMessage id="login.title" />
      </H3>
      {failure && (
        <Callout intent={Intent.DANGER} role="alert" data-testid="login-error" className="portal-login-error">
          <FormattedMessage id={failure} />
        </Callout>
      )}
      <LabelledInput {...field('userName')} label={intl.formatMessage({ id: 'login.userName' })} autoComplete="username" autoFocus />
      <LabelledInput {...field('password')} label={intl.formatMessage({ id: 'login.password' })} type="password" autoComplete="current-password" />
      <Checkbox
        id="login-remember"
        checked={remember}
        label={intl.formatMessage({ id: 'login.rememberMe' })}
        onChange={(e) => setRemember(e.currentTarget.checked)}
      />
      <Button type="submit" intent={Intent.PRIMARY} fill loading={isLoading} data-testid="sign-in-submit">
        <FormattedMessage id="login.submit" />
      </Button>
    </form>
  );
}
