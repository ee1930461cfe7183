import { LabelledInput } from '../LabelledInput';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { newPasswordProblems, type NewPasswordValues } from './newPassword';
import { messageOr } from '@web/core/messages';

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
  const newPasswordError = serverError ?? (touched.newPassword && problems.newPassword ? messageOr(intl, problems.newPassword) : undefined);
  const repeatError = touched.repeat && problems.repeat ? messageOr(intl, problems.repeat) : undefined;
  const hint = !newPasswordError && problems.newPassword ? messageOr(intl, 'validation.password.invalid') : undefined;
  const id = (name: keyof NewPasswordValues) => `${idPrefix}-${name}`;

  return (
    <>
      <LabelledInput
        id={id('newPassword')}
        label={intl.formatMessage({ id: 'password.new' })}
        error={newPasswordError}
        hint={hint}
        name="newPassword"
        type="password"
        autoComplete="new-password"
        autoFocus={autoFocus}
        value={values.newPassword}
        onBlur={() => setTouched((t) => ({ ...t, newPassword: true }))}
        onChange={(e) => onChange({ ...values, newPassword: e.currentTarget.value })}
      />
      <LabelledInput
        id={id('repeat')}
        label={intl.formatMessage({ id: 'password.repeat' })}
        error={repeatError}
        name="repeat"
        type="password"
        autoComplete="new-password"
        value={values.repeat}
        onBlur={() => setTouched((t) => ({ ...t, repeat: true }))}
        onChange={(e) => onChange({ ...values, repeat: e.currentTarget.value })}
      />
    </>
  );
}
