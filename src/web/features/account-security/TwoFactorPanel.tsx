import { Button, Callout, H4, Intent, Tag } from '@blueprintjs/core';
import { TickCircleIcon } from '@blueprintjs/icons';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Loading } from '@web/ui/Loading';
import { showToast } from '@web/ui/toaster';
import { CodeField, isCode, TwoFactorSetup, twoFactorErrorText } from '@web/ui/password/TwoFactorSetup';
import {
  usePostUserTwoFactorConfirmMutation,
  usePostUserTwoFactorDisableMutation,
  usePostUserTwoFactorEnrolMutation,
  useGetUserTwoFactorQuery,
  type TwoFactorEnrolment,
} from '@web/core/twoFactorApi';

/**
 * Security, two-factor part: turn on (QR code and key, confirmed with a code) or off (with a current code).
 * Off is not offered when the user's reseller requires it.
 */
export function TwoFactorPanel() {
  const intl = useIntl();
  const status = useGetUserTwoFactorQuery();
  const [start, starting] = usePostUserTwoFactorEnrolMutation();
  const [confirm, confirming] = usePostUserTwoFactorConfirmMutation();
  const [disable, disabling] = usePostUserTwoFactorDisableMutation();
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment>();
  const [turningOff, setTurningOff] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();

  if (status.isLoading) return <Loading />;
  if (!status.data) {
    return (
      <Callout intent={Intent.DANGER}>
        <FormattedMessage id="app.error.generic" />
      </Callout>
    );
  }
  const { enabled, required } = status.data;

  const reset = () => {
    setEnrolment(undefined);
    setTurningOff(false);
    setCode('');
    setError(undefined);
  };

  const onStart = async () => {
    setError(undefined);
    const result = await start();
    if (result.data) setEnrolment(result.data);
    else setError(twoFactorErrorText(intl, result.error));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!isCode(code)) return;
    const result = enrolment ? await confirm({ code }) : await disable({ code });
    if (result.data) {
      showToast({
        message: intl.formatMessage({ id: result.data.enabled ? 'twoFactor.enabled' : 'twoFactor.disabled' }),
        intent: Intent.SUCCESS,
        icon: <TickCircleIcon />,
      });
      reset();
      return;
    }
    setCode('');
    setError(twoFactorErrorText(intl, result.error));
  };

  return (
    <div className="portal-two-factor" data-testid="two-factor-panel">
      <H4>
        <FormattedMessage id="twoFactor.title" />{' '}
        <Tag intent={enabled ? Intent.SUCCESS : Intent.NONE} minimal data-testid="two-factor-state">
          <FormattedMessage id={enabled ? 'twoFactor.stateOn' : 'twoFactor.stateOff'} />
        </Tag>
      </H4>
      <p>
        <FormattedMessage id={enabled ? 'twoFactor.on' : 'twoFactor.off'} />
      </p>
      {required && (
        <Callout intent={Intent.PRIMARY} data-testid="two-factor-required">
          <FormattedMessage id="twoFactor.required" />
        </Callout>
      )}
      {!enrolment && !turningOff && (
        <>
          {error && (
            <Callout intent={Intent.DANGER} role="alert">
              {error}
            </Callout>
          )}
          {!enabled && (
            <Button intent={Intent.PRIMARY} loading={starting.isLoading} onClick={onStart} data-testid="two-factor-turn-on">
              <FormattedMessage id="twoFactor.turnOn" />
            </Button>
          )}
          {enabled && !required && (
            <Button onClick={() => setTurningOff(true)} data-testid="two-factor-turn-off">
              <FormattedMessage id="twoFactor.turnOff" />
            </Button>
          )}
        </>
      )}
      {(enrolment || turningOff) && (
        <form onSubmit={onSubmit} noValidate data-testid="two-factor-form">
          {enrolment ? (
            <TwoFactorSetup enrolment={enrolment} />
          ) : (
            <p>
              <FormattedMessage id="twoFactor.turnOffHint" />
            </p>
          )}
          <CodeField
            id="security-code"
            value={code}
            onChange={(v) => {
              setCode(v);
              setError(undefined);
            }}
            error={error}
            autoFocus
          />
          <div className="portal-two-factor-actions">
            <Button onClick={reset} data-testid="two-factor-cancel">
              <FormattedMessage id="twoFactor.cancel" />
            </Button>
            <Button
              type="submit"
              intent={enrolment ? Intent.PRIMARY : Intent.DANGER}
              disabled={!isCode(code)}
              loading={confirming.isLoading || disabling.isLoading}
              data-testid="two-factor-submit"
            >
              <FormattedMessage id={enrolment ? 'twoFactor.confirm' : 'twoFactor.turnOff'} />
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}
