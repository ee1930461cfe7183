/** Reading the server's field errors for a form. */
import type { FieldError } from '@shared/wire';
import { apiErrorOf, type QueryError } from './apiErrors';

/** The first error of each field of a 400 answer, by field name. */
export function fieldErrorsOf(error: QueryError): Record<string, FieldError> {
  const byField: Record<string, FieldError> = {};
  for (const fieldError of apiErrorOf(error)?.fields ?? []) byField[fieldError.field] ??= fieldError;
  return byField;
}
