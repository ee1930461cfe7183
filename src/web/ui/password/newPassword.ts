/** The checks of a new password and its repetition, shared by the reset panel and the change-password dialog. */
import { passwordProblem } from '@shared/password';

export interface NewPasswordValues {
  newPassword: string;
  repeat: string;
}

export const EMPTY_NEW_PASSWORD: NewPasswordValues = { newPassword: '', repeat: '' };

/** Message ids of what is wrong: the portal's password rule, then the repetition. */
export function newPasswordProblems(values: NewPasswordValues): Partial<Record<keyof NewPasswordValues, string>> {
  const newPassword = passwordProblem(values.newPassword);
  const repeat = !values.repeat ? 'password.repeat.required' : values.repeat !== values.newPassword ? 'password.repeat.mismatch' : undefined;
  return { ...(newPassword ? { newPassword } : {}), ...(repeat ? { repeat } : {}) };
}
