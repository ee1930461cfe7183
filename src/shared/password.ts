/**
 * The portal's password rule, one definition for the server and the web forms (new password, reset, change).
 */

/** The special characters the rule asks for one of. */
export const PASSWORD_SPECIALS = '@#$!%^&+=';

/** At least 8 characters with a lowercase and an uppercase letter, a digit and a special character; no whitespace. */
export const PASSWORD_PATTERN = '^(?=.*[a-z])(?=.*[A-Z])(?=.*[0-9])(?=.*[@#$!%^&+=])\\S{8,}$';

/** Bounds the scrypt work a single request can ask for. */
export const PASSWORD_MAX_LENGTH = 128;

const rule = new RegExp(PASSWORD_PATTERN);

/** The message id of what is wrong with a new password, or undefined when it satisfies the rule. */
export function passwordProblem(password: unknown): string | undefined {
  if (typeof password !== 'string' || password === '') return 'validation.password.required';
  if (password.length > PASSWORD_MAX_LENGTH || !rule.test(password)) return 'validation.password.invalid';
  return undefined;
}

/** The rule as a JSON Schema property with ajv-errors message ids, for RJSF forms. */
export const passwordProperty = {
  type: 'string',
  minLength: 1,
  maxLength: PASSWORD_MAX_LENGTH,
  pattern: PASSWORD_PATTERN,
  errorMessage: { minLength: 'validation.password.required', maxLength: 'validation.password.invalid', pattern: 'validation.password.invalid' },
} as const;
