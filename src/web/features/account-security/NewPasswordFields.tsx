import { FormGroup, InputGroup, Intent } from '@blueprintjs/core';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { messageText } from '@web/features/login/fieldErrors';
import { newPasswordProblems, type NewPasswordValues } from './newPassword';

interface Props {
  /** Prefix of the inputs' ids, e.g. `reset` gives `reset-newPassword` and `reset-repeat`. */
  idPrefix: string;
  values: NewPasswordValues;
  onChange(values: NewPasswordValues): void;
  /** What the server said about the new password, already translated. */
  serverError?: string;
  autoFocus?: boolean;
}

/**
 * New password and its repetition. The rule shows as a hint until the field is left, then as an error while
 * it does not hold; the repetition is judged once it is left too.
 */
export function NewPasswordFields({ idPrefix, values, onChange, serverError, autoFocus }: Props) {
  const intl = useIntl();
  const [touched, setTouched] = useState({ newPassword: false, repeat: false });
  const problems = newPasswordProblems(values);
  const newPasswordError = serverError ?? (touched.newPassword && problems.newPassword ? messageText(intl, problems.newPassword) : undefined);
  const repeatError = touched.repeat && problems.repeat ? messageText(intl, problems.repeat) : undefined;
  const hint = !newPasswordError && problems.newPassword ? messageText(intl, 'validation.password.invalid') : undefined;
  const id = (name: keyof NewPasswordValues) => `${idPrefix}-${name}`;

  return (
    <>
      <FormGroup
        label={intl.formatMessage({ id: 'password.new' })}
        labelFor={id('newPassword')}
        intent={newPasswordError ? Intent.DANGER : Intent.NONE}
        helperText={
          newPasswordError ? (
            <span id={`${id('newPassword')}-error`}>{newPasswordError}</span>
          ) : hint ? (
            <span id={`${id('newPassword')}-hint`}>{hint}</span>
          ) : undefined
        }
      >
        <InputGroup
          id={id('newPassword')}
          name="newPassword"
          type="password"
          autoComplete="new-password"
          autoFocus={autoFocus}
          value={values.newPassword}
          intent={newPasswordError ? Intent.DANGER : Intent.NONE}
          aria-invalid={Boolean(newPasswordError)}
          aria-describedby={newPasswordError ? `${id('newPassword')}-error` : hint ? `${id('newPassword')}-hint` : undefined}
          onBlur={() => setTouched((t) => ({ ...t, newPassword: true }))}
          onChange={(e) => onChange({ ...values, newPassword: e.currentTarget.value })}
        />
      </FormGroup>
      <FormGroup
        label={intl.formatMessage({ id: 'password.repeat' })}
        labelFor={id('repeat')}
        intent={repeatError ? Intent.DANGER : Intent.NONE}
        helperText={repeatError ? <span id={`${id('repeat')}-error`}>{repeatError}</span> : undefined}
      >
        <InputGroup
          id={id('repeat')}
          name="repeat"
          type="password"
          autoComplete="new-password"
          value={values.repeat}
          intent={repeatError ? Intent.DANGER : Intent.NONE}
          aria-invalid={Boolean(repeatError)}
          aria-describedby={repeatError ? `${id('repeat')}-error` : undefined}
          onBlur={() => setTouched((t) => ({ ...t, repeat: true }))}
          onChange={(e) => onChange({ ...values, repeat: e.currentTarget.value })}
        />
      </FormGroup>
    </>
  );
}
