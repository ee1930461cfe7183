import { Button, Callout, H3, Intent } from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import { useLoginMutation } from '@web/core/authApi';
import type { LoginRequest, SignInResponse } from '@web/core/userTypes';
import { CodeField, isCode, TwoFactorSetup, twoFactorErrorText } from '@web/ui/password/TwoFactorSetup';

interface Props {
  /** The first step's credentials, sent again with the code: the server keeps no half-open session. */
  credentials: LoginRequest;
  step: Exclude<SignInResponse, { jwt: string }>;
  onBack(): void;
}

/**
 * Second step of sign-in: the code from the authenticator app. A user whose reseller requires two-factor
 * sign-in and who has not enrolled sees the QR code and key first; the code then also confirms enrolment.
 */
export function TwoFactorStep({ credentials, step, onBack }: Props) {
  const intl = useIntl();
  const navigate = useNavigate();
  const [login, { isLoading }] = useLoginMutation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!isCode(code)) return;
    const result = await login({ ...credentials, code });
    if (result.data && 'jwt' in result.data) {
      navigate('/', { replace: true });
      return;
    }
    setCode('');
    setError('error' in result ? twoFactorErrorText(intl, result.error) : intl.formatMessage({ id: 'app.error.generic' }));
  };

  return (
    <form className="portal-sign-in" onSubmit={onSubmit} noValidate data-testid="two-factor-step">
      <H3>
        <FormattedMessage id={step.twoFactor === 'enrol' ? 'login.twoFactor.enrolTitle' : 'login.twoFactor.title'} />
      </H3>
      {step.twoFactor === 'enrol' ? (
        <>
          <Callout intent={Intent.PRIMARY}>
            <FormattedMessage id="login.twoFactor.enrolHint" />
          </Callout>
          <TwoFactorSetup enrolment={step} />
        </>
      ) : (
        <p>
          <FormattedMessage id="login.twoFactor.codeHint" />
        </p>
      )}
      <CodeField
        id="login-code"
        value={code}
        onChange={(v) => {
          setCode(v);
          setError(undefined);
        }}
        error={error}
        autoFocus
      />
      <Button type="submit" intent={Intent.PRIMARY} fill disabled={!isCode(code)} loading={isLoading} data-testid="two-factor-submit">
        <FormattedMessage id="login.twoFactor.submit" />
      </Button>
      <Button variant="minimal" fill onClick={onBack} data-testid="two-factor-back">
        <FormattedMessage id="login.twoFactor.back" />
      </Button>
    </form>
  );
}
