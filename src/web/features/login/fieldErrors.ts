/** Reading the server's field errors for a form, and showing any message id in the user's language. */
import type { IntlShape } from 'react-intl';
import type { FieldError } from '@shared/wire';
import { apiErrorOf, type QueryError } from '@web/engine/apiErrors';

/** A message id in the user's language; the server's English text, or the id, when the catalogue lacks it. */
export function messageText(intl: IntlShape, messageId: string, fallback?: string): string {
  return messageId in intl.messages ? intl.formatMessage({ id: messageId }) : (fallback ?? messageId);
}

/** The first error of each field of a 400 answer, by field name. */
export function fieldErrorsOf(error: QueryError): Record<string, FieldError> {
  const byField: Record<string, FieldError> = {};
  for (const fieldError of apiErrorOf(error)?.fields ?? []) byField[fieldError.field] ??= fieldError;
  return byField;
}
