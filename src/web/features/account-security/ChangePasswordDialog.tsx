import { KeyIcon, TickCircleIcon } from '@blueprintjs/icons';
import { Button, Callout, Dialog, DialogBody, DialogFooter, Intent, Tab, Tabs } from '@blueprintjs/core';
import { LabelledInput } from '@web/ui/LabelledInput';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { showToast } from '@web/ui/toaster';
import { fieldErrorsOf } from '@web/core/fieldErrors';
import { NewPasswordFields } from '@web/ui/password/NewPasswordFields';
import { EMPTY_NEW_PASSWORD, newPasswordProblems, type NewPasswordValues } from '@web/ui/password/newPassword';
import { usePutUserPasswordMutation } from './passwordApi';
import { TwoFactorPanel } from './TwoFactorPanel';
import { messageOr } from '@web/core/messages';

interface Props {
  isOpen: boolean;
  onClose(): void;
  /** After the closing transition: where the focus goes back to. */
  onClosed?(): void;
}

type ServerErrors = Partial<Record<'currentPassword' | 'newPassword', string>>;

/**
 * Security: the signed-in user changes their password, or turns two-factor sign-in on or off (second tab). Save stays disabled until the current password is given,
 * the new one follows the rule and the repetition matches. What the server refuses shows under its field.
 */
export function ChangePasswordDialog({ isOpen, onClose, onClosed }: Props) {
  const intl = useIntl();
  const [changePassword, { isLoading }] = usePutUserPasswordMutation();
  const [current, setCurrent] = useState('');
  const [currentTouched, setCurrentTouched] = useState(false);
  const [next, setNext] = useState<NewPasswordValues>(EMPTY_NEW_PASSWORD);
  const [serverErrors, setServerErrors] = useState<ServerErrors>({});
  const [failed, setFailed] = useState(false);
  // A new key after each close, so the fields' own touched state starts afresh too.
  const [generation, setGeneration] = useState(0);
  const [tab, setTab] = useState<'password' | 'twoFactor'>('password');

  const currentProblem = current ? undefined : 'validation.password.required';
  const currentError = serverErrors.currentPassword ?? (currentTouched && currentProblem ? messageOr(intl, currentProblem) : undefined);
  const ready = !currentProblem && Object.keys(newPasswordProblems(next)).length === 0;

  const close = () => {
    setCurrent('');
    setCurrentTouched(false);
    setNext(EMPTY_NEW_PASSWORD);
    setServerErrors({});
    setFailed(false);
    setGeneration((g) => g + 1);
    setTab('password');
    onClose();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    setFailed(false);
    const result = await changePassword({ currentPassword: current, newPassword: next.newPassword });
    if ('data' in result) {
      showToast({ message: intl.formatMessage({ id: 'password.changed' }), intent: Intent.SUCCESS, icon: <TickCircleIcon /> });
      close();
      return;
    }
    const byField = fieldErrorsOf(result.error);
    const errors: ServerErrors = {};
    if (byField.currentPassword) errors.currentPassword = messageOr(intl, byField.currentPassword.messageId, byField.currentPassword.message);
    if (byField.newPassword) errors.newPassword = messageOr(intl, byField.newPassword.messageId, byField.newPassword.message);
    setServerErrors(errors);
    setFailed(Object.keys(errors).length === 0);
  };

  const passwordForm = (
    <form onSubmit={onSubmit} noValidate data-testid="change-password-form">
      <DialogBody>
        {failed && (
          <Callout intent={Intent.DANGER} role="alert" className="portal-login-error" data-testid="change-password-error">
            <FormattedMessage id="app.error.generic" />
          </Callout>
        )}
        <LabelledInput
          id="change-currentPassword"
          label={intl.formatMessage({ id: 'password.current' })}
          error={currentError}
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          autoFocus
          value={current}
          onBlur={() => setCurrentTouched(true)}
          onChange={(e) => {
            setCurrent(e.currentTarget.value);
            setServerErrors(({ currentPassword: _gone, ...rest }) => rest);
          }}
        />
        <NewPasswordFields
          key={generation}
          idPrefix="change"
          values={next}
          serverError={serverErrors.newPassword}
          onChange={(values) => {
            setNext(values);
            if (values.newPassword !== next.newPassword) setServerErrors(({ newPassword: _gone, ...rest }) => rest);
          }}
        />
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={close} data-testid="change-password-cancel">
              <FormattedMessage id="password.change.cancel" />
            </Button>
            <Button type="submit" intent={Intent.PRIMARY} disabled={!ready} loading={isLoading} data-testid="change-password-submit">
              <FormattedMessage id="password.change.submit" />
            </Button>
          </>
        }
      />
    </form>
  );

  return (
    <Dialog
      isOpen={isOpen}
      onClose={close}
      onClosed={onClosed}
      title={intl.formatMessage({ id: 'security.title' })}
      icon={<KeyIcon />}
      className="portal-change-password"
    >
      <Tabs id="security-tabs" className="portal-security-tabs" selectedTabId={tab} onChange={(id) => setTab(id as typeof tab)} renderActiveTabPanelOnly>
        <Tab id="password" title={intl.formatMessage({ id: 'password.change.title' })} data-testid="security-tab-password" panel={passwordForm} />
        <Tab
          id="twoFactor"
          title={intl.formatMessage({ id: 'twoFactor.title' })}
          data-testid="security-tab-two-factor"
          panel={
            <DialogBody>
              <TwoFactorPanel />
            </DialogBody>
          }
        />
      </Tabs>
    </Dialog>
  );
}
